/**
 * In-place lower Cholesky factor of a small symmetric positive-definite matrix, as used for the
 * proposal covariance of the random-walk Metropolis sampler (Haario, Saksman & Tamminen 2001).
 *
 * Given A (d × d, row-major, only the lower triangle is read) writes L with A = L·Lᵀ into `out`
 * (row-major, upper triangle zeroed). Standard column-by-column algorithm (Golub & Van Loan,
 * Matrix Computations, 4th ed., Algorithm 4.2.1): L_jj = √(A_jj − Σ_{k<j} L_jk²),
 * L_ij = (A_ij − Σ_{k<j} L_ik L_jk) / L_jj. Cost O(d³/3); no allocation.
 *
 * Returns false (leaving `out` partly written) when a pivot is not positive, i.e. A is not
 * numerically positive definite; callers then keep their previous factor.
 * Example: A = [4, 2; 2, 3] gives L = [2, 0; 1, √2].
 */
export function choleskyLowerInPlace(matrix: Float64Array, dimension: number, out: Float64Array): boolean {
  for (let j = 0; j < dimension; j++) {
    let pivot = matrix[j * dimension + j]!;
    for (let k = 0; k < j; k++) {
      const ljk = out[j * dimension + k]!;
      pivot -= ljk * ljk;
    }
    if (!(pivot > 0) || !Number.isFinite(pivot)) return false;
    const ljj = Math.sqrt(pivot);
    out[j * dimension + j] = ljj;
    for (let i = j + 1; i < dimension; i++) {
      let sum = matrix[i * dimension + j]!;
      for (let k = 0; k < j; k++) sum -= out[i * dimension + k]! * out[j * dimension + k]!;
      out[i * dimension + j] = sum / ljj;
    }
    for (let i = 0; i < j; i++) out[i * dimension + j] = 0;
  }
  return true;
}

/**
 * out = L · v for a lower-triangular row-major L (d × d). Cost O(d²/2); no allocation.
 * Used to turn independent standard normals into a correlated proposal step.
 */
export function multiplyLowerTriangular(
  lower: Float64Array,
  dimension: number,
  vector: Float64Array,
  out: Float64Array,
): void {
  for (let i = 0; i < dimension; i++) {
    let sum = 0;
    for (let k = 0; k <= i; k++) sum += lower[i * dimension + k]! * vector[k]!;
    out[i] = sum;
  }
}

/**
 * The lower-triangular L with L·Lᵀ = A for a symmetric positive definite A given as rows, from
 * choleskyLowerInPlace (same algorithm and arithmetic). Throws RangeError when A is not square, not
 * symmetric or not positive definite.
 */
export function choleskyLower(a: readonly (readonly number[])[]): number[][] {
  const p = a.length;
  const flat = new Float64Array(p * p);
  for (let i = 0; i < p; i++) {
    if (a[i]!.length !== p)
      throw new RangeError(`matrix must be square: row ${i} has ${a[i]!.length} entries, not ${p}`);
    for (let j = 0; j <= i; j++) {
      const [aij, aji] = [a[i]![j]!, a[j]![i]!];
      if (Math.abs(aij - aji) > 1e-12 * (Math.abs(aij) + Math.abs(aji))) {
        throw new RangeError(`matrix must be symmetric: [${i}][${j}] = ${aij} but [${j}][${i}] = ${aji}`);
      }
      flat[i * p + j] = aij;
    }
  }
  const lower = new Float64Array(p * p);
  if (!choleskyLowerInPlace(flat, p, lower)) throw new RangeError('matrix must be positive definite');
  return Array.from({ length: p }, (_, i) => Array.from(lower.subarray(i * p, (i + 1) * p)));
}
