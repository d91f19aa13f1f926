import { expm1LowerBound } from '../privacy/expm1-lower-bound';
import { makeDiscreteLaplaceSampler } from '../rng/discrete-laplace';
import { Rational } from '../rng/rational';
import type { Rng } from '../rng/types';

/**
 * The categories of a column learned with (ε, δ)-DP by a stability-based thresholded histogram
 * (Korolova, Kenthapadi, Mishra & Ntoulas 2009; Bun, Nissim & Stemmer 2016, §3): every value seen in
 * the data gets exact discrete Laplace noise of scale b = 2/ε on its count, and is released when
 * the noisy count reaches the threshold τ. Values never seen are never considered; the released
 * list, not the counts, is the output.
 *
 * Derivation under replace-one with n public. Replacing one row with value u by a row with value v
 * lowers u's count by 1 and raises v's by 1 (a missing cell on either side changes one count only).
 * Write p = e^(−1/b) = e^(−ε/2); with P(Z >= j) = p^j/(1 + p) for j >= 1, each value's release
 * probability moves by at most a factor e^(1/b) = e^(ε/2) when its count moves by 1 and it is seen
 * in both datasets.
 * - u and v seen in both: two values shift by one each, so the release is ε-DP (δ = 0).
 * - The row CREATES a value (v seen once, only in the new data) and/or REMOVES one (u seen once,
 *   only in the old): such a value is released with probability P(1 + Z >= τ) = P(Z >= τ − 1) in
 *   the one dataset and never in the other. For an event S, conditioning on that value's release
 *   gives P_D(S) <= e^(ε/2)·P_D'(S) + P(Z >= τ − 1) in one direction and, in the other, where the
 *   only-once value sits on the side being bounded, P_D'(S) <= e^(ε/2)·(P_D(S) + P(Z >= τ − 1)).
 *   At most one value is created and one removed per replacement, one on each side, and a created
 *   and a removed value together leave no common value shifted, so
 *   δ <= e^(ε/2)·P(Z >= τ − 1) = p^(τ−2)/(1 + p) <= e^(−ε(τ−2)/2).
 * So τ = 2 + j with the least whole j such that e^(εj/2) >= 1/δ gives (ε, δ)-DP, checked exactly
 * with a lower bound of e^x (thresholdFor). δ must be > 0: without it only declared lists are
 * possible, since a value held by one person would otherwise be released with positive probability.
 */
export function dpCategories(
  rng: Rng,
  counts: ReadonlyMap<string, number>,
  epsilon: Rational,
  threshold: number,
): string[] {
  const noise = makeDiscreteLaplaceSampler(CATEGORY_COUNT_SENSITIVITY.div(epsilon));
  const released: string[] = [];
  for (const [value, count] of counts) {
    if (count + noise(rng) >= threshold) released.push(value);
  }
  return released;
}

/** L1 sensitivity of the counts of the values seen in both neighbours, under replace-one. */
export const CATEGORY_COUNT_SENSITIVITY = Rational.of(2);

/**
 * The threshold τ = 2 + j for (ε, δ) (see dpCategories): the least whole j >= 0 with
 * 1 + expm1LowerBound(ε·j/2) >= 1/δ, which implies e^(εj/2) >= 1/δ exactly. Throws RangeError
 * unless 0 < δ < 1 and ε > 0.
 */
export function thresholdFor(epsilon: Rational, delta: Rational): number {
  if (!epsilon.isPositive()) throw new RangeError('a category threshold needs ε > 0');
  if (!delta.isPositive() || delta.compare(Rational.ONE) >= 0) {
    throw new RangeError('a category threshold needs 0 < δ < 1: with δ = 0 only declared lists are possible');
  }
  const inverse = Rational.ONE.div(delta);
  const holds = (j: number) =>
    j > 0 && Rational.ONE.add(expm1LowerBound(epsilon.mul(Rational.of(j, 2)))).compare(inverse) >= 0;
  // Start just below the floating-point solution and step up until the exact test holds.
  const guess = Math.max(0, Math.floor((2 * Math.log(inverse.toNumberUp())) / epsilon.toNumberDown()) - 2);
  let j = guess;
  while (!holds(j)) j++;
  return 2 + j;
}
