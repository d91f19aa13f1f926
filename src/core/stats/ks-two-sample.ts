/**
 * Two-sample Kolmogorov–Smirnov statistic D = sup_x |F_a(x) − F_b(x)| of the empirical distribution
 * functions of two samples, both given sorted ascending (Kolmogorov 1933, Smirnov 1939).
 *
 * The supremum is attained at a sample value; the merge walk moves past every copy of a tied value in
 * both samples before comparing, and forms i/n_a − j/n_b as scipy.stats.ks_2samp does (numerators are
 * counts, so D is a difference of two correctly rounded fractions). Throws RangeError for an empty
 * sample. Cost O(n_a + n_b).
 * Example: ksTwoSampleStatisticSorted([1, 2, 3], [2, 3, 4]) = 1/3.
 */
export function ksTwoSampleStatisticSorted(sortedA: ArrayLike<number>, sortedB: ArrayLike<number>): number {
  const nA = sortedA.length;
  const nB = sortedB.length;
  if (nA === 0 || nB === 0)
    throw new RangeError('The Kolmogorov–Smirnov statistic needs two non-empty samples.');
  let i = 0;
  let j = 0;
  let statistic = 0;
  while (i < nA && j < nB) {
    const value = Math.min(sortedA[i]!, sortedB[j]!);
    while (i < nA && sortedA[i]! === value) i++;
    while (j < nB && sortedB[j]! === value) j++;
    const gap = Math.abs(i / nA - j / nB);
    if (gap > statistic) statistic = gap;
  }
  return statistic;
}
