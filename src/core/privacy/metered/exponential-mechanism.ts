import { sampleExponentialMechanism, sampleExponentialMechanismBig } from '../../rng/exponential-mechanism';
import type { Rational } from '../../rng/rational';
import type { Rng } from '../../rng/types';
import type { ChargeableStep } from '../meter';
import { describeQuery, querySensitivity, type QueryKind } from '../query-sensitivity';
import { pureCost } from './costs';

/** The query's score sensitivity as a positive whole number of score units (the samplers need one). */
function wholeSensitivity(step: ChargeableStep, query: QueryKind): bigint {
  const { l1 } = querySensitivity(query, step.neighbouring);
  if (l1.den !== 1n || l1.num < 1n) {
    throw new RangeError(
      `the exponential mechanism needs a whole positive sensitivity; ${describeQuery(query)} has ${l1.toString()}`,
    );
  }
  return l1.num;
}

/**
 * The exponential mechanism (McSherry & Talwar 2007) over integer scores, sampled exactly
 * (rng/exponential-mechanism.ts): candidate i with probability ∝ exp(ε·qᵢ/(2Δ)), Δ the score
 * sensitivity of `query` under the step's relation. Metered: before drawing it charges `step` ε on an
 * (ε, δ) step, or ε²/8 on a zCDP step (ε-bounded range, Cesar & Rogers 2021, Lemma 3.2). Returns the
 * chosen index.
 */
export function meteredExponentialMechanism(
  step: ChargeableStep,
  query: QueryKind,
  scores: ArrayLike<number>,
  epsilon: Rational,
  rng: Rng,
): number {
  const sensitivity = wholeSensitivity(step, query);
  if (sensitivity > BigInt(Number.MAX_SAFE_INTEGER)) {
    throw new RangeError('the sensitivity passes 2^53: use meteredExponentialMechanismBig');
  }
  step.charge(pureCost(step, epsilon, true));
  return sampleExponentialMechanism(rng, scores, epsilon, Number(sensitivity));
}

/**
 * {@link meteredExponentialMechanism} for scores of any size, as bigints (the same distribution and,
 * for safe-integer scores, the same draws). Charges the same cost.
 */
export function meteredExponentialMechanismBig(
  step: ChargeableStep,
  query: QueryKind,
  scores: readonly bigint[],
  epsilon: Rational,
  rng: Rng,
): number {
  const sensitivity = wholeSensitivity(step, query);
  step.charge(pureCost(step, epsilon, true));
  return sampleExponentialMechanismBig(rng, scores, epsilon, sensitivity);
}
