/** Scores are kept on the grid of 2^−20: fine enough to rank marginals, coarse enough to stay exact. */
export const SCORE_GRID = 2 ** 20;

/**
 * The largest estimated total a graphical model is scaled to under add/remove neighbours
 * (estimated-total.ts): a public cap on a DP output, post-processing. The selection scores no longer
 * depend on it: gridL1Error is exact for every count a count source can give.
 */
export const SCORE_MAX_ROWS = 2 ** 31;

/** Below this, x·2^20 and round(m·2^20) are exact doubles whose difference and sum stay exact. */
const EXACT_DOUBLE = 2 ** 53;
const GRID_BIG = BigInt(SCORE_GRID);

/**
 * ‖x − m‖₁ in units of 2^−20, an exact integer (a bigint): the model's marginal m (a DP output) is
 * rounded to the grid first (post-processing), the data's counts x are whole, so every term
 * |x·2^20 − round(m·2^20)| is an integer. Under replace-one neighbours x moves in two cells by one, so
 * the score moves by at most 2·2^20 units: the sensitivity Δ = 2 of the exponential mechanism holds
 * exactly, with no floating point in the privacy-relevant part.
 *
 * Exact for any whole counts below 2^53 (every count a count source gives) and any number of rows:
 * the sum is taken in doubles while every term and the total stay below 2^53 (then every step is an
 * exact integer operation), and otherwise again in bigints, from the same doubles (x·2^20 and
 * m·2^20 scale by a power of two, exactly). So no table is refused for its size, which under
 * add/remove neighbours (n private) would tell whether n passed a limit.
 */
export function gridL1Error(counts: Float64Array, model: Float64Array): bigint {
  let total = 0;
  let inDoubles = true;
  for (let c = 0; c < counts.length && inDoubles; c++) {
    const x = counts[c]! * SCORE_GRID;
    const m = Math.round(model[c]! * SCORE_GRID);
    if (x < EXACT_DOUBLE && Math.abs(m) < EXACT_DOUBLE) total += Math.abs(x - m);
    else inDoubles = false;
  }
  if (inDoubles && Number.isSafeInteger(total)) return BigInt(total);
  let exact = 0n;
  for (let c = 0; c < counts.length; c++) {
    const term = BigInt(counts[c]!) * GRID_BIG - BigInt(Math.round(model[c]! * SCORE_GRID));
    exact += term < 0n ? -term : term;
  }
  return exact;
}
