/**
 * Privacy checks of smoothed-histogram through its `run`, able to fail.
 *
 * 1. λ against a brute-force likelihood ratio. On a tiny domain (one categorical column x ∈ {a, b}
 *    plus its missing level: K = 3 cells, n = 2 rows) every dataset, every replace-one neighbour and
 *    every sequence of the T = M·n released cells is enumerated; the privacy loss of a given λ is the
 *    largest log-likelihood ratio log Π_t q(o_t) / Π_t q′(o_t) with q = (1 − λ)·c/n + λ/K. It
 *    decreases in λ, so bisection finds the smallest λ* whose loss is ≤ ε. The λ the run reports
 *    must be ≥ λ* (safe) and within 10⁻⁹ of it (not needlessly large). This uses no code of
 *    smoothing-weight.ts; λ sized for n draws instead of M·n fails it for M > 1.
 *
 * 2. Empirical privacy. Neighbours A = (a, b), B = (b, b) (K = 3, n = 2), ε = 2, M = 2, so T = 4.
 *    Pre-registered event ALL_A: all 4 released rows have x = a. Its log-ratio is exactly
 *    T·log(q_a/q′_a) = ε at the correct λ = 0.698 (P = 0.0217 on A, 0.00293 on B): the event is tight.
 *    ε̂ = log(CP_lower/CP_upper), one-sided Clopper–Pearson at α = 10⁻⁶, both orders.
 *    Controls, judged against ε = 2:
 *      λ for n draws, not M·n (λ = 0.466 = a correct run at ε = 4): log-ratio 4 (P = 0.0318, 0.00058)
 *      no smoothing (ε = 10⁶, λ ≈ 0): B never releases an a, log-ratio ∞.
 *    With 30,000 runs the SD of the correct run's log-ratio is √((1/0.0217 + 1/0.00293)/30,000) ≈ 0.11,
 *    so its ε̂ sits about 0.5 below 2; the λ-for-n control has SD ≈ 0.24 and ε̂ ≈ 4 − 1.1 ≈ 2.9.
 */
import { describe, expect, it } from 'vitest';
import { rowsWithCategory } from '../../src/core/mechanisms/common/testing/audit-tables';
import { categoricalColumn, runContext } from '../../src/core/mechanisms/common/testing/fixtures';
import { smoothedHistogram } from '../../src/core/mechanisms/smoothed-histogram';
import type { Schema, Table } from '../../src/core/table/types';
import { largestEpsilonLowerBound, type ReleaseEvent } from './run-events';

const SCHEMA: Schema = {
  version: 1,
  missing: [''],
  columns: [{ name: 'x', type: 'categorical', categories: ['a', 'b'], source: 'declared' }],
};
const oneColumn = (values: string[]): Table => ({
  nRows: values.length,
  columns: [categoricalColumn('x', values)],
});

/** All count vectors of n rows over K cells. */
function datasets(cells: number, n: number): number[][] {
  if (cells === 1) return [[n]];
  const out: number[][] = [];
  for (let first = 0; first <= n; first++) {
    for (const rest of datasets(cells - 1, n - first)) out.push([first, ...rest]);
  }
  return out;
}

/** The largest log-likelihood ratio of T released cells over all replace-one neighbours, by enumeration. */
function bruteForcePrivacyLoss(cells: number, n: number, draws: number, lambda: number): number {
  let worst = 0;
  const q = (counts: number[]) => counts.map((c) => (1 - lambda) * (c / n) + lambda / cells);
  for (const counts of datasets(cells, n)) {
    for (let from = 0; from < cells; from++) {
      if (counts[from] === 0) continue;
      for (let to = 0; to < cells; to++) {
        if (to === from) continue;
        const neighbour = counts.slice();
        neighbour[from]!--;
        neighbour[to]!++;
        const p = q(counts);
        const pNeighbour = q(neighbour);
        // Every sequence of `draws` cells: its log-ratio is a sum over its cells.
        const sequences = cells ** draws;
        for (let code = 0; code < sequences; code++) {
          let logRatio = 0;
          for (let t = 0, rest = code; t < draws; t++, rest = Math.floor(rest / cells)) {
            const cell = rest % cells;
            logRatio += Math.log(p[cell]! / pNeighbour[cell]!);
          }
          worst = Math.max(worst, logRatio);
        }
      }
    }
  }
  return worst;
}

/** The smallest λ whose brute-force loss is ≤ ε, by bisection (the loss decreases in λ). */
function bruteForceSmallestLambda(cells: number, n: number, draws: number, epsilon: number): number {
  let lo = 0;
  let hi = 1;
  for (let step = 0; step < 60; step++) {
    const mid = (lo + hi) / 2;
    if (bruteForcePrivacyLoss(cells, n, draws, mid) <= epsilon) hi = mid;
    else lo = mid;
  }
  return hi;
}

describe('smoothed-histogram λ against a brute-force likelihood ratio (K = 3, n = 2)', () => {
  it.each([
    [2, 1],
    [2, 2],
    [1, 3],
  ])(
    'ε = %d, M = %d: the run’s λ is the smallest λ with loss ≤ ε for T = M·n draws',
    async (epsilon, releases) => {
      const table = oneColumn(['a', 'b']);
      const release = await smoothedHistogram.run(
        table,
        SCHEMA,
        {},
        runContext(SCHEMA, 2, { epsilon: String(epsilon), releases }),
      );
      const lambda = release.diagnostics['lambda'] as number;
      const smallest = bruteForceSmallestLambda(3, 2, 2 * releases, epsilon);
      expect(lambda, `λ* = ${smallest}`).toBeGreaterThanOrEqual(smallest);
      expect(lambda - smallest, `λ* = ${smallest}`).toBeLessThan(1e-9);
      expect(bruteForcePrivacyLoss(3, 2, 2 * releases, lambda)).toBeLessThanOrEqual(epsilon);
    },
  );
});

describe('smoothed-histogram run, empirical privacy at ε = 2 with M = 2', () => {
  const CLAIMED = 2;
  const RUNS = 30_000;
  const ALPHA = 1e-6;
  const NEIGHBOURS = [oneColumn(['a', 'b']), oneColumn(['b', 'b'])] as const;
  const EVENTS: ReleaseEvent[] = [
    (release) => release.datasets.every((d) => rowsWithCategory(d, 'x', 'a') === 2),
  ];
  const estimate = (epsilon: number, seed: number) =>
    largestEpsilonLowerBound(
      { mechanism: smoothedHistogram, schema: SCHEMA, epsilon, releases: 2 },
      NEIGHBOURS,
      EVENTS,
      RUNS,
      seed,
      ALPHA,
    );

  it('passes at the claimed ε, and the tight event comes close to it', async () => {
    const { epsilon, detail } = await estimate(CLAIMED, 71);
    expect(epsilon, detail).toBeLessThanOrEqual(CLAIMED);
    expect(epsilon, detail).toBeGreaterThan(1.2);
  });

  it('fails for λ sized for n draws instead of M·n (a run at 2ε)', async () => {
    const { epsilon, detail } = await estimate(2 * CLAIMED, 72);
    expect(epsilon, detail).toBeGreaterThan(CLAIMED);
  });

  it('fails without smoothing', async () => {
    const { epsilon, detail } = await estimate(1e6, 73);
    expect(epsilon, detail).toBeGreaterThan(CLAIMED);
  });
});
