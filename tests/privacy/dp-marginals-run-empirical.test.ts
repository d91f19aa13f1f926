/**
 * Empirical privacy check of dp-marginals through its `run`, able to fail.
 *
 * Worst-case replace-one neighbours on two categorical columns x ∈ {a, b}, y ∈ {u, v}, n = 2:
 * A = ((a, u), (b, v)) and B = ((b, v), (b, v)). The replaced row changes both columns, so both
 * one-way marginals move by the sensitivity 2 and the losses of the p = 2 marginals add up.
 * Pre-registered events on the released rows (S_x = rows with x = a, S_y = rows with y = u):
 * - BOTH_ALL: S_x = 2 and S_y = 2;  - BOTH_NONE: S_x = 0 and S_y = 0.
 * ε̂ = log(CP_lower / CP_upper), one-sided Clopper–Pearson at α = 10⁻⁶, both orders, largest over
 * events; an ε-DP run keeps each ε̂ ≤ ε with probability ≥ 1 − 2α (fixed seeds: reproducible).
 *
 * The columns are drawn independently, so the exact log-ratio of BOTH_ALL is twice that of one
 * column (noisyHistogramDrawPmf, written from the definition):
 *   ε = 1, scale 2·p/ε = 4 per marginal:             2 × 0.364 = 0.728 → must pass
 * Controls, judged against ε = 1:
 *   ε not split over the columns (scale 2 = a run at ε = 2):   2 × 0.738 = 1.476 → must fail
 *   no noise (ε = 10⁶):                                         ∞ → must fail
 * Under the split control P[BOTH_ALL] ≈ 0.273² = 0.075 on A and 0.130² = 0.017 on B: with 24,000 runs
 * the SD of the log-ratio is √((1/0.075 + 1/0.017)/24,000) ≈ 0.055 and the bounds subtract about 0.26,
 * leaving ≈ 1.2.
 * The passing run uses 48,000 runs so that its ε̂ also shows the test is not vacuous: P[BOTH_ALL] ≈
 * 0.0669 on A and 0.0366 on B (exact, from the pmf above), the SD of the log-ratio is
 * √((1/0.0669 + 1/0.0366)/48,000) ≈ 0.030, the bounds subtract about 4.75 × 0.030 ≈ 0.14, so ε̂ ≈
 * 0.728 − 0.14 = 0.59 with SD 0.03: above 0.3 by about 10 SD.
 */
import { describe, expect, it } from 'vitest';
import { rowsWithCategory } from '../../src/core/mechanisms/common/testing/audit-tables';
import { categoricalColumn } from '../../src/core/mechanisms/common/testing/fixtures';
import { noisyHistogramDrawPmf } from '../../src/core/mechanisms/common/testing/released-count-distributions';
import { dpMarginals } from '../../src/core/mechanisms/dp-marginals';
import type { Schema, Table } from '../../src/core/table/types';
import { largestEpsilonLowerBound, type ReleaseEvent } from './run-events';

const CLAIMED = 1;
const RUNS = 12_000;
const RUNS_SPLIT_CONTROL = 24_000;
const RUNS_PASSING = 48_000;
const ALPHA = 1e-6;
const SCHEMA: Schema = {
  version: 1,
  missing: [''],
  columns: [
    { name: 'x', type: 'categorical', categories: ['a', 'b'], source: 'declared' },
    { name: 'y', type: 'categorical', categories: ['u', 'v'], source: 'declared' },
  ],
};
const twoColumns = (x: string[], y: string[]): Table => ({
  nRows: x.length,
  columns: [categoricalColumn('x', x), categoricalColumn('y', y)],
});
const NEIGHBOURS = [twoColumns(['a', 'b'], ['u', 'v']), twoColumns(['b', 'b'], ['v', 'v'])] as const;
const EVENTS: ReleaseEvent[] = [
  ({ datasets: [d] }) => rowsWithCategory(d!, 'x', 'a') === 2 && rowsWithCategory(d!, 'y', 'u') === 2,
  ({ datasets: [d] }) => rowsWithCategory(d!, 'x', 'a') === 0 && rowsWithCategory(d!, 'y', 'u') === 0,
];

async function estimate(epsilon: number, seed: number, runs = RUNS) {
  return largestEpsilonLowerBound(
    { mechanism: dpMarginals, schema: SCHEMA, epsilon, releases: 1 },
    NEIGHBOURS,
    EVENTS,
    runs,
    seed,
    ALPHA,
  );
}

describe('dp-marginals run, empirical privacy at ε = 1', () => {
  it('the exact per-column log-ratios quoted above hold (scale 4: 0.364; scale 2: 0.738)', () => {
    const allA = (scale: number) =>
      Math.log(
        noisyHistogramDrawPmf([1, 1, 0], 0, scale, 2).probabilities[2]! /
          noisyHistogramDrawPmf([0, 2, 0], 0, scale, 2).probabilities[2]!,
      );
    expect(allA(4)).toBeCloseTo(0.364, 3);
    expect(allA(2)).toBeCloseTo(0.738, 3);
  });

  it('passes with ε split over the two marginals', async () => {
    const { epsilon, detail } = await estimate(CLAIMED, 61, RUNS_PASSING);
    expect(epsilon, detail).toBeLessThanOrEqual(CLAIMED);
    expect(epsilon, detail).toBeGreaterThan(0.3);
  });

  it('fails when each marginal gets the whole ε (a run at 2ε)', async () => {
    const { epsilon, detail } = await estimate(2 * CLAIMED, 62, RUNS_SPLIT_CONTROL);
    expect(epsilon, detail).toBeGreaterThan(CLAIMED);
  });

  it('fails without noise', async () => {
    const { epsilon, detail } = await estimate(1e6, 63);
    expect(epsilon, detail).toBeGreaterThan(CLAIMED);
  });
});
