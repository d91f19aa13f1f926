/**
 * Sample quantile of ascending-sorted values by linear interpolation between order statistics:
 * h = (n − 1)p, Q(p) = x_⌊h⌋ + (h − ⌊h⌋)(x_⌊h⌋+1 − x_⌊h⌋) — Hyndman & Fan (1996) definition 7, the
 * default of R's `quantile` and numpy's `percentile`. Throws RangeError for an empty sample or p
 * outside [0, 1]. Cost O(1).
 * Example: quantileSorted([1, 2, 3, 4], 0.5) = 2.5; quantileSorted([1, 2, 3, 4], 0.05) = 1.15.
 */
export function quantileSorted(sorted: ArrayLike<number>, p: number): number {
  const n = sorted.length;
  if (n === 0) throw new RangeError('A quantile needs at least one value.');
  if (!(p >= 0 && p <= 1)) throw new RangeError(`Quantile probability must be in [0, 1], got ${p}.`);
  const h = (n - 1) * p;
  const lower = Math.floor(h);
  const upper = Math.min(lower + 1, n - 1);
  return sorted[lower]! + (h - lower) * (sorted[upper]! - sorted[lower]!);
}
