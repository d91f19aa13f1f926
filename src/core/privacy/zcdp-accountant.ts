import { parseRational, Rational } from '../rng/rational';
import { OverspendError } from './accountant';
import type { PrivacyBudget } from './budget';
import { formatRational } from './format-rational';
import { roundUp, roundUpRational } from './round-up';
import { claimBound } from './claim-bound';
import { PrivacyMeter, type MeterStep } from './meter';
import type { ClaimStep, PrivacyClaim, UnprovenBound } from './types';
import { composeZcdp, zcdpRhoForBudget, zcdpToApproxDp } from './zcdp';

/** One composed zCDP step, exact. */
export interface ZcdpStep {
  what: string;
  rho: Rational;
}

/**
 * Composes zCDP costs exactly (Bun & Steinke 2016, Lemma 1.7) within a ρ budget, for mechanisms
 * that add discrete Gaussian noise. The claim converts the ρ spent to (ε, δ) at the budget's δ
 * (Canonne, Kamath & Steinke 2020, Corollary 13). Like {@link Accountant}, a step is reserved
 * before its noise is drawn, and an overspend charges nothing.
 */
export class ZcdpAccountant {
  readonly rhoBudget: Rational;
  /** The δ at which the claim is stated. */
  readonly delta: Rational;
  private spentRho: Rational = Rational.ZERO;
  private runMeter: PrivacyMeter;

  /** `meter`: the run's privacy meter (`ctx.meter`), where every reservation is registered; fresh when absent. */
  constructor(rhoBudget: Rational, delta: Rational, meter: PrivacyMeter = new PrivacyMeter()) {
    this.runMeter = meter;
    if (rhoBudget.isNegative())
      throw new RangeError(`a ρ budget cannot be negative; got ${rhoBudget.toString()}`);
    if (!delta.isPositive() || delta.compare(Rational.ONE) >= 0) {
      throw new RangeError(`a zCDP claim needs 0 < δ < 1; got ${formatRational(delta)}`);
    }
    this.rhoBudget = rhoBudget;
    this.delta = delta;
  }

  /**
   * The accountant for a budget given as (ε, δ): ρ is the largest whose conversion stays within ε at
   * δ (zcdpRhoForBudget, from ε and δ rounded down to doubles, so the ρ can only be smaller).
   * Throws RangeError when δ = 0: zCDP implies no pure-DP guarantee of this form.
   */
  static forBudget(budget: PrivacyBudget, meter?: PrivacyMeter): ZcdpAccountant {
    if (budget.delta.isZero()) {
      throw new RangeError('zCDP needs δ > 0 to state an (ε, δ) guarantee; the budget has δ = 0');
    }
    const rho = zcdpRhoForBudget(budget.epsilon.toNumberDown(), budget.delta.toNumberDown());
    return new ZcdpAccountant(parseRational(rho), budget.delta, meter);
  }

  /**
   * Charges ρ and returns the step's handle on the meter (which the metered primitives charge); throws
   * OverspendError (charging nothing) past the budget, RangeError for ρ < 0.
   */
  reserve(what: string, rho: Rational): MeterStep {
    if (rho.isNegative()) throw new RangeError(`"${what}": ρ cannot be negative; got ${rho.toString()}`);
    const total = this.spentRho.add(rho);
    if (total.compare(this.rhoBudget) > 0) {
      throw new OverspendError(
        `"${what}" needs ρ = ${formatRational(rho)}, but only ${formatRational(this.remaining())} ` +
          `of ρ = ${formatRational(this.rhoBudget)} is left`,
      );
    }
    this.spentRho = total;
    return this.runMeter.plan(this, what, { notion: 'zcdp', rho });
  }

  /** ρ/parts, exact; throws RangeError unless parts is a whole number >= 1. */
  static split(rho: Rational, parts: number): Rational {
    if (!Number.isInteger(parts) || parts < 1) {
      throw new RangeError(`ρ can only be split into a whole number of parts >= 1; got ${parts}`);
    }
    return rho.div(Rational.of(parts));
  }

  spent(): Rational {
    return this.spentRho;
  }

  remaining(): Rational {
    return this.rhoBudget.sub(this.spentRho);
  }

  steps(): readonly ZcdpStep[] {
    return this.recorded;
  }

  /** The run's meter this accountant registers its steps on. */
  get meter(): PrivacyMeter {
    return this.runMeter;
  }

  /** As Accountant.attachMeter: registers the steps on `meter` from now on; only before the first step. */
  attachMeter(meter: PrivacyMeter): void {
    if (meter !== this.runMeter && this.recorded.length > 0) {
      throw new Error('an accountant cannot move to another privacy meter after reserving a step');
    }
    this.runMeter = meter;
  }

  /** The steps reserved here, from the meter's one list of planned steps. */
  private get recorded(): ZcdpStep[] {
    return this.runMeter.stepsOf(this).map((step) => {
      const cost = step.planned;
      if (cost.notion !== 'zcdp') throw new Error('a zCDP accountant holds an (ε, δ) step');
      return { what: step.what, rho: cost.rho };
    });
  }

  /**
   * The claim (notion "approx-dp", with `rho` set): ε is the conversion of ρ spent (rounded up to a
   * double first) at δ (rounded down to a double first), then rounded up to 6 digits; each step
   * shows its own ρ and the ε it alone would have at the same δ. Composition happens in ρ, so the
   * steps' ε do not add up to the total. The bound is "proven" unless `unproven` names why it is not.
   */
  claim(assumptions: string[], unproven?: UnprovenBound): PrivacyClaim {
    const delta = this.delta.toNumberDown();
    const shownDelta = roundUpRational(this.delta);
    const epsilonOf = (rho: Rational): number => roundUp(zcdpToApproxDp(rho.toNumberUp(), delta));
    const steps: ClaimStep[] = this.recorded.map((s) => ({
      what: s.what,
      epsilon: epsilonOf(s.rho),
      delta: shownDelta,
      rho: roundUpRational(s.rho),
    }));
    return {
      notion: 'approx-dp',
      epsilon: epsilonOf(composeZcdp(this.recorded.map((s) => s.rho))),
      delta: shownDelta,
      rho: roundUpRational(this.spentRho),
      neighbouring: this.runMeter.neighbouring,
      ...claimBound(unproven),
      steps,
      assumptions: [...assumptions],
    };
  }
}
