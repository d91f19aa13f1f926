/**
 * Householder QR decomposition with R's limited column pivoting (LINPACK dqrdc2 as used by `lm`):
 * columns are processed left to right and a column whose norm, after removing its projection on the
 * columns kept so far, is at most `tolerance` times its original norm is moved to the end and marked
 * aliased. Kept columns stay in their original order, so the aliased set is the one R reports (the
 * later of two collinear columns). Golub & Van Loan, Matrix Computations (4th ed.), §5.2.1 and §5.4.1.
 */
export interface PivotedQr {
  n: number;
  p: number;
  /** Number of kept (non-aliased) columns. */
  rank: number;
  /** pivot[k] = original index of the column in position k; positions ≥ rank are aliased columns. */
  pivot: Int32Array;
  /** Column-major n × p matrix: R on and above the diagonal (first `rank` columns), Householder vectors below. */
  factor: Float64Array;
  /** Householder scalars β_k of H_k = I − β_k v_k v_kᵀ (v_k has a leading 1 implied at row k). */
  betas: Float64Array;
}

/** R's default tolerance for `lm` (`lm.fit(tol = 1e-7)`). */
export const LM_QR_TOLERANCE = 1e-7;

function columnNormFrom(a: Float64Array, n: number, column: number, fromRow: number): number {
  // Scaled sum of squares avoids overflow/underflow for extreme entries.
  let scale = 0;
  for (let i = fromRow; i < n; i++) scale = Math.max(scale, Math.abs(a[column * n + i]!));
  if (scale === 0) return 0;
  let sum = 0;
  for (let i = fromRow; i < n; i++) {
    const x = a[column * n + i]! / scale;
    sum += x * x;
  }
  return scale * Math.sqrt(sum);
}

/**
 * Factorises the n × p design matrix X (row-major, X[i·p + j]) as X P = Q R.
 * Cost O(n p²); memory one n × p copy.
 */
export function householderQrWithLimitedPivoting(
  xRowMajor: Float64Array,
  n: number,
  p: number,
  tolerance: number = LM_QR_TOLERANCE,
): PivotedQr {
  if (xRowMajor.length !== n * p)
    throw new RangeError(`design has ${xRowMajor.length} entries, expected ${n} × ${p}`);
  const a = new Float64Array(n * p);
  for (let i = 0; i < n; i++) for (let j = 0; j < p; j++) a[j * n + i] = xRowMajor[i * p + j]!;
  const originalNorms = new Float64Array(p);
  for (let j = 0; j < p; j++) originalNorms[j] = columnNormFrom(a, n, j, 0);
  const pivot = Int32Array.from({ length: p }, (_, j) => j);
  const betas = new Float64Array(p);
  let rank = 0;
  let remaining = p;
  const limit = Math.min(n, p);
  while (rank < remaining && rank < limit) {
    const k = rank;
    const norm = columnNormFrom(a, n, k, k);
    if (norm === 0 || norm <= tolerance * originalNorms[k]!) {
      // Rotate column k to the end: it is aliased with the kept columns.
      const saved = a.slice(k * n, (k + 1) * n);
      const savedPivot = pivot[k]!;
      const savedNorm = originalNorms[k]!;
      a.copyWithin(k * n, (k + 1) * n, p * n);
      a.set(saved, (p - 1) * n);
      pivot.copyWithin(k, k + 1);
      pivot[p - 1] = savedPivot;
      originalNorms.copyWithin(k, k + 1);
      originalNorms[p - 1] = savedNorm;
      remaining--;
      continue;
    }
    // Householder vector v = x − α e₁ with α = −sign(x₀)‖x‖, scaled so v₀ = 1.
    const x0 = a[k * n + k]!;
    const alpha = x0 >= 0 ? -norm : norm;
    const v0 = x0 - alpha;
    for (let i = k + 1; i < n; i++) a[k * n + i]! /= v0;
    const beta = -v0 / alpha;
    betas[k] = beta;
    a[k * n + k] = alpha;
    for (let j = k + 1; j < p; j++) {
      let dot = a[j * n + k]!;
      for (let i = k + 1; i < n; i++) dot += a[k * n + i]! * a[j * n + i]!;
      const scaled = beta * dot;
      a[j * n + k]! -= scaled;
      for (let i = k + 1; i < n; i++) a[j * n + i]! -= scaled * a[k * n + i]!;
    }
    rank++;
  }
  return { n, p, rank, pivot, factor: a, betas };
}

/** Overwrites `vector` (length n) with Qᵀ · vector using the stored Householder reflections. O(n · rank). */
export function applyQTranspose(qr: PivotedQr, vector: Float64Array): void {
  const { n, factor, betas } = qr;
  for (let k = 0; k < qr.rank; k++) {
    let dot = vector[k]!;
    for (let i = k + 1; i < n; i++) dot += factor[k * n + i]! * vector[i]!;
    const scaled = betas[k]! * dot;
    vector[k]! -= scaled;
    for (let i = k + 1; i < n; i++) vector[i]! -= scaled * factor[k * n + i]!;
  }
}

/** Inverse of the leading rank × rank upper-triangular R, row-major. O(rank³). */
export function invertUpperTriangularR(qr: PivotedQr): Float64Array {
  const { n, rank, factor } = qr;
  const r = (i: number, j: number) => factor[j * n + i]!;
  const inverse = new Float64Array(rank * rank);
  for (let j = rank - 1; j >= 0; j--) {
    inverse[j * rank + j] = 1 / r(j, j);
    for (let i = j - 1; i >= 0; i--) {
      let sum = 0;
      for (let l = i + 1; l <= j; l++) sum += r(i, l) * inverse[l * rank + j]!;
      inverse[i * rank + j] = -sum / r(i, i);
    }
  }
  return inverse;
}
