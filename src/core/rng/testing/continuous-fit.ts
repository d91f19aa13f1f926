import {
  kolmogorovSmirnovOneSample,
  type KolmogorovSmirnovResult,
} from '../../stats/kolmogorov-smirnov-one-sample';
import { kolmogorovSurvival } from '../../stats/kolmogorov';
import { regularizedGammaP } from '../../stats/regularized-gamma';

/** Test support for the continuous samplers: KS fits and the power condition for an alternative. */

/** Φ(z) = ½(1 + sign(z)·P(½, z²/2)), since erf(t) = P(½, t²) (DLMF 7.11.2 with 8.4.1). */
export function standardNormalCdf(z: number): number {
  const half = 0.5 * regularizedGammaP(0.5, (z * z) / 2);
  return z >= 0 ? 0.5 + half : 0.5 - half;
}

/** The λ with Q_K(λ) = α, by bisection (λ ≈ 2.68 for α = 1e−6). */
export function kolmogorovCritical(alpha: number): number {
  let low = 0.1;
  let high = 10;
  for (let i = 0; i < 200; i++) {
    const middle = (low + high) / 2;
    if (kolmogorovSurvival(middle) > alpha) low = middle;
    else high = middle;
  }
  return high;
}

/** KS fit of n draws against a CDF. */
export function fitContinuous(
  draw: () => number,
  n: number,
  cdf: (x: number) => number,
): KolmogorovSmirnovResult {
  return kolmogorovSmirnovOneSample(Float64Array.from({ length: n }, draw), cdf);
}

/**
 * The power condition for a KS test of n draws from an alternative G against F: with
 * Δ = sup |G − F| (taken over the given grid, a lower bound of the sup), the empirical CDF G_n is
 * within λ_α/√n of G except with probability α (Kolmogorov), so D_n >= Δ − λ_α/√n and the test
 * rejects whenever √n·Δ > 2·λ_α (with Stephens' factor, slightly more). Returns √n·Δ / (2·λ_α):
 * above 1.1 the alternative is rejected with probability > 1 − α.
 */
export function ksPowerMargin(
  cdf: (x: number) => number,
  alternativeCdf: (x: number) => number,
  grid: readonly number[],
  n: number,
  alpha: number,
): number {
  let largestGap = 0;
  for (const x of grid) largestGap = Math.max(largestGap, Math.abs(cdf(x) - alternativeCdf(x)));
  return (Math.sqrt(n) * largestGap) / (2 * kolmogorovCritical(alpha));
}

/** `count` evenly spaced points from `from` to `to`. */
export function linearGrid(from: number, to: number, count: number): number[] {
  return Array.from({ length: count }, (_, i) => from + ((to - from) * i) / (count - 1));
}
