/** Scores are kept on the grid of 2^−20: fine enough to rank marginals, coarse enough to stay exact. */
export const SCORE_GRID = 2 ** 20;

/**
 * ‖x − m‖₁ in units of 2^−20, an exact integer: the model's marginal m (a DP output) is rounded to the
 * grid first (post-processing), the data's counts x are whole, so every term |x·2^20 − round(m·2^20)| is
 * an integer. Under replace-one neighbours x moves in two cells by one, so the score moves by at most
 * 2·2^20 units: the sensitivity Δ = 2 of the exponential mechanism holds exactly, with no floating
 * point in the privacy-relevant part. Throws when the total would pass 2^53.
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
