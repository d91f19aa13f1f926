import { EigenvalueDecomposition, Matrix } from 'ml-matrix';

/**
 * The symmetric matrix nearest to A in the Frobenius norm whose eigenvalues are all >= floor:
 * A = QΛQᵀ, Λ clamped from below (Higham 1988, "Computing a nearest symmetric positive semidefinite
 * matrix", Theorem 2.1, with a floor instead of 0). Post-processing of the noisy scatter. Cost O(p³).
 */
export function projectToPositiveDefinite(a: readonly (readonly number[])[], floor: number): number[][] {
  const decomposition = new EigenvalueDecomposition(new Matrix(a.map((row) => [...row])), {
    assumeSymmetric: true,
  });
  const q = decomposition.eigenvectorMatrix;
  const values = decomposition.realEigenvalues.map((value) => Math.max(floor, value));
  const p = a.length;
  const out = Array.from({ length: p }, () => new Array<number>(p).fill(0));
  for (let i = 0; i < p; i++) {
    for (let j = i; j < p; j++) {
      let s = 0;
      for (let k = 0; k < p; k++) s += q.get(i, k) * values[k]! * q.get(j, k);
      out[i]![j] = out[j]![i] = s;
    }
  }
  return out;
}
