/**
 * Scott's normal-reference bin count computed from public inputs only.
 *
 * Scott (1979) chooses the bin width h = 3.49·σ·n^(−1/3); the DIPS study (Bowen & Liu, §4.2)
 * applies it with the sample standard deviation, which is a function of the data and would leak.
 * Here σ is the range rule of thumb σ = (hi − lo)/6 taken from the declared bounds, so the count
 * of equal-width bins over [lo, hi] is
 *   bins = ceil((hi − lo) / (3.49 · (hi − lo)/6 · n^(−1/3))) = ceil(6 · n^(1/3) / 3.49),
 * which depends on the public row count n only. At least one bin is returned.
 * Example: n = 1000 → ceil(60 / 3.49) = ceil(17.19…) = 18. Cost O(1).
 */
export function scottBinCountFromPublicRange(n: number): number {
  return Math.max(1, Math.ceil((6 * Math.cbrt(n)) / 3.49));
}

/**
 * How many whole numbers lie in [lo, hi]: floor(hi) − ceil(lo) + 1, or 0 when there are none.
 * Example: [17, 90] → 74; [0.5, 1.5] → 1.
 */
export function integersInBounds(lo: number, hi: number): number {
  return Math.max(0, Math.floor(hi) - Math.ceil(lo) + 1);
}
