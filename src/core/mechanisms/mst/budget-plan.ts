import type { MeterStep } from '../../privacy/meter';
import { epsilonInWords, sigmaInWords } from '../../privacy/in-words';
import type { Neighbouring } from '../../privacy/query-sensitivity';
import { sqrtRationalDown } from '../../privacy/round-up';
import {
  histogramRho,
  histogramSigma2,
  SELECTION_EPSILON_DIGITS,
  selectionRho,
} from '../../privacy/zcdp-costs';
import type { ZcdpAccountant } from '../../privacy/zcdp-accountant';
import { Rational } from '../../rng/rational';
import { quantileBinReplaceOneRho, type QuantileBinPlan } from '../common/binning/quantile-bins';

/** MST's noise and selection parameters for a ρ budget and d columns, all exact. */
export interface MstBudgetPlan {
  rho: Rational;
  /** The run's neighbouring relation: the sensitivities below are derived under it. */
  neighbouring: Neighbouring;
  /** σ₁² = 3d·Δ₂²/(2ρ): the one-way histograms together cost d·Δ₂²/(2σ₁²) = ρ/3 (3d/ρ under replace-one). */
  oneWaySigma2: Rational;
  /** ε of each of the d − 1 selection rounds: the largest 12-digit decimal <= √(8ρ/(3(d − 1))). */
  selectionEpsilon: Rational;
  /** σ₂² = 3(d − 1)·Δ₂²/(2ρ): the d − 1 two-way histograms together cost ρ/3. */
  twoWaySigma2: Rational;
}

/**
 * MST's split of ρ in three (McKenna, Miklau & Sheldon 2021, "Winning the NIST contest", §4.1;
 * private-pgm `mechanisms/mst.py`): a third for the one-way histograms, a third for d − 1 rounds of
 * the exponential mechanism, a third for the d − 1 two-way histograms.
 *
 * The sensitivities come from the query table (privacy/query-sensitivity.ts) under the run's relation.
 * A histogram's Δ₂² is 2 under replace-one (one count down, one up) and 1 under add/remove (one count
 * moves), and discrete Gaussian noise of variance σ² costs Δ₂²/(2σ²) (CKS 2020, Theorem 4): 1/σ² and
 * 1/(2σ²). So a share ρ_h spread over k histograms gives σ² = k·Δ₂²/(2ρ_h): 3d/ρ and 3d/(2ρ) for the
 * one-ways; private-pgm (add/remove) has the latter. The selection score's sensitivity is 2 under
 * replace-one (an L1 error moves by up to 2) and 1 under add/remove; the metered exponential mechanism
 * scales by it, and its cost does not depend on it: each round at ε is ε-bounded-range, hence
 * ε²/8-zCDP (Cesar & Rogers 2021, Lemma 3.2), so d − 1 rounds at ε = √(8ρ/(3(d − 1))) cost ρ/3 under
 * either relation (the same ε selects twice as sharply under add/remove). Requires d >= 2 and ρ > 0.
 */
export function planMstBudget(
  rho: Rational,
  d: number,
  neighbouring: Neighbouring = 'replace-one',
): MstBudgetPlan {
  if (!(Number.isInteger(d) && d >= 2)) throw new RangeError(`MST needs at least two columns; got ${d}`);
  if (!rho.isPositive()) throw new RangeError(`MST needs ρ > 0; got ${rho.toString()}`);
  const three = Rational.of(3);
  const rounds = Rational.of(d - 1);
  const selectionEpsilonSquared = Rational.of(8).mul(rho).div(three.mul(rounds));
  const share = rho.div(three);
  return {
    rho,
    neighbouring,
    oneWaySigma2: histogramSigma2(share, d, neighbouring),
    selectionEpsilon: sqrtRationalDown(selectionEpsilonSquared, SELECTION_EPSILON_DIGITS),
    twoWaySigma2: histogramSigma2(share, d - 1, neighbouring),
  };
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
  const { oneWays, selection, twoWays } = mstStepCosts(plan, d);
  const oneWaysStep = accountant.reserve(
    `one-way histograms of the ${d} columns, discrete Gaussian noise with σ = ${sigmaInWords(plan.oneWaySigma2)} on every cell`,
    oneWays,
  );
  const selectionStep = accountant.reserve(
    `choice of the ${d - 1} tree edges among the column pairs: ${d - 1} rounds of the exponential mechanism, ` +
      `ε = ${epsilonInWords(plan.selectionEpsilon)} each, scoring each pair by the L1 error of the one-way model ` +
      `(sensitivity ${plan.neighbouring === 'add-remove' ? 1 : 2})`,
    selection,
  );
  const twoWaysStep = accountant.reserve(
    `two-way histograms of the ${d - 1} tree edges, discrete Gaussian noise with σ = ${sigmaInWords(plan.twoWaySigma2)} on every cell`,
    twoWays,
  );
  return { oneWays: oneWaysStep, selection: selectionStep, twoWays: twoWaysStep };
}

/** The exact ρ of MST's three steps under the plan's relation. */
export function mstStepCosts(
  plan: MstBudgetPlan,
  d: number,
): { oneWays: Rational; selection: Rational; twoWays: Rational } {
  return {
    oneWays: histogramRho(plan.oneWaySigma2, plan.neighbouring).mul(Rational.of(d)),
    selection: selectionRho(plan.selectionEpsilon).mul(Rational.of(d - 1)),
    twoWays: histogramRho(plan.twoWaySigma2, plan.neighbouring).mul(Rational.of(d - 1)),
  };
}

/**
 * The ρ of the same MST run under replace-one neighbours, when it was planned under add/remove
 * (privacy/relation-conversion.ts): each histogram's Δ₂² doubles (1 → 2), so its ρ doubles; each
 * selection's score sensitivity doubles (1 → 2), so each ε-bounded-range round becomes 2ε-bounded-range,
 * (2ε)²/8: four times. With quantile bins, the binning step reserved before MST's own steps adds its
 * replace-one ρ (quantileBinReplaceOneRho: the edges unchanged, the point-mass counts doubled).
 * Exact: 2·(ρ₁ + ρ₂) + 4·ρ_sel + edgeRho + 2·detectionRho.
 */
export function mstReplaceOneRho(plan: MstBudgetPlan, d: number, binPlan?: QuantileBinPlan): Rational {
  const { oneWays, selection, twoWays } = mstStepCosts({ ...plan, neighbouring: 'add-remove' }, d);
  const own = Rational.of(2).mul(oneWays.add(twoWays)).add(Rational.of(4).mul(selection));
  return binPlan === undefined ? own : own.add(quantileBinReplaceOneRho(binPlan));
}
