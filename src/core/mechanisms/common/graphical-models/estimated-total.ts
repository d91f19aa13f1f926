import { SCORE_MAX_ROWS } from './grid-score';

/** One noisy histogram of the whole table: its cells y = x + Z, Z with variance σ² in every cell. */
export interface NoisyTotalSource {
  y: Float64Array;
  sigma2: number;
}

/**
 * The minimum-variance unbiased estimate of the number of rows N from noisy histograms of the whole
 * table (private-pgm's `minimum_variance_unbiased_total`): histogram i gives Tᵢ = Σ_c yᵢ,c, unbiased for N
 * with variance vᵢ = cellsᵢ·σᵢ² (independent zero-mean noise in every cell), and the inverse-variance
 * weighted mean N̂ = Σ(Tᵢ/vᵢ)/Σ(1/vᵢ) has the least variance among unbiased linear combinations, 1/Σ(1/vᵢ)
 * (Gauss–Markov). A function of DP outputs only: post-processing, no budget. Throws for no source.
 */
export function minimumVarianceTotal(sources: readonly NoisyTotalSource[]): number {
  if (sources.length === 0) throw new RangeError('estimating the total needs at least one noisy histogram');
  let weighted = 0;
  let weights = 0;
  for (const { y, sigma2 } of sources) {
    let total = 0;
    for (let c = 0; c < y.length; c++) total += y[c]!;
    const weight = 1 / (y.length * sigma2);
    weighted += weight * total;
    weights += weight;
  }
  return weighted / weights;
}

/**
 * The synthetic row count from an estimated total: rounded, at least 1 (a graphical model needs a
 * positive total, as private-pgm's max(1, total)), at most SCORE_MAX_ROWS (the exact selection scores'
 * bound holds for a model of that total). Post-processing of a DP output.
 */
export function syntheticRowsFromEstimate(total: number): number {
  return Math.min(SCORE_MAX_ROWS, Math.max(1, Math.round(total)));
}
