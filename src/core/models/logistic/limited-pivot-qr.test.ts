import { describe, expect, it } from 'vitest';
import { inverseOfCrossProduct, limitedPivotQr, solveLeastSquares } from './limited-pivot-qr';

/** Column-major copy of a row-major matrix given as rows. */
function columnMajor(rows: number[][]): Float64Array {
  const n = rows.length;
  const p = rows[0]!.length;
  const out = new Float64Array(n * p);
  rows.forEach((row, i) => row.forEach((value, j) => (out[j * n + i] = value)));
  return out;
}

describe('limitedPivotQr (R dqrdc2: limited column pivoting)', () => {
  it('solves a full-rank least-squares problem', () => {
    // y = 1 + 2x exactly: coefficients (1, 2).
    const rows = [0, 1, 2, 3, 4].map((x) => [1, x]);
    const qr = limitedPivotQr(columnMajor(rows), 5, 2, 1e-7);
    expect(qr.rank).toBe(2);
    const b = solveLeastSquares(qr, Float64Array.from([1, 3, 5, 7, 9]));
    expect(b[0]).toBeCloseTo(1, 12);
    expect(b[1]).toBeCloseTo(2, 12);
    // (XᵀX)⁻¹ for X = [1, x], x = 0..4: XᵀX = [[5, 10], [10, 30]], inverse [[0.6, -0.2], [-0.2, 0.1]].
    const inverse = inverseOfCrossProduct(qr);
    [0.6, -0.2, -0.2, 0.1].forEach((value, k) => expect(inverse[k]).toBeCloseTo(value, 12));
  });

  it('moves a collinear or zero column to the end and keeps the others in order (R keeps the earlier one)', () => {
    // Columns: 1, x, 2x (collinear with x), 0, z.
    const rows = [
      [1, 1, 2, 0, 0.5],
      [1, 2, 4, 0, -1],
      [1, 3, 6, 0, 2],
      [1, 4, 8, 0, 0],
      [1, 5, 10, 0, 1.5],
      [1, 6, 12, 0, -0.5],
    ];
    const qr = limitedPivotQr(columnMajor(rows), 6, 5, 1e-7);
    expect(qr.rank).toBe(3);
    expect(Array.from(qr.pivot.subarray(0, 3))).toEqual([0, 1, 4]);
    expect(Array.from(qr.pivot.subarray(3)).sort()).toEqual([2, 3]);
  });
});
