/**
 * Householder QR with R's "limited column pivoting" (LINPACK dqrdc2 as modified for R, used by
 * lm and glm): columns are processed left to right, and a column whose norm, after the reflections
 * so far, has fallen below `tol` × its original norm is moved to the end and treated as aliased.
 * Columns therefore keep their order except that aliased ones go last, so with collinear columns
 * the later one is dropped, as in R (`coef` NA).
 *
 * Storage: `a` is column-major n × p (a[j * n + i]) and is overwritten by the factorisation.
 * O(n p²).
 */
export interface LimitedPivotQr {
  n: number;
  p: number;
  /** Column-major factor: R in the upper triangle of the first `rank` columns, reflectors below. */
  a: Float64Array;
  /** Householder scalars per column. */
  qraux: Float64Array;
  /** pivot[j] = original index of the column now at position j. */
  pivot: Int32Array;
  rank: number;
}

function norm2(a: Float64Array, from: number, to: number): number {
  // Scaled sum of squares, as the reference BLAS dnrm2 does, to avoid overflow/underflow.
  let scale = 0;
  let ssq = 1;
  for (let i = from; i < to; i++) {
    const v = a[i]!;
    if (v !== 0) {
      const absV = Math.abs(v);
      if (scale < absV) {
        ssq = 1 + ssq * (scale / absV) * (scale / absV);
        scale = absV;
      } else {
        ssq += (absV / scale) * (absV / scale);
      }
    }
  }
  return scale * Math.sqrt(ssq);
}

/** Moves column l of the column-major matrix (and its bookkeeping) to the last position. */
function rotateColumnToEnd(
  qr: LimitedPivotQr,
  l: number,
  originalNorm: Float64Array,
  currentNorm: Float64Array,
): void {
  const { a, n, p, qraux, pivot } = qr;
  const saved = a.slice(l * n, (l + 1) * n);
  a.copyWithin(l * n, (l + 1) * n, p * n);
  a.set(saved, (p - 1) * n);
  const shift = (array: Float64Array | Int32Array): void => {
    const value = array[l]!;
    array.copyWithin(l, l + 1, p);
    array[p - 1] = value;
  };
  shift(pivot);
  shift(qraux);
  shift(originalNorm);
  shift(currentNorm);
}

export function limitedPivotQr(a: Float64Array, n: number, p: number, tol: number): LimitedPivotQr {
  const qr: LimitedPivotQr = { n, p, a, qraux: new Float64Array(p), pivot: new Int32Array(p), rank: 0 };
  const { qraux, pivot } = qr;
  const columnNorm = new Float64Array(p); // work(,1): norms for re-computation
  const referenceNorm = new Float64Array(p); // work(,2): original norms (1 for a zero column)
  for (let j = 0; j < p; j++) {
    pivot[j] = j;
    const norm = norm2(a, j * n, (j + 1) * n);
    qraux[j] = norm;
    columnNorm[j] = norm;
    referenceNorm[j] = norm === 0 ? 1 : norm;
  }
  const steps = Math.min(n, p);
  let kept = p; // columns not (yet) moved to the end
  for (let l = 0; l < steps; l++) {
    while (l < kept && qraux[l]! < referenceNorm[l]! * tol) {
      rotateColumnToEnd(qr, l, referenceNorm, columnNorm);
      kept--;
    }
    if (l === n - 1) break;
    const lOffset = l * n;
    let nrmxl = norm2(a, lOffset + l, lOffset + n);
    if (nrmxl === 0) continue;
    if (a[lOffset + l] !== 0) nrmxl = Math.sign(a[lOffset + l]!) * Math.abs(nrmxl);
    for (let i = l; i < n; i++) a[lOffset + i] = a[lOffset + i]! / nrmxl;
    a[lOffset + l] = 1 + a[lOffset + l]!;
    const pivotValue = a[lOffset + l]!;
    for (let j = l + 1; j < p; j++) {
      const jOffset = j * n;
      let dot = 0;
      for (let i = l; i < n; i++) dot += a[lOffset + i]! * a[jOffset + i]!;
      const t = -dot / pivotValue;
      for (let i = l; i < n; i++) a[jOffset + i] = a[jOffset + i]! + t * a[lOffset + i]!;
      if (qraux[j] !== 0) {
        const ratio = Math.abs(a[jOffset + l]!) / qraux[j]!;
        const tt = Math.max(1 - ratio * ratio, 0);
        if (Math.abs(tt) < 1e-6) {
          const recomputed = norm2(a, jOffset + l + 1, jOffset + n);
          qraux[j] = recomputed;
          columnNorm[j] = recomputed;
        } else {
          qraux[j] = qraux[j]! * Math.sqrt(tt);
        }
      }
    }
    qraux[l] = a[lOffset + l]!;
    a[lOffset + l] = -nrmxl;
  }
  qr.rank = Math.min(kept, n);
  return qr;
}

/**
 * Least-squares coefficients for the first `rank` pivoted columns: solves R b = (Qᵀ z)[0..rank).
 * `z` (length n) is overwritten with Qᵀ z. Returns b in pivoted order (length rank).
 */
export function solveLeastSquares(qr: LimitedPivotQr, z: Float64Array): Float64Array {
  const { a, n, qraux, rank } = qr;
  const steps = Math.min(rank, n - 1);
  for (let l = 0; l < steps; l++) {
    if (qraux[l] === 0) continue;
    const lOffset = l * n;
    const diagonal = a[lOffset + l]!;
    a[lOffset + l] = qraux[l]!;
    let dot = 0;
    for (let i = l; i < n; i++) dot += a[lOffset + i]! * z[i]!;
    const t = -dot / a[lOffset + l]!;
    for (let i = l; i < n; i++) z[i] = z[i]! + t * a[lOffset + i]!;
    a[lOffset + l] = diagonal;
  }
  const b = new Float64Array(rank);
  for (let j = rank - 1; j >= 0; j--) {
    let sum = z[j]!;
    for (let k = j + 1; k < rank; k++) sum -= a[k * n + j]! * b[k]!;
    b[j] = sum / a[j * n + j]!;
  }
  return b;
}

/** (RᵀR)⁻¹ for the leading rank × rank block of R (R's chol2inv), row-major rank × rank. */
export function inverseOfCrossProduct(qr: LimitedPivotQr): Float64Array {
  const { a, n, rank } = qr;
  // Rinv: upper triangular inverse of R by back substitution, column by column.
  const rInverse = new Float64Array(rank * rank);
  for (let j = 0; j < rank; j++) {
    rInverse[j * rank + j] = 1 / a[j * n + j]!;
    for (let i = j - 1; i >= 0; i--) {
      let sum = 0;
      for (let k = i + 1; k <= j; k++) sum += a[k * n + i]! * rInverse[k * rank + j]!;
      rInverse[i * rank + j] = -sum / a[i * n + i]!;
    }
  }
  const out = new Float64Array(rank * rank);
  for (let i = 0; i < rank; i++) {
    for (let j = i; j < rank; j++) {
      let sum = 0;
      for (let k = j; k < rank; k++) sum += rInverse[i * rank + k]! * rInverse[j * rank + k]!;
      out[i * rank + j] = sum;
      out[j * rank + i] = sum;
    }
  }
  return out;
}
