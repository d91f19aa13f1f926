/**
 * Mean and sample standard deviation (divisor n − 1) of the values at the positions where
 * `missing[i] !== 1`, by two passes (mean first, then Σ(x − x̄)²), which is accurate without the
 * cancellation of the one-pass Σx² formula (Chan, Golub & LeVeque 1983, §2).
 * mean is null for no values, sd is null for fewer than two. Cost O(n).
 * Example: values [1, 2, NaN, 3] with missing [0, 0, 1, 0] → { count: 3, mean: 2, sd: 1 }.
 */
export function meanAndSampleSdIgnoringMissing(
  values: ArrayLike<number>,
  missing: ArrayLike<number>,
): { count: number; mean: number | null; sd: number | null } {
  let count = 0;
  let sum = 0;
  for (let i = 0; i < values.length; i++) {
    if (missing[i] === 1) continue;
    sum += values[i]!;
    count++;
  }
  if (count === 0) return { count, mean: null, sd: null };
  const mean = sum / count;
  if (count < 2) return { count, mean, sd: null };
  let squares = 0;
  for (let i = 0; i < values.length; i++) {
    if (missing[i] === 1) continue;
    const deviation = values[i]! - mean;
    squares += deviation * deviation;
  }
  return { count, mean, sd: Math.sqrt(squares / (count - 1)) };
}
