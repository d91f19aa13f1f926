import { describe, expect, it } from 'vitest';
import { SeededRng } from '../../rng/seeded-rng';
import { glomSensitivities } from './glom-model';
import { glomStatistics, type GlomNumericInput } from '../../models/glom-statistics';

const BOUNDS: [number, number][] = [
  [0, 10],
  [-2, 2],
];

function inputs(rows: number[][]): GlomNumericInput[] {
  return BOUNDS.map(([lo, hi], j) => ({
    values: Float64Array.from(rows, (row) => row[j]!),
    missing: new Uint8Array(rows.length),
    lo,
    hi,
  }));
}

describe('glomStatistics', () => {
  it('counts, midpoint-centred cell sums and the pooled within-cell scatter of a worked table', () => {
    // Cell 0: (1, 0), (3, 1); cell 1: (10, −2). Midpoints 5 and 0.
    const stats = glomStatistics(
      Uint32Array.of(0, 0, 1),
      2,
      inputs([
        [1, 0],
        [3, 1],
        [10, -2],
      ]),
    );
    expect(Array.from(stats.counts)).toEqual([2, 1]);
    expect(Array.from(stats.sums[0]!)).toEqual([-4 - 2, 5]);
    expect(Array.from(stats.sums[1]!)).toEqual([1, -2]);
    // Cell 0 deviations: (−1, −0.5), (1, 0.5); cell 1 has one row, no scatter.
    expect(stats.scatter).toEqual([
      [2, 1],
      [1, 0.5],
    ]);
    expect(stats.missing).toEqual([0, 0]);
  });

  it('a missing value counts at the midpoint; values outside the bounds are clamped', () => {
    const columns = inputs([
      [20, 0],
      [Number.NaN, 0],
    ]);
    const stats = glomStatistics(Uint32Array.of(0, 0), 1, columns);
    expect(stats.sums[0]![0]).toBe(5 + 0);
    expect(stats.missing).toEqual([1, 0]);
  });

  it('replace-one changes stay within the stated sensitivities, and the off-diagonal bound needs its factor 2', () => {
    const sensitivity = glomSensitivities(BOUNDS);
    const rng = new SeededRng(13);
    const corner = () => BOUNDS.map(([lo, hi]) => (rng.nextFloat() < 0.5 ? lo : hi));
    const anywhere = () => BOUNDS.map(([lo, hi]) => lo + rng.nextFloat() * (hi - lo));
    for (let trial = 0; trial < 3000; trial++) {
      const n = 2 + Math.floor(rng.nextFloat() * 30);
      const draw = trial % 2 === 0 ? corner : anywhere;
      const rows = Array.from({ length: n }, draw);
      const cells = Uint32Array.from({ length: n }, () => Math.floor(rng.nextFloat() * 3));
      const before = glomStatistics(cells, 3, inputs(rows));
      const i = Math.floor(rng.nextFloat() * n);
      rows[i] = draw();
      const moved = cells.slice();
      moved[i] = Math.floor(rng.nextFloat() * 3);
      const after = glomStatistics(moved, 3, inputs(rows));
      for (let j = 0; j < 2; j++) {
        let l1 = 0;
        for (let k = 0; k < 3; k++) l1 += Math.abs(after.sums[j]![k]! - before.sums[j]![k]!);
        expect(l1).toBeLessThanOrEqual(sensitivity.sums[j]!.toNumber() + 1e-9);
        for (let l = 0; l < 2; l++) {
          const change = Math.abs(after.scatter[j]![l]! - before.scatter[j]![l]!);
          expect(change).toBeLessThanOrEqual(sensitivity.scatter[j]![l]!.toNumber() + 1e-9);
        }
      }
    }
  });

  it('the off-diagonal bound needs its factor 2: a worked pair of neighbours reaches 2m/(m + 1)·w₁·w₂', () => {
    // Cell 0 holds m rows at (0, 2) and the row a = (10, −2); cell 1 holds m rows at (0, −2). Moving a to
    // cell 1 as b = (10, 2) removes m/(m + 1)·(10)(−4) and adds m/(m + 1)·(10)(4) to the cross entry.
    const m = 20;
    const rows = [
      ...Array.from({ length: m }, () => [0, 2]),
      [10, -2],
      ...Array.from({ length: m }, () => [0, -2]),
    ];
    const cells = Uint32Array.from(rows, (_, i) => (i <= m ? 0 : 1));
    const before = glomStatistics(cells, 2, inputs(rows));
    rows[m] = [10, 2];
    cells[m] = 1;
    const after = glomStatistics(cells, 2, inputs(rows));
    const change = Math.abs(after.scatter[0]![1]! - before.scatter[0]![1]!);
    expect(change).toBeCloseTo(((2 * m) / (m + 1)) * 10 * 4, 9);
    expect(change).toBeGreaterThan(1.9 * 10 * 4);
    expect(change).toBeLessThanOrEqual(glomSensitivities(BOUNDS).scatter[0]![1]!.toNumber());
  });
});
