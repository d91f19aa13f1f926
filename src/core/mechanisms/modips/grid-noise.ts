import { Rational } from '../../rng/rational';
import type { Rng } from '../../rng/types';
import { makeCountNoiseSampler } from '../common/noisy-cell-counts';

/**
 * Grid steps per sensitivity: a real statistic with sensitivity Δ is rounded to multiples of
 * g = Δ/G (DESIGN.md privacy rule 4), which costs one extra grid step of sensitivity, (G + 1)/G = 1 %.
 */
export const GRID_STEPS_PER_SENSITIVITY = 100;

/**
 * A real statistic released with exact discrete Laplace noise on a grid (DESIGN.md rule 4):
 * k = round(v/g) with g = Δ/G, then (k + Z)·g with Z ~ discrete Laplace of scale (G + 1)/ε.
 * Why G + 1: for neighbours |v − v′| <= Δ = G·g and each rounding moves by <= g/2, so
 * |k − k′| <= G + 1, an integer; the discrete Laplace mechanism with that integer sensitivity is ε-DP
 * (Canonne, Kamath & Steinke 2020, §5.2). Floating-point error in v and v/g is far below one grid
 * step (relative 1e−15 on statistics below n·G grid steps: under 1e−6 steps for n <= 10^7), so the
 * integer bound G + 1 still holds. Throws InputError when ε is so small that the noise cannot be drawn exactly.
 * Example: v = 0.42, Δ = 0.01, ε = 1 → g = 1e−4, k = 4200, scale 101 grid steps.
 */
export function noisyOnGrid(rng: Rng, value: number, sensitivity: Rational, epsilon: Rational): number {
  const step = sensitivity.div(Rational.of(GRID_STEPS_PER_SENSITIVITY)).toNumber();
  const k = Math.round(value / step);
  const noise = makeCountNoiseSampler(epsilon, GRID_STEPS_PER_SENSITIVITY + 1)(rng);
  return (k + noise) * step;
}

/**
 * A vector of real statistics over disjoint cells (e.g. the per-cell sums of one column) released on
 * the grid g = Δ/G with exact discrete Laplace noise of scale (G + c)/ε on every entry, where Δ is the
 * L1 sensitivity of the whole vector and c the most entries one replaced row can change (c = 2: the
 * cell it leaves and the cell it joins). Why G + c: unchanged entries round identically, and each of
 * the c changed entries satisfies |k_i − k′_i| <= |v_i − v′_i|/g + 1, so Σ|k_i − k′_i| <= G + c, an
 * integer L1 sensitivity; independent discrete Laplace noise on every entry is then ε-DP (Canonne,
 * Kamath & Steinke 2020, §5.2). The floating-point argument of noisyOnGrid carries over when each
 * entry is computed with compensated sums. Returns the noisy values in the statistic's units.
 */
export function noisyVectorOnGrid(
  rng: Rng,
  values: ArrayLike<number>,
  sensitivity: Rational,
  epsilon: Rational,
  changedEntries: number,
): Float64Array {
  const step = sensitivity.div(Rational.of(GRID_STEPS_PER_SENSITIVITY)).toNumber();
  const sample = makeCountNoiseSampler(epsilon, GRID_STEPS_PER_SENSITIVITY + changedEntries);
  const noisy = new Float64Array(values.length);
  for (let i = 0; i < values.length; i++) noisy[i] = (Math.round(values[i]! / step) + sample(rng)) * step;
  return noisy;
}

/**
 * A symmetric matrix of real statistics (a covariance or scatter) released entry by entry with
 * noisyOnGrid: each entry j <= l on its own sensitivity and the same ε, drawn in row order, and
 * mirrored below the diagonal. Each entry is a separate release; the caller accounts for the
 * p(p + 1)/2 of them.
 */
export function noisySymmetricOnGrid(
  rng: Rng,
  matrix: readonly (readonly number[])[],
  sensitivities: readonly (readonly Rational[])[],
  epsilon: Rational,
): number[][] {
  const p = matrix.length;
  const noisy = Array.from({ length: p }, () => new Array<number>(p).fill(0));
  for (let j = 0; j < p; j++) {
    for (let l = j; l < p; l++) {
      noisy[j]![l] = noisy[l]![j] = noisyOnGrid(rng, matrix[j]![l]!, sensitivities[j]![l]!, epsilon);
    }
  }
  return noisy;
}
