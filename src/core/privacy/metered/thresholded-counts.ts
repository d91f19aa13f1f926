import { throwIfAborted } from '../../abort';
import type { AbortSignalLike } from '../../abort';
import { makeDiscreteLaplaceSampler } from '../../rng/discrete-laplace';
import { Rational } from '../../rng/rational';
import type { Rng } from '../../rng/types';
import { expm1LowerBound } from '../expm1-lower-bound';
import type { ChargeableStep } from '../meter';
import { querySensitivity, type QueryKind } from '../query-sensitivity';

/** Values between two looks at the abort signal. */
const VALUES_PER_ABORT_CHECK = 65_536;

/**
 * True when a value held by one row passes the threshold τ with probability at most δ under discrete
 * Laplace noise of scale t: P(1 + Z >= τ) = P(Z >= j) = p^j/(1 + p) with j = τ − 1 >= 1, p = e^(−1/t),
 * and p^j/(1 + p) <= δ iff e^(j/t) + e^((j−1)/t) >= 1/δ, checked with 1 + expm1LowerBound(x) <= e^x
 * on both terms (e^0 = 1 exactly), so a rounding can only refuse, never accept a τ that is too low.
 */
export function thresholdHoldsDelta(scale: Rational, threshold: number, delta: Rational): boolean {
  const j = threshold - 1;
  if (!Number.isSafeInteger(j) || j < 1 || !delta.isPositive()) return false;
  const expLower = (k: number) =>
    k === 0 ? Rational.ONE : Rational.ONE.add(expm1LowerBound(Rational.of(k).div(scale)));
  return (
    expLower(j)
      .add(expLower(j - 1))
      .compare(Rational.ONE.div(delta)) >= 0
  );
}

/**
 * A stability-based thresholded histogram (Korolova, Kenthapadi, Mishra & Ntoulas 2009; Bun, Nissim &
 * Stemmer 2016, §3), metered: every value seen in the data gets exact discrete Laplace noise of scale t
 * on its count (CKS 2020, Algorithm 2), in the map's order, and the values whose noisy count reaches
 * `threshold` are returned; values never seen are never considered.
 *
 * Cost, charged before the first draw: ε = Δ₁/t, Δ₁ the L1 sensitivity of counts over a partition under
 * the step's relation (the partition of every possible value, fixed before the data: 2 under
 * replace-one, 1 under add/remove), and δ, the release probability of a value held by one row, which
 * is all a created or removed value can add: P₁ = P(Z >= τ − 1) <= δ (domain/dp-categories.ts derives
 * it; refused with a RangeError, nothing charged, when τ does not give P₁ <= δ). ε goes to `step`, δ to
 * `deltaStep` (default `step`): a step planned earlier may hold the δ for this list, as the learned
 * type of a column does for the category list its noise may call for. (ε, δ) steps only.
 */
export function meteredThresholdedCounts(
  step: ChargeableStep,
  query: Extract<QueryKind, { kind: 'partition-counts' }>,
  counts: ReadonlyMap<string, number>,
  scale: Rational,
  threshold: number,
  delta: Rational,
  rng: Rng,
  deltaStep: ChargeableStep = step,
  signal?: AbortSignalLike,
): string[] {
  if (step.notion !== 'approx-dp' || deltaStep.notion !== 'approx-dp') {
    throw new RangeError('a thresholded histogram spends δ: it needs (ε, δ) steps');
  }
  if (!thresholdHoldsDelta(scale, threshold, delta)) {
    throw new RangeError(
      `a threshold of ${threshold} at noise scale ${scale.toString()} releases a value held by one row with ` +
        `probability above δ = ${delta.toString()}`,
    );
  }
  const sample = makeDiscreteLaplaceSampler(scale);
  const epsilon = querySensitivity(query, step.neighbouring).l1.div(scale);
  if (deltaStep === step) {
    step.charge({ notion: 'approx-dp', epsilon, delta });
  } else {
    step.charge({ notion: 'approx-dp', epsilon, delta: Rational.ZERO });
    deltaStep.charge({ notion: 'approx-dp', epsilon: Rational.ZERO, delta });
  }
  const released: string[] = [];
  let i = 0;
  for (const [value, count] of counts) {
    if (i++ % VALUES_PER_ABORT_CHECK === 0) throwIfAborted(signal);
    if (count + sample(rng) >= threshold) released.push(value);
  }
  return released;
}
