import { Rational } from '../../rng/rational';
import type { ChargeableStep, StepCost } from '../meter';

/**
 * The cost an ε-DP output charges to a step of either notion: (ε, 0) on an (ε, δ) step; on a zCDP
 * step ε²/8 when the output is ε-bounded-range (the exponential mechanism, Cesar & Rogers 2021,
 * Lemma 3.2), ε²/2 otherwise (Bun & Steinke 2016, Proposition 1.4).
 */
export function pureCost(step: ChargeableStep, epsilon: Rational, boundedRange: boolean): StepCost {
  if (step.notion === 'approx-dp') return { notion: 'approx-dp', epsilon, delta: Rational.ZERO };
  return { notion: 'zcdp', rho: epsilon.mul(epsilon).div(Rational.of(boundedRange ? 8 : 2)) };
}
