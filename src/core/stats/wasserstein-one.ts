/**
 * First Wasserstein (earth mover's) distance between the empirical distributions of two samples given
 * sorted ascending: W₁ = ∫ |F_a(x) − F_b(x)| dx (Vallender 1974: for distributions on the line W₁ is
 * the L¹ distance between the distribution functions), in the samples' own units.
 *
 * Walks the merged sorted values; between consecutive distinct pooled values x_k < x_{k+1} both
 * distribution functions are constant, contributing |i/n_a − j/n_b| · (x_{k+1} − x_k) — the same sum
 * scipy.stats.wasserstein_distance forms. Throws RangeError for an empty sample. Cost O(n_a + n_b).
 * Example: wassersteinOneSorted([0, 1], [1, 2]) = 1.
 */
export function wassersteinOneSorted(sortedA: ArrayLike<number>, sortedB: ArrayLike<number>): number {
  const nA = sortedA.length;
  const nB = sortedB.length;
  if (nA === 0 || nB === 0) throw new RangeError('The Wasserstein distance needs two non-empty samples.');
  let i = 0;
  let j = 0;
  let distance = 0;
  let value = Math.min(sortedA[0]!, sortedB[0]!);
  while (i < nA || j < nB) {
    while (i < nA && sortedA[i]! === value) i++;
    while (j < nB && sortedB[j]! === value) j++;
    const next = Math.min(i < nA ? sortedA[i]! : Infinity, j < nB ? sortedB[j]! : Infinity);
    if (next === Infinity) break;
    distance += Math.abs(i / nA - j / nB) * (next - value);
    value = next;
  }
  return distance;
}
