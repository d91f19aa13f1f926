/**
 * Dense linear algebra on small matrices (arrays of rows), as the Wishart samplers need; the Cholesky
 * factor is in cholesky.ts.
 * O(p³) per call; meant for p up to a few dozen.
 */

/** The inverse of a lower-triangular matrix with non-zero diagonal, by forward substitution. */
export function invertLowerTriangular(lower: readonly (readonly number[])[]): number[][] {
  const p = lower.length;
  const inverse = Array.from({ length: p }, () => new Array<number>(p).fill(0));
  for (let j = 0; j < p; j++) {
    inverse[j][j] = 1 / lower[j][j];
    for (let i = j + 1; i < p; i++) {
      let sum = 0;
      for (let k = j; k < i; k++) sum += lower[i][k] * inverse[k][j];
      inverse[i][j] = -sum / lower[i][i];
    }
  }
  return inverse;
}

/** M·Mᵀ, exactly symmetric (each off-diagonal entry computed once). */
export function multiplyByOwnTranspose(m: readonly (readonly number[])[]): number[][] {
  const p = m.length;
  const q = p === 0 ? 0 : m[0].length;
  const result = Array.from({ length: p }, () => new Array<number>(p).fill(0));
  for (let i = 0; i < p; i++) {
    for (let j = 0; j <= i; j++) {
      let sum = 0;
      for (let k = 0; k < q; k++) sum += m[i][k] * m[j][k];
      result[i][j] = sum;
      result[j][i] = sum;
    }
  }
  return result;
}

/** A·B for conformable dense matrices. */
export function multiply(a: readonly (readonly number[])[], b: readonly (readonly number[])[]): number[][] {
  const rows = a.length;
  const inner = b.length;
  const cols = inner === 0 ? 0 : b[0].length;
  const result = Array.from({ length: rows }, () => new Array<number>(cols).fill(0));
  for (let i = 0; i < rows; i++) {
    for (let k = 0; k < inner; k++) {
      const aik = a[i][k];
      if (aik === 0) continue;
      for (let j = 0; j < cols; j++) result[i][j] += aik * b[k][j];
    }
  }
  return result;
}

/** Aᵀ. */
export function transpose(a: readonly (readonly number[])[]): number[][] {
  const rows = a.length;
  const cols = rows === 0 ? 0 : a[0].length;
  return Array.from({ length: cols }, (_, j) => Array.from({ length: rows }, (_, i) => a[i][j]));
}
