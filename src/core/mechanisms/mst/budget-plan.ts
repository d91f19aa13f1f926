import type { MeterStep } from '../../privacy/meter';
import { roundDownRational, roundUpRational, sqrtRationalDown } from '../../privacy/round-up';
import { zcdpRhoFromSquaredSensitivity } from '../../privacy/zcdp';
import type { ZcdpAccountant } from '../../privacy/zcdp-accountant';
import { Rational } from '../../rng/rational';

/** Significant digits of the exponential mechanism's ε (rounded down from its target). */
export const SELECTION_EPSILON_DIGITS = 12;

/** MST's noise and selection parameters for a ρ budget and d columns, all exact. */
export interface MstBudgetPlan {
  rho: Rational;
  /** σ₁² = 3d/ρ: the one-way histograms together cost d/σ₁² = ρ/3. */
  oneWaySigma2: Rational;
  /** ε of each of the d − 1 selection rounds: the largest 12-digit decimal <= √(8ρ/(3(d − 1))). */
  selectionEpsilon: Rational;
  /** σ₂² = 3(d − 1)/ρ: the d − 1 two-way histograms together cost ρ/3. */
  twoWaySigma2: Rational;
}

/**
 * MST's split of ρ in three (McKenna, Miklau & Sheldon 2021, "Winning the NIST contest", §4.1;
 * private-pgm `mechanisms/mst.py`): a third for the one-way histograms, a third for d − 1 rounds of
 * the exponential mechanism, a third for the d − 1 two-way histograms.
 *
 * Replace-one: a histogram's L2 sensitivity is √2 (one count down, one up), so discrete Gaussian noise
 * of variance σ² costs (√2)²/(2σ²) = 1/σ² (CKS 2020, Theorem 4). private-pgm assumes add/remove
 * (sensitivity 1, cost 1/(2σ²)), so at the same ρ its σ² is half ours. Its selection score has
 * sensitivity 1 under add/remove; under replace-one an L1 error moves by up to 2, so Δ = 2 here (the
 * same ε then selects less sharply). Each round of the exponential mechanism at ε is ε-bounded-range,
 * hence ε²/8-zCDP (Cesar & Rogers 2021, Lemma 3.2): d − 1 rounds at ε = √(8ρ/(3(d − 1))) cost ρ/3.
 * Requires d >= 2 and ρ > 0.
 */
export function planMstBudget(rho: Rational, d: number): MstBudgetPlan {
  if (!(Number.isInteger(d) && d >= 2)) throw new RangeError(`MST needs at least two columns; got ${d}`);
  if (!rho.isPositive()) throw new RangeError(`MST needs ρ > 0; got ${rho.toString()}`);
  const three = Rational.of(3);
  const rounds = Rational.of(d - 1);
  const selectionEpsilonSquared = Rational.of(8).mul(rho).div(three.mul(rounds));
  return {
    rho,
    oneWaySigma2: three.mul(Rational.of(d)).div(rho),
    selectionEpsilon: sqrtRationalDown(selectionEpsilonSquared, SELECTION_EPSILON_DIGITS),
    twoWaySigma2: three.mul(rounds).div(rho),
  };
}

/** zCDP cost of one histogram with discrete Gaussian noise of variance σ² under replace-one: 1/σ². */
export function histogramRho(sigma2: Rational): Rational {
  return zcdpRhoFromSquaredSensitivity(Rational.of(2), sigma2);
}

/** zCDP cost of one exponential-mechanism round at ε: ε²/8 (bounded range). */
export function selectionRho(epsilon: Rational): Rational {
  return epsilon.mul(epsilon).div(Rational.of(8));
}

/** σ = √σ² rounded down to 4 significant digits, for sentences (a smaller σ shown is the cautious side). */
export function sigmaInWords(sigma2: Rational): string {
  return String(roundDownRational(sqrtRationalDown(sigma2, 4), 4));
}

/** The handles of MST's three steps on the run's privacy meter: each draw charges its own. */
export interface MstSteps {
  oneWays: MeterStep;
  selection: MeterStep;
  twoWays: MeterStep;
}

/**
 * The three reservations of an MST run, in the order the run spends them. claim() and run() both
 * call this, so the claim is what the run reserves; the run draws through the returned handles, and
 * the meter checks that the d one-way draws, the d − 1 selections and the d − 1 two-way draws charge
 * exactly these costs.
 */
export function reserveMstBudget(
  accountant: Pick<ZcdpAccountant, 'reserve'>,
  plan: MstBudgetPlan,
  d: number,
): MstSteps {
  const oneWays = histogramRho(plan.oneWaySigma2).mul(Rational.of(d));
  const selection = selectionRho(plan.selectionEpsilon).mul(Rational.of(d - 1));
  const twoWays = histogramRho(plan.twoWaySigma2).mul(Rational.of(d - 1));
  const oneWaysStep = accountant.reserve(
    `one-way histograms of the ${d} columns, discrete Gaussian noise with σ = ${sigmaInWords(plan.oneWaySigma2)} on every cell`,
    oneWays,
  );
  const selectionStep = accountant.reserve(
    `choice of the ${d - 1} tree edges among the column pairs: ${d - 1} rounds of the exponential mechanism, ` +
      `ε = ${epsilonInWords(plan.selectionEpsilon)} each, scoring each pair by the L1 error of the one-way model (sensitivity 2)`,
    selection,
  );
  const twoWaysStep = accountant.reserve(
    `two-way histograms of the ${d - 1} tree edges, discrete Gaussian noise with σ = ${sigmaInWords(plan.twoWaySigma2)} on every cell`,
    twoWays,
  );
  return { oneWays: oneWaysStep, selection: selectionStep, twoWays: twoWaysStep };
}

/** An ε for sentences, rounded up to 6 significant digits (privacy rule 7). */
export function epsilonInWords(epsilon: Rational): string {
  return String(roundUpRational(epsilon));
}
