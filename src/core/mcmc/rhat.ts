import type { MomentsSummary } from './running-moments';

/** The usual convergence threshold for R̂ (Gelman et al. 2013, BDA3 §11.5). */
export const RHAT_WARNING_THRESHOLD = 1.1;

/**
 * Potential scale reduction factor R̂ of Gelman & Rubin (1992) from per-sequence means and
 * variances, each sequence of the same length L (Gelman et al. 2013, Bayesian Data Analysis,
 * 3rd ed., §11.4, eqs. 11.2–11.4):
 *   B = L/(J−1) · Σ_j (mean_j − mean)²,  W = (1/J) Σ_j s_j²,
 *   var⁺ = (L−1)/L · W + B/L,  R̂ = √(var⁺ / W).
 * Returns NaN with fewer than two sequences or L < 2, and 1 when every sequence is constant at the
 * same value (W = B = 0). Returns Infinity when W = 0 but the sequences differ.
 * Example: two sequences with means 0 and 0, variances 1 and 1, L = 100 → R̂ = √(99/100) ≈ 0.995.
 */
export function potentialScaleReduction(means: number[], variances: number[], length: number): number {
  const sequences = means.length;
  if (sequences < 2 || length < 2) return NaN;
  let grandMean = 0;
  for (const mean of means) grandMean += mean / sequences;
  let between = 0;
  for (const mean of means) between += (mean - grandMean) ** 2;
  between *= length / (sequences - 1);
  let within = 0;
  for (const variance of variances) within += variance / sequences;
  if (within === 0) return between === 0 ? 1 : Infinity;
  const pooled = ((length - 1) / length) * within + between / length;
  return Math.sqrt(pooled / within);
}

/**
 * Split-R̂ (BDA3 §11.4): each chain's kept draws are cut into a first and a second half and R̂ is
 * computed over the 2·chains half-sequences, which also detects a drift within a chain.
 * `halves` holds, for every chain, the moments of its first half then of its second half (as
 * collected by the sampler); `index` picks the monitored quantity. The common length is the
 * shortest half (the halves of one run have equal counts).
 */
export function splitRhatFromHalves(halves: MomentsSummary[], index: number): number {
  const means = halves.map((half) => half.mean[index]!);
  const variances = halves.map((half) => half.variance[index]!);
  const length = Math.min(...halves.map((half) => half.count));
  return potentialScaleReduction(means, variances, length);
}

/**
 * Split-R̂ from raw draws: each chain (equal lengths are not required; the halves are trimmed to
 * the shortest) is split into halves, dropping the middle draw of an odd-length chain.
 */
export function splitRhat(chains: ArrayLike<number>[]): number {
  const halfLength = Math.min(...chains.map((chain) => Math.floor(chain.length / 2)));
  const means: number[] = [];
  const variances: number[] = [];
  for (const chain of chains) {
    for (const start of [0, chain.length - halfLength]) {
      let mean = 0;
      for (let t = 0; t < halfLength; t++) mean += chain[start + t]! / halfLength;
      let sumSquares = 0;
      for (let t = 0; t < halfLength; t++) sumSquares += (chain[start + t]! - mean) ** 2;
      means.push(mean);
      variances.push(halfLength > 1 ? sumSquares / (halfLength - 1) : NaN);
    }
  }
  return potentialScaleReduction(means, variances, halfLength);
}
