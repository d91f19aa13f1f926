/**
 * E[max(Z, 0)] for the discrete Laplace law P(z) = (1 − a)/(1 + a)·a^|z|, a = e^(−1/t) (scale t):
 * Σ_{z≥1} z·(1 − a)/(1 + a)·a^z = (1 − a)/(1 + a)·a/(1 − a)² = a/(1 − a²). Example: t = 1 → 0.4255.
 */
export function positiveNoiseMean(scale: number): number {
  const a = Math.exp(-1 / scale);
  return a / (1 - a * a);
}

/** One noisy histogram of the whole table: its positive repaired counts, its cells K and its noise scale t. */
export interface NoisyHistogramSum {
  weights: ArrayLike<number>;
  cells: number;
  scale: number;
}

/**
 * The estimate of n from one noisy histogram under add/remove neighbours (n private): S − K·E[max(Z, 0)],
 * with S = Σ w the sum of the released counts (negatives set to 0) and K the cells. Each empty cell adds
 * its noise's positive part to S, E[max(Z, 0)] on average, so S alone overstates n by about that much
 * per cell (millions of rows over a large domain); a cell of count x ≥ 1 adds x + E[max(−x, Z)] ≥ x. The
 * correction is a public constant, so the estimate is post-processing of the DP output; it is unbiased
 * up to between −min(n, K)·E[max(Z, 0)] and 0, and its variance is about K·Var(max(Z, 0)).
 */
function estimateOf(table: NoisyHistogramSum): number {
  let total = 0;
  for (let i = 0; i < table.weights.length; i++) total += table.weights[i]!;
  return total - table.cells * positiveNoiseMean(table.scale);
}

/** The synthetic row count of a noisy histogram under add/remove: its estimate of n, rounded, at least 0. */
export function rowsFromNoisySum(table: NoisyHistogramSum): number {
  return Math.max(0, Math.round(estimateOf(table)));
}

/**
 * One row count for several noisy histograms of the whole table (dp-marginals' one-way marginals): their
 * estimates (rowsFromNoisySum) weighted by 1/cells, about the inverse of each estimate's noise variance
 * when the noise law is the same in every cell; rounded, at least 0. Post-processing of DP outputs.
 */
export function rowsFromNoisySums(tables: readonly NoisyHistogramSum[]): number {
  let weighted = 0;
  let weights = 0;
  for (const table of tables) {
    weighted += estimateOf(table) / table.cells;
    weights += 1 / table.cells;
  }
  return weights > 0 ? Math.max(0, Math.round(weighted / weights)) : 0;
}
