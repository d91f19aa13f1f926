/**
 * Empirical privacy check of laplace-histogram through its `run`, able to fail.
 *
 * Worst-case replace-one neighbours on one categorical column x ∈ {a, b} (3 cells with the missing
 * level), n = 2: A = (a, b) and B = (b, b). One row moved from cell a to cell b is the largest change
 * a replacement can make to the cross-tabulation (‖A − B‖₁ = 2, the sensitivity the claim uses).
 * Pre-registered events on the released rows (S = synthetic rows with x = a, per release):
 * - ALL_A: S = 2 in every release;  - NO_A: S = 0 in every release.
 * Each side runs RUNS times; ε̂ = log(CP_lower(P[E | one]) / CP_upper(P[E | other])), one-sided
 * Clopper–Pearson at α = 10⁻⁶, both orders, largest over events. An ε-DP run keeps every ε̂ ≤ ε
 * with probability ≥ 1 − 2α per bound (fixed seeds, so the outcome is reproducible).
 *
 * The exact log-ratios, from noisyHistogramDrawPmf (common/testing/released-count-distributions.ts,
 * written from the definition): the draw of the rows blurs the noisy counts, so even the tightest
 * event stays below ε.
 *   ε = 1, M = 1 (scale 2):                  ALL_A 0.738 → must pass
 *   ε = 1, M = 2, both releases (scale 4):   ALL_A 2 × 0.364 = 0.728 → must pass
 * Controls, each the budget at which a correct run draws what a bug would, judged against ε = 1:
 *   Δ = 1 (scale 1, = a run at ε = 2):                 ALL_A 1.461 → must fail
 *   total ε on each of 2 releases (= M = 2 at ε = 2):  ALL_A 2 × 0.738 = 1.476 → must fail
 *   no noise (ε = 10⁶):                                 ALL_A ∞ (B never releases an a) → must fail
 * With 12,000 runs the SD of the ALL_A log-ratio is at most √((1 − p)/(Np) summed over both sides) ≈ 0.05
 * for the controls (p ≈ 0.29 and 0.067); the confidence bounds subtract about 4.75 SD ≈ 0.24, leaving
 * the controls above 1.2 and the correct runs below 0.74 (30,000 runs for the two-release control).
 */
import { describe, expect, it } from 'vitest';
import { rowsWithCategory } from '../../src/core/mechanisms/common/testing/audit-tables';
import { categoricalColumn } from '../../src/core/mechanisms/common/testing/fixtures';
import { noisyHistogramDrawPmf } from '../../src/core/mechanisms/common/testing/released-count-distributions';
import { laplaceHistogram } from '../../src/core/mechanisms/laplace-histogram';
import type { Schema, Table } from '../../src/core/table/types';
import { largestEpsilonLowerBound, type ReleaseEvent } from './run-events';

const CLAIMED = 1;
const RUNS = 12_000;
/**
 * ALL_A over two releases is rarer (p ≈ 0.273² = 0.075 and 0.130² = 0.017 at the total ε per release):
 * 30,000 runs give SD ≈ 0.05, so both two-release tests would see that bug (ε̂ ≈ 1.476 − 0.23 > 1).
 */
const RUNS_BOTH_RELEASES = 30_000;
const ALPHA = 1e-6;
const SCHEMA: Schema = {
  version: 1,
  missing: [''],
  columns: [{ name: 'x', type: 'categorical', categories: ['a', 'b'], source: 'declared' }],
};
const oneColumn = (values: string[]): Table => ({
  nRows: values.length,
  columns: [categoricalColumn('x', values)],
});
const NEIGHBOURS = [oneColumn(['a', 'b']), oneColumn(['b', 'b'])] as const;
const EVENTS: ReleaseEvent[] = [
  (release) => release.datasets.every((d) => rowsWithCategory(d, 'x', 'a') === 2),
  (release) => release.datasets.every((d) => rowsWithCategory(d, 'x', 'a') === 0),
];

async function estimate(epsilon: number, releases: number, seed: number, runs = RUNS) {
  return largestEpsilonLowerBound(
    { mechanism: laplaceHistogram, schema: SCHEMA, epsilon, releases },
    NEIGHBOURS,
    EVENTS,
    runs,
    seed,
    ALPHA,
  );
}

describe('laplace-histogram run, empirical privacy at ε = 1', () => {
  it('the exact log-ratios quoted above hold (scale 2: 0.738; scale 1: 1.461)', () => {
    const allA = (scale: number) => {
      const a = noisyHistogramDrawPmf([1, 1, 0], 0, scale, 2).probabilities[2]!;
      const b = noisyHistogramDrawPmf([0, 2, 0], 0, scale, 2).probabilities[2]!;
      return Math.log(a / b);
    };
    expect(allA(2)).toBeCloseTo(0.738, 3);
    expect(allA(4)).toBeCloseTo(0.364, 3);
    expect(allA(1)).toBeCloseTo(1.461, 3);
  });

  it('passes with one release', async () => {
    const { epsilon, detail } = await estimate(CLAIMED, 1, 11);
    expect(epsilon, detail).toBeLessThanOrEqual(CLAIMED);
    expect(epsilon, detail).toBeGreaterThan(0.5); // the event does reveal something
  });

  it('passes with two releases at ε/2 each', async () => {
    const { epsilon, detail } = await estimate(CLAIMED, 2, 22, RUNS_BOTH_RELEASES);
    expect(epsilon, detail).toBeLessThanOrEqual(CLAIMED);
  });

  it('fails for noise at Δ = 1 (a run at 2ε)', async () => {
    const { epsilon, detail } = await estimate(2 * CLAIMED, 1, 33);
    expect(epsilon, detail).toBeGreaterThan(CLAIMED);
  });

  it('fails for the total ε on each of two releases', async () => {
    const { epsilon, detail } = await estimate(2 * CLAIMED, 2, 44, RUNS_BOTH_RELEASES);
    expect(epsilon, detail).toBeGreaterThan(CLAIMED);
  });

  it('fails without noise', async () => {
    const { epsilon, detail } = await estimate(1e6, 1, 55);
    expect(epsilon, detail).toBeGreaterThan(CLAIMED);
  });
});
