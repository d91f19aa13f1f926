/**
 * Empirical privacy checks of two DIPS mechanisms, each able to fail (method as in
 * laplace-histogram-empirical.test.ts): each side runs RUNS times; a pre-registered event E gives
 * ε̂ = log(CP_lower(P[E | x]) / CP_upper(P[E | x′])), one-sided Clopper–Pearson at α = 10⁻⁶, in both
 * orders. An ε-DP mechanism has every ε̂ ≤ ε with probability ≥ 1 − 2α; a positive control that
 * spends more than it claims must give ε̂ > ε.
 *
 * 1. Multinomial–Dirichlet on a 2-cell domain, n = 3, the real urn and prior code: neighbours
 *    a = (1, 2) and b = (0, 3) (one row moved from cell 0 to cell 1). Event ALL: all 3 synthetic rows
 *    in cell 0. By the derivation in dirichlet-prior.ts, P[ALL | a] / P[ALL | b] = 1 + n/α = e^ε
 *    exactly: the event is tight. With α = 3/(e − 1) = 1.746, P[ALL | b] = Π_{j<3} (α + j)/(2α + 3 + j)
 *    = 0.0435 and P[ALL | a] = 0.118; the SD of the log-ratio over 50,000 runs a side is about 0.024,
 *    and the bounds subtract about 4.75 SD, so the correct prior gives ε̂ ≈ 0.89. Positive control: the
 *    prior for ε = 1.25 while claiming 1 (true loss 1.25, ε̂ ≈ 1.14, 6 SD above 1).
 *
 * 2. MODIPS normal-model statistics (x̄, S²) of n = 4 values in [0, 1] with the paper's split ε/2 + ε/2:
 *    neighbours a = (0, 0, 0, 0) and b = (1, 0, 0, 0) move x̄ by 1/4 and S² by 1/4, both sensitivities
 *    at once. Event BOTH: x̄* ≥ 1/4 and S²* ≥ 1/4, i.e. both noisy values reach b's grid points. Its
 *    true log-ratio is ε·G/(G + 1) = 0.99 (the grid's extra step is not needed by exact rounding).
 *    P[BOTH | a] ≈ (e^(−0.495)/2)² = 0.091; SD of the log-ratio ≈ 0.017. Positive control: each
 *    statistic given the whole ε (the split forgotten), true loss 1.98.
 */
import { describe, expect, it } from 'vitest';
import { multinomialDirichletPrior } from '../../src/core/privacy/dirichlet-prior';
import { drawFromPriorAndBalls } from '../../src/core/rng/polya-urn';
import { numericColumn } from '../../src/core/mechanisms/common/testing/fixtures';
import { normalStatistics, sanitizeNormalStatistics } from '../../src/core/mechanisms/modips/normal-model';
import { parseRational, Rational } from '../../src/core/rng/rational';
import { SeededRng } from '../../src/core/rng/seeded-rng';
import type { Rng } from '../../src/core/rng/types';
import { epsilonLowerBound } from './clopper-pearson';
import { recordingStep } from '../../src/core/privacy/metered/testing';

const RUNS = 50_000;
const ALPHA = 1e-6;

/** The largest ε̂ of one event over both orders of the neighbours. */
function largestEstimate(hitsA: number, hitsB: number): number {
  return Math.max(epsilonLowerBound(hitsA, hitsB, RUNS, ALPHA), epsilonLowerBound(hitsB, hitsA, RUNS, ALPHA));
}

function countAllInCellZero(rng: Rng, counts: [number, number], prior: Rational): number {
  let hits = 0;
  for (let run = 0; run < RUNS; run++) {
    const cells = drawFromPriorAndBalls(rng, {
      domainCells: 2,
      prior,
      balls: { cells: [0, 1], counts },
      draws: 3,
      reinforce: true,
    });
    if (cells[0] === 0 && cells[1] === 0 && cells[2] === 0) hits++;
  }
  return hits;
}

function multinomialDirichletEstimate(prior: Rational, seed: number): { epsilon: number; detail: string } {
  const a = countAllInCellZero(new SeededRng(seed), [1, 2], prior);
  const b = countAllInCellZero(new SeededRng(seed + 1), [0, 3], prior);
  const epsilon = largestEstimate(a, b);
  return { epsilon, detail: `hits a=${a} b=${b}; ε̂=${epsilon.toFixed(3)}` };
}

describe('multinomial-dirichlet, empirical privacy at ε = 1', () => {
  it('passes with the prior α = n/(e^ε − 1) and comes close to ε on the tight event', () => {
    const { epsilon, detail } = multinomialDirichletEstimate(multinomialDirichletPrior(3, Rational.ONE), 301);
    expect(epsilon, detail).toBeLessThanOrEqual(1);
    expect(epsilon, detail).toBeGreaterThan(0.8);
  });

  it('detects the prior of ε = 1.25 claimed as ε = 1', () => {
    const { epsilon, detail } = multinomialDirichletEstimate(
      multinomialDirichletPrior(3, parseRational('1.25')),
      302,
    );
    expect(epsilon, detail).toBeGreaterThan(1);
  });
});

function countBothTails(rng: Rng, values: number[], budget: { mean: Rational; variance: Rational }): number {
  const stats = normalStatistics(numericColumn('x', values), 0, 1);
  let hits = 0;
  for (let run = 0; run < RUNS; run++) {
    const s = sanitizeNormalStatistics(rng, stats, 4, 0, 1, {
      missing: null,
      mean: { epsilon: budget.mean, step: recordingStep('approx-dp') },
      variance: { epsilon: budget.variance, step: recordingStep('approx-dp') },
    });
    // Grid points are multiples of 1/400; 0.2499 separates 99 grid steps from 100 robustly.
    if (s.mean >= 0.2499 && s.variance >= 0.2499) hits++;
  }
  return hits;
}

function normalStatisticsEstimate(
  budget: { mean: Rational; variance: Rational },
  seed: number,
): { epsilon: number; detail: string } {
  const b = countBothTails(new SeededRng(seed), [1, 0, 0, 0], budget);
  const a = countBothTails(new SeededRng(seed + 1), [0, 0, 0, 0], budget);
  const epsilon = largestEstimate(b, a);
  return { epsilon, detail: `hits b=${b} a=${a}; ε̂=${epsilon.toFixed(3)}` };
}

describe('modips normal-model statistics, empirical privacy at ε = 1', () => {
  const half = Rational.of(1, 2);

  it('passes with ε/2 each for x̄ and S², close to ε·G/(G + 1) on the tight event', () => {
    const { epsilon, detail } = normalStatisticsEstimate({ mean: half, variance: half }, 401);
    expect(epsilon, detail).toBeLessThanOrEqual(1);
    expect(epsilon, detail).toBeGreaterThan(0.8);
  });

  it('detects the whole ε spent on each statistic (true loss 1.98)', () => {
    const { epsilon, detail } = normalStatisticsEstimate({ mean: Rational.ONE, variance: Rational.ONE }, 402);
    expect(epsilon, detail).toBeGreaterThan(1);
  });
});
