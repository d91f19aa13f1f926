import { Rational } from '../../rng/rational';
import type { ChargeableStep } from '../meter';

/**
 * A share of the budget reserved for an output the run did not make, charged as spent: the branch of
 * an adaptive choice that was not taken (a learned type's δ kept for a category list when the column
 * came out numeric, a path whose facts are all declared). The claim states the costlier branch
 * whichever one the noise chose, so that it never depends on the choice; charging the unused share
 * makes the meter agree with that claim. Nothing is drawn and nothing is released, so the charge can
 * only overstate what the run spent, never understate it. (ε, δ) steps; a charge past the step's plan
 * throws MeterMismatchError.
 */
export function chargeUnusedShare(
  step: ChargeableStep,
  epsilon: Rational,
  delta: Rational = Rational.ZERO,
): void {
  if (step.notion !== 'approx-dp') throw new RangeError('an unused (ε, δ) share needs an (ε, δ) step');
  step.charge({ notion: 'approx-dp', epsilon, delta });
}
