/**
 * Arithmetic mean x̄ = (1/n)·Σ xᵢ, summed from the first value to the last. NaN for no values.
 * Cost O(n). Example: mean([1, 2, 6]) = 3.
 */
export function mean(values: ArrayLike<number>): number {
  let sum = 0;
  for (let i = 0; i < values.length; i++) sum += values[i]!;
  return sum / values.length;
}

/**
 * Mean of the finite values only (null, NaN and ±Infinity are passed over), or null when there is
 * none: for metrics that are undefined for some releases. Example: meanOfFinite([1, null, NaN, 3]) = 2.
 */
export function meanOfFinite(values: readonly (number | null)[]): number | null {
  const finite = values.filter((value): value is number => value !== null && Number.isFinite(value));
  return finite.length === 0 ? null : mean(finite);
}
