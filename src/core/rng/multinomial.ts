import { binomialUnchecked } from './binomial';
import type { Rng } from './types';

/** The sorted-uniform sweep is used while n < this × k. */
const SORTED_UNIFORMS_PER_CATEGORY = 2;

/**
 * Multinomial(n, w/Σw): counts per category of n independent draws with P(category i) ∝ w_i.
 * Weights are >= 0 and need not sum to 1. Returns a Float64Array of length k (counts are integers).
 *
 * Two exact-in-distribution methods, chosen by cost (a binomial draw costs about two sorted
 * uniforms, measured):
 * - n >= 2k: conditional binomials, count_i ~ Binomial(n − Σ_{j<i} count_j, w_i / Σ_{j>=i} w_j)
 *   (e.g. Devroye, Non-Uniform Random Variate Generation, 1986, §XI.1.4), O(k) binomial draws, each
 *   O(1) (see sampleBinomial); the loop stops once all n are placed.
 * - n < 2k: n sorted uniforms, generated in decreasing order as U_(m) = U_(m+1)·V^(1/m)
 *   (Bentley & Saxe, "Generating sorted lists of random numbers", ACM TOMS 6(3), 1980), are swept
 *   through the cumulative weights (Neumaier-compensated sums): O(n + k) with no sort and no O(k)
 *   extra memory, so k = 2·10^7 categories with n = 10^6 takes well under a second.
 * Floating point: for post-processing only.
 *
 * Throws RangeError when n is not a safe integer >= 0, a weight is negative or not finite, or all
 * weights are zero while n > 0.
 * Example: `sampleMultinomial(rng, 10, [1, 1])` is [k, 10 − k] with k ~ Binomial(10, 1/2).
 */
export function sampleMultinomial(rng: Rng, n: number, weights: ArrayLike<number>): Float64Array {
  if (!(Number.isSafeInteger(n) && n >= 0)) {
    throw new RangeError(`sampleMultinomial: n must be a safe integer >= 0, got ${String(n)}`);
  }
  const k = weights.length;
  let total = 0;
  let lastPositive = -1;
  for (let i = 0; i < k; i++) {
    const w = weights[i];
    if (!(w >= 0 && w < Infinity)) {
      throw new RangeError(`sampleMultinomial: weight ${i} must be finite and >= 0, got ${String(w)}`);
    }
    total += w;
    if (w > 0) lastPositive = i;
  }
  const counts = new Float64Array(k);
  if (n === 0) return counts;
  if (lastPositive < 0) throw new RangeError('sampleMultinomial: all weights are zero but n > 0');
  if (!Number.isFinite(total)) throw new RangeError('sampleMultinomial: the weights sum to Infinity');
  if (n >= SORTED_UNIFORMS_PER_CATEGORY * k)
    fillByConditionalBinomials(rng, n, weights, lastPositive, counts);
  else fillBySortedUniforms(rng, n, weights, total, lastPositive, counts);
  return counts;
}

function fillByConditionalBinomials(
  rng: Rng,
  n: number,
  weights: ArrayLike<number>,
  lastPositive: number,
  counts: Float64Array,
): void {
  // Remaining weight Σ_{j>=i} w_j, summed from the end so it is exact-ish and never below w_i.
  const remainingWeight = new Float64Array(lastPositive + 1);
  let suffix = 0;
  for (let i = lastPositive; i >= 0; i--) {
    suffix += weights[i];
    remainingWeight[i] = suffix;
  }
  let remaining = n;
  for (let i = 0; i < lastPositive && remaining > 0; i++) {
    const w = weights[i];
    if (w === 0) continue;
    const count = binomialUnchecked(rng, remaining, Math.min(1, w / remainingWeight[i]));
    counts[i] = count;
    remaining -= count;
  }
  counts[lastPositive] += remaining;
}

function fillBySortedUniforms(
  rng: Rng,
  n: number,
  weights: ArrayLike<number>,
  total: number,
  lastPositive: number,
  counts: Float64Array,
): void {
  // Descending order statistics d_1 > d_2 > … of n uniforms; (1 − d_m)·total are then ascending
  // points on the weight axis. After `placed` points, d_(placed+1) = d_placed · V^(1/(n − placed)).
  let descending = Math.exp(Math.log(1 - rng.nextFloat()) / n);
  let target = (1 - descending) * total;
  let placed = 0;
  let cumulative = 0;
  let compensation = 0;
  for (let i = 0; i < lastPositive; i++) {
    const w = weights[i];
    const sum = cumulative + w;
    compensation += cumulative >= w ? cumulative - sum + w : w - sum + cumulative;
    cumulative = sum;
    const upperEdge = cumulative + compensation;
    if (target >= upperEdge) continue;
    let count = 0;
    do {
      count++;
      placed++;
      if (placed === n) {
        counts[i] = count;
        return;
      }
      descending *= Math.exp(Math.log(1 - rng.nextFloat()) / (n - placed));
      target = (1 - descending) * total;
    } while (target < upperEdge);
    counts[i] = count;
  }
  // Points beyond the last edge fall in the last category (this also absorbs rounding at the top).
  counts[lastPositive] = n - placed;
}
