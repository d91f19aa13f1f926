/**
 * The zCDP costs of the two kinds of step the graphical-model mechanisms (MST, AIM) take: a histogram
 * with discrete Gaussian noise and a round of the exponential mechanism. Sensitivities come from the
 * query table (query-sensitivity.ts) under the run's relation.
 */
import { Rational } from '../rng/rational';
import { querySensitivity, type Neighbouring } from './query-sensitivity';
import { zcdpRhoFromSquaredSensitivity } from './zcdp';

/** Significant digits of the exponential mechanism's ε (rounded down from its target). */
export const SELECTION_EPSILON_DIGITS = 12;

/** Δ₂² of a histogram (counts over a partition) under a relation: 2 replace-one, 1 add/remove. */
export function histogramL2Squared(neighbouring: Neighbouring): Rational {
  return querySensitivity({ kind: 'partition-counts' }, neighbouring).l2Squared;
}

/**
 * σ² at which k histograms with discrete Gaussian noise cost ρ together: k·Δ₂²/(2σ²) = ρ, so
 * σ² = k·Δ₂²/(2ρ) (k/ρ under replace-one, k/(2ρ) under add/remove).
 */
export function histogramSigma2(rho: Rational, k: number, neighbouring: Neighbouring): Rational {
  return Rational.of(k).mul(histogramL2Squared(neighbouring)).div(Rational.of(2).mul(rho));
}

/**
 * zCDP cost of one histogram with discrete Gaussian noise of variance σ²: Δ₂²/(2σ²), 1/σ² under
 * replace-one, 1/(2σ²) under add/remove.
 */
export function histogramRho(sigma2: Rational, neighbouring: Neighbouring = 'replace-one'): Rational {
  return zcdpRhoFromSquaredSensitivity(histogramL2Squared(neighbouring), sigma2);
}

/** zCDP cost of one exponential-mechanism round at ε: ε²/8 (bounded range). */
export function selectionRho(epsilon: Rational): Rational {
  return epsilon.mul(epsilon).div(Rational.of(8));
}
