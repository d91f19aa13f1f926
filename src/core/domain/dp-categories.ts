import { expm1LowerBound } from '../privacy/expm1-lower-bound';
import type { ChargeableStep } from '../privacy/meter';
import { meteredThresholdedCounts } from '../privacy/metered/thresholded-counts';
import { querySensitivity } from '../privacy/query-sensitivity';
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
 * in both datasets, for every set of outputs (releases are independent).
 * - u and v seen in both: two values shift by one each, so the release is ε-DP (δ = 0).
 * - The row CREATES a value v (held by that row only, in D′) and/or REMOVES one u (held by the old
 *   row only, in D). Let P₁ = P(1 + Z >= τ) = P(Z >= τ − 1), the release probability of a value
 *   held by one row. Split an event S by whether it contains the only-once value. The outputs that
 *   contain it have probability P₁·(at most 1) on its side and 0 on the other. On the outputs
 *   without it, the side that holds it has (1 − P₁)·Q(S) and the other Q′(S), where Q and Q′ differ
 *   by at most one count moved by one (the other end of the replacement), so Q <= e^(ε/2)·Q′ and
 *   Q′ <= e^(ε/2)·Q: from the side holding the value, (1 − P₁)·Q − e^ε·Q′ <= 0; towards it,
 *   Q′ − e^ε·(1 − P₁)·Q <= Q′·(1 − e^(ε/2)·(1 − P₁)) <= P₁. A created and a removed value together
 *   leave the remaining values unchanged and give P₁ as well. So the exact worst case is
 *   δ = P₁ = p^(τ−1)/(1 + p), attained by S = {outputs that contain the only-once value};
 *   dp-categories.test.ts checks it against the exact hockey-stick divergence of every
 *   replace-one pair of small datasets.
 * So τ = 1 + j with the least whole j >= 1 such that p^j/(1 + p) <= δ, i.e.
 * e^(εj/2) + e^(ε(j−1)/2) >= 1/δ, checked with lower bounds of e^x (thresholdFor). δ must be > 0:
 * without it only declared lists are possible, since a value held by one person would otherwise be
 * released with positive probability.
 *
 * The noise is drawn through the privacy meter (privacy/metered/thresholded-counts.ts, counts over the
 * partition of all values, scale Δ/ε of the step's relation): it charges `step` exactly ε and
 * `deltaStep` (default `step`) δ, after checking that the threshold keeps P₁ <= δ.
 */
export function dpCategories(
  step: ChargeableStep,
  rng: Rng,
  counts: ReadonlyMap<string, number>,
  epsilon: Rational,
  threshold: number,
  delta: Rational,
  deltaStep: ChargeableStep = step,
): string[] {
  const query = { kind: 'partition-counts' } as const;
  const scale = querySensitivity(query, step.neighbouring).l1.div(epsilon);
  return meteredThresholdedCounts(step, query, counts, scale, threshold, delta, rng, deltaStep);
}

/**
 * The threshold τ = 1 + j for (ε, δ) (see dpCategories): the least whole j >= 1 with
 * P(Z >= j) = p^j/(1 + p) <= δ, p = e^(−ε/2), for discrete Laplace Z of scale 2/ε; then a value held
 * by one row is released with probability exactly P(Z >= τ − 1) <= δ, the exact worst case of the
 * replace-one (and add/remove) analysis. The test p^j/(1 + p) <= δ is e^(εj/2) + e^(ε(j−1)/2) >= 1/δ,
 * checked with 1 + expm1LowerBound(x) <= e^x on both terms (e^0 = 1 exactly), so a rounding can
 * only raise τ, never lower it below the exact least threshold. (The earlier bound
 * e^(ε/2)·P(Z >= τ − 1) <= e^(−ε(τ−2)/2) gave τ two to six higher: 30 instead of 28 at ε = 1,
 * δ = 1e−6.) Throws RangeError unless 0 < δ < 1 and ε > 0.
 */
export function thresholdFor(epsilon: Rational, delta: Rational): number {
  if (!epsilon.isPositive()) throw new RangeError('a category threshold needs ε > 0');
  if (!delta.isPositive() || delta.compare(Rational.ONE) >= 0) {
    throw new RangeError('a category threshold needs 0 < δ < 1: with δ = 0 only declared lists are possible');
  }
  const inverse = Rational.ONE.div(delta);
  const expLower = (k: number) =>
    k === 0 ? Rational.ONE : Rational.ONE.add(expm1LowerBound(epsilon.mul(Rational.of(k, 2))));
  const holds = (j: number) =>
    j >= 1 &&
    expLower(j)
      .add(expLower(j - 1))
      .compare(inverse) >= 0;
  // Start just below the floating-point solution of e^(εj/2)·(1 + e^(−ε/2)) = 1/δ and step up.
  const e = epsilon.toNumberDown();
  const guess = Math.floor((2 * (Math.log(inverse.toNumberUp()) - Math.log1p(Math.exp(-e / 2)))) / e) - 2;
  let j = Math.max(1, guess);
  while (!holds(j)) j++;
  return 1 + j;
}
