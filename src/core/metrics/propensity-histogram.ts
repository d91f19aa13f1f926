/** Shares of real and synthetic propensity scores in equal-width bins of [0, 1]. */
export interface PropensityHistogram {
  /** bins + 1 edges from 0 to 1. */
  edges: number[];
  real: number[];
  synth: number[];
}

/** Bins for the propensity overlay chart. */
export const PROPENSITY_HISTOGRAM_BINS = 20;

function shares(scores: Float64Array, bins: number): number[] {
  const counts = new Array<number>(bins).fill(0);
  for (const p of scores) counts[Math.min(bins - 1, Math.max(0, Math.floor(p * bins)))]!++;
  return counts.map((count) => (scores.length === 0 ? 0 : count / scores.length));
}

/**
 * Histogram of the pMSE classifier's propensity scores for real and synthetic rows (bin j holds
 * p ∈ [j/B, (j+1)/B), p = 1 in the last bin), as shares of each side: the two distributions overlap
 * when the classifier cannot tell the data apart (both concentrated at c = n_s / N). O(N).
 */
export function propensityHistogram(
  real: Float64Array,
  synth: Float64Array,
  bins: number = PROPENSITY_HISTOGRAM_BINS,
): PropensityHistogram {
  return {
    edges: Array.from({ length: bins + 1 }, (_, j) => j / bins),
    real: shares(real, bins),
    synth: shares(synth, bins),
  };
}
