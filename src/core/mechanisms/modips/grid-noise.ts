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
