/** Scores are kept on the grid of 2^−20: fine enough to rank marginals, coarse enough to stay exact. */
export const SCORE_GRID = 2 ** 20;

/**
 * The most rows for which an L1 score is always exact: with x summing to n and m to n, the total is at
 * most n·2^20 + (n·2^20 + cells/2) <= 2^52 + 2^24 < 2^53 when n <= 2^31 and cells <= 2·10^7. A
 * mechanism refuses larger n (public) before it reserves budget, so the error in gridL1Error can never
 * depend on the data.
 */
export const SCORE_MAX_ROWS = 2 ** 31;

/**
 * ‖x − m‖₁ in units of 2^−20, an exact integer: the model's marginal m (a DP output) is rounded to the
 * grid first (post-processing), the data's counts x are whole, so every term |x·2^20 − round(m·2^20)| is
 * an integer. Under replace-one neighbours x moves in two cells by one, so the score moves by at most
 * 2·2^20 units: the sensitivity Δ = 2 of the exponential mechanism holds exactly, with no floating
 * point in the privacy-relevant part. Throws when the total would pass 2^53, which cannot happen for
 * n <= SCORE_MAX_ROWS with a model summing to n.
 */
export function gridL1Error(counts: Float64Array, model: Float64Array): number {
  let total = 0;
  for (let c = 0; c < counts.length; c++) {
    total += Math.abs(counts[c]! * SCORE_GRID - Math.round(model[c]! * SCORE_GRID));
  }
  if (!Number.isSafeInteger(total))
    throw new RangeError(`an L1 score of ${total} grid units is too large to be exact`);
  return total;
}
