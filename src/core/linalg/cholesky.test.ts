import { describe, expect, it } from 'vitest';
import { choleskyLower, choleskyLowerInPlace, multiplyLowerTriangular } from './cholesky';

describe('choleskyLowerInPlace', () => {
  it('factors [4, 2; 2, 3] as [2, 0; 1, √2] (worked by hand: 2² = 4, 1·2 = 2, 1 + √2² = 3)', () => {
    const out = new Float64Array(4);
    expect(choleskyLowerInPlace(Float64Array.of(4, 2, 2, 3), 2, out)).toBe(true);
    expect(Array.from(out)).toEqual([2, 0, 1, Math.SQRT2]);
  });

  it('reproduces a 4 × 4 matrix A = B·Bᵀ to 1e-12 relative', () => {
    const b = [
      [3, 0, 0, 0],
      [1, 2, 0, 0],
      [-1, 0.5, 1.5, 0],
      [2, -1, 0.25, 0.75],
    ];
    const a = new Float64Array(16);
    for (let i = 0; i < 4; i++)
      for (let j = 0; j < 4; j++) for (let k = 0; k < 4; k++) a[i * 4 + j] += b[i]![k]! * b[j]![k]!;
    const out = new Float64Array(16);
    expect(choleskyLowerInPlace(a, 4, out)).toBe(true);
    for (let i = 0; i < 4; i++) for (let j = 0; j < 4; j++) expect(out[i * 4 + j]).toBeCloseTo(b[i]![j]!, 12);
  });

  it('refuses a matrix that is not positive definite', () => {
    expect(choleskyLowerInPlace(Float64Array.of(1, 2, 2, 1), 2, new Float64Array(4))).toBe(false);
    expect(choleskyLowerInPlace(Float64Array.of(0, 0, 0, 1), 2, new Float64Array(4))).toBe(false);
  });
});

describe('multiplyLowerTriangular', () => {
  it('computes L·v', () => {
    const out = new Float64Array(2);
    multiplyLowerTriangular(Float64Array.of(2, 0, 1, 3), 2, Float64Array.of(1, -1), out);
    expect(Array.from(out)).toEqual([2, -2]);
  });
});

describe('choleskyLower (matrix as rows)', () => {
  it('gives the same factor as the in-place version: [4, 2; 2, 3] → [2, 0; 1, √2]', () => {
    expect(
      choleskyLower([
        [4, 2],
        [2, 3],
      ]),
    ).toEqual([
      [2, 0],
      [1, Math.SQRT2],
    ]);
  });

  it('says which rule a matrix breaks', () => {
    expect(() => choleskyLower([[1, 2]])).toThrow('matrix must be square: row 0 has 2 entries, not 1');
    expect(() =>
      choleskyLower([
        [1, 2],
        [3, 1],
      ]),
    ).toThrow('matrix must be symmetric: [1][0] = 3 but [0][1] = 2');
    expect(() =>
      choleskyLower([
        [1, 2],
        [2, 1],
      ]),
    ).toThrow('matrix must be positive definite');
  });
});
