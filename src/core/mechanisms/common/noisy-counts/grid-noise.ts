import type { ChargeableStep } from '../../../privacy/meter';
import { meteredDiscreteLaplace } from '../../../privacy/metered/discrete-laplace';
import { meteredLaplaceOnGrid } from '../../../privacy/metered/laplace-on-grid';
import type { QueryKind, RealStatistic } from '../../../privacy/query-sensitivity';
import type { Rational } from '../../../rng/rational';
import type { Rng } from '../../../rng/types';
import { laplaceScaleFor } from '../../../privacy/noisy-cell-counts';

/**
 * Grid steps per sensitivity: a real statistic with sensitivity Δ is rounded to multiples of
 * g = Δ/G (DESIGN.md privacy rule 4), which costs one extra grid step of sensitivity, (G + 1)/G = 1 %.
 */
export const GRID_STEPS_PER_SENSITIVITY = 100;

/** The `on-grid` query of a real statistic at G = GRID_STEPS_PER_SENSITIVITY. */
export function onGrid(statistic: RealStatistic): Extract<QueryKind, { kind: 'on-grid' }> {
  return { kind: 'on-grid', of: statistic, gridSteps: GRID_STEPS_PER_SENSITIVITY };
}

/** The ε of one statistic and the step of the claim its noise is charged to. */
export interface MeteredShare {
  epsilon: Rational;
  step: ChargeableStep;
}

/**
 * A real statistic released with exact discrete Laplace noise on a grid (DESIGN.md rule 4), through the
 * privacy meter: k = round(v/g) with g = Δ/G, Δ the statistic's sensitivity from the query table, then
 * (k + Z)·g with Z ~ discrete Laplace of scale (G + 1)/ε. Why G + 1: for neighbours |v − v′| <= Δ = G·g
 * and each rounding moves by <= g/2, so |k − k′| <= G + 1, an integer; the discrete Laplace mechanism
 * with that integer sensitivity is ε-DP (Canonne, Kamath & Steinke 2020, §5.2). Floating-point error in
 * v and v/g is far below one grid step (relative 1e−15 on statistics below n·G grid steps: under 1e−6
 * steps for n <= 10^7), so the integer bound G + 1 still holds. Charges `step` ε.
 * Example: v = 0.42, Δ = 0.01, ε = 1 → g = 1e−4, k = 4200, scale 101 grid steps.
 */
export function noisyOnGrid(
  step: ChargeableStep,
  statistic: RealStatistic,
  value: number,
  epsilon: Rational,
  rng: Rng,
): number {
  const query = onGrid(statistic);
  return meteredLaplaceOnGrid(step, query, [value], laplaceScaleFor(step, query, epsilon), rng)[0]!;
}

/**
 * A vector of real statistics over disjoint cells (e.g. the per-cell sums of one column) released on the
 * grid g = Δ/G with exact discrete Laplace noise of scale (G + c)/ε on every entry, Δ the L1 sensitivity
 * of the whole vector and c the most entries one neighbour changes (replace-one: c = 2, the cell it
 * leaves and the cell it joins), both from the query table. Why G + c: unchanged entries round
 * identically, and each of the c changed entries satisfies |k_i − k′_i| <= |v_i − v′_i|/g + 1, so
 * Σ|k_i − k′_i| <= G + c, an integer L1 sensitivity; independent discrete Laplace noise on every entry is
 * then ε-DP (Canonne, Kamath & Steinke 2020, §5.2). The floating-point argument of noisyOnGrid carries
 * over when each entry is computed with compensated sums. Charges `step` ε once.
 */
export function noisyVectorOnGrid(
  step: ChargeableStep,
  statistic: RealStatistic,
  values: ArrayLike<number>,
  epsilon: Rational,
  rng: Rng,
): Float64Array {
  const query = onGrid(statistic);
  return meteredLaplaceOnGrid(step, query, values, laplaceScaleFor(step, query, epsilon), rng);
}

/**
 * A symmetric matrix of real statistics (a covariance or scatter) released entry by entry with
 * noisyOnGrid: each entry j <= l as `statistics[j][l]` at the ε of `shares[j][l]`, charged to its step,
 * drawn in row order and mirrored below the diagonal. Each entry is a separate step of the claim.
 */
export function noisySymmetricOnGrid(
  shares: readonly (readonly MeteredShare[])[],
  statistics: readonly (readonly RealStatistic[])[],
  matrix: readonly (readonly number[])[],
  rng: Rng,
): number[][] {
  const p = matrix.length;
  const noisy = Array.from({ length: p }, () => new Array<number>(p).fill(0));
  for (let j = 0; j < p; j++) {
    for (let l = j; l < p; l++) {
      const share = shares[j]![l]!;
      noisy[j]![l] = noisy[l]![j] = noisyOnGrid(
        share.step,
        statistics[j]![l]!,
        matrix[j]![l]!,
        share.epsilon,
        rng,
      );
    }
  }
  return noisy;
}

/**
 * A count with exact discrete Laplace noise of scale Δ₁/ε through the privacy meter: a `count`
 * (sensitivity 1, e.g. missing values) or the counts of a partition (sensitivity 2 under replace-one).
 * Charges `step` ε once.
 */
export function noisyCounts(
  step: ChargeableStep,
  query: QueryKind,
  counts: Float64Array,
  epsilon: Rational,
  rng: Rng,
): Float64Array {
  return meteredDiscreteLaplace(step, query, counts, laplaceScaleFor(step, query, epsilon), rng);
}

/** A single count (`count` query) with exact discrete Laplace noise of scale 1/ε, metered. */
export function noisyCount(step: ChargeableStep, count: number, epsilon: Rational, rng: Rng): number {
  return noisyCounts(step, { kind: 'count' }, Float64Array.of(count), epsilon, rng)[0]!;
}
