import { Rational } from '../rng/rational';
import type { PrivacyBudget } from './budget';
import { exponentialUpperBound } from './exp-upper-bound';
import { formatRational } from './format-rational';
import { roundUpRational } from './round-up';
import { claimBound } from './claim-bound';
import { PrivacyMeter, type MeterStep, type StepCost } from './meter';
import type { ClaimStep, PrivacyClaim, UnprovenBound } from './types';

/** A mechanism tried to spend more than the budget it was given; nothing was charged. */
export class OverspendError extends Error {
  override name = 'OverspendError';
}

/**
 * How the rows were divided among the parts of a parallel composition.
 * - `by-position`: each row belongs to one part by a rule that ignores its values (row index, a random
 *   split drawn before looking at the data). Replacing one row changes the input of one part only.
 *   Each part's (ε, δ) is its cost when one of its rows is replaced.
 * - `by-value`: parts are defined by the values (histogram cells, tree leaves). Replacing one row can
 *   take it out of one part and put it into another. Each part's (ε, δ) is its cost when one row is
 *   added to or removed from that part.
 */
export type PartitionKind = 'by-position' | 'by-value';

/** One composed step, exact. */
export interface AccountedStep {
  what: string;
  epsilon: Rational;
  delta: Rational;
}

/** A part of a parallel composition and what it would cost alone. */
export interface ParallelPart {
  epsilon: Rational;
  delta?: Rational;
}

function checkCost(what: string, epsilon: Rational, delta: Rational): void {
  if (epsilon.isNegative() || delta.isNegative()) {
    throw new RangeError(
      `"${what}": a privacy cost cannot be negative (ε = ${formatRational(epsilon)}, δ = ${formatRational(delta)})`,
    );
  }
}

function maximum(values: Rational[]): Rational {
  return values.reduce((best, v) => (v.compare(best) > 0 ? v : best), Rational.ZERO);
}

/**
 * δ of a by-value parallel step: the worst over (a) a row moving between two different parts, which
 * costs δₐ + δ_b by basic composition, and (b) a row replaced inside one part, a removal then an
 * addition, which costs (1 + e^{εₐ})·δₐ by chaining the two (εₐ, δₐ) steps.
 */
function byValueDelta(parts: { epsilon: Rational; delta: Rational }[]): Rational {
  const deltas = parts.map((p) => p.delta).sort((a, b) => b.compare(a));
  let worst = deltas.length >= 2 ? deltas[0]!.add(deltas[1]!) : Rational.ZERO;
  for (const part of parts) {
    if (part.delta.isZero()) continue;
    const growth = exponentialUpperBound(part.epsilon);
    const inside = growth === null ? Rational.ONE : Rational.ONE.add(growth).mul(part.delta);
    if (inside.compare(worst) > 0) worst = inside;
  }
  return worst.compare(Rational.ONE) > 0 ? Rational.ONE : worst;
}

/**
 * Composes (ε, δ) privacy costs exactly, in rationals. A mechanism reserves each step before it
 * draws the noise for it, so an overspend stops the run before anything is released (DESIGN.md §3,
 * rule 5). Neighbouring datasets are those of the run's meter (rule 1): replace-one unless the meter says
 * add/remove; the claim states the relation.
 */
export class Accountant {
  readonly budget: PrivacyBudget;
  private spentEpsilon: Rational = Rational.ZERO;
  private spentDelta: Rational = Rational.ZERO;
  private runMeter: PrivacyMeter;

  /**
   * `meter`: the run's privacy meter (`ctx.meter`), where every reservation is registered as a planned
   * step; a fresh one when absent (a claim made before a run).
   */
  constructor(budget: PrivacyBudget, meter: PrivacyMeter = new PrivacyMeter()) {
    this.runMeter = meter;
    checkCost('budget', budget.epsilon, budget.delta);
    if (budget.delta.compare(Rational.ONE) >= 0) {
      throw new RangeError(`the budget's δ must be below 1; got ${formatRational(budget.delta)}`);
    }
    this.budget = { epsilon: budget.epsilon, delta: budget.delta };
  }

  /**
   * Sequential composition: k steps that are (εᵢ, δᵢ)-DP together are (Σεᵢ, Σδᵢ)-DP (Dwork & Roth 2014,
   * Theorem 3.16). Charges ε and δ; throws OverspendError, charging and recording nothing, if either
   * total would exceed the budget. Throws RangeError for a negative cost. Returns the step's handle
   * on the meter, which the metered primitives charge (privacy/metered/).
   */
  reserve(what: string, epsilon: Rational, delta: Rational = Rational.ZERO): MeterStep {
    checkCost(what, epsilon, delta);
    return this.charge({ what, epsilon, delta });
  }

  /**
   * Parallel composition over disjoint parts of the rows (McSherry 2009, PINQ, Theorem 4), under the
   * meter's neighbouring relation (privacy rule 1) and according to how the rows were divided:
   * - `by-position`: one replacement touches one part, so the step costs max εᵢ and max δᵢ.
   * - `by-value` (the default, because it is safe for both) under replace-one: one replacement can touch
   *   two parts, or remove and add a row in the same part, so the step costs 2·max εᵢ (εₐ + ε_b <= 2·max)
   *   and the δ worked out in {@link byValueDelta}, which is 0 when every part is pure.
   * - `by-value` under add/remove: adding or removing one row changes the input of the one part its
   *   values fall in and no other, and each part's (εᵢ, δᵢ) is its cost for exactly that change, so the
   *   step costs max εᵢ and max δᵢ (McSherry 2009, Theorem 4, whose neighbours are add/remove).
   * Records one step and returns its handle, planned at the composed cost (a primitive that draws
   * over the whole partition charges that cost at once); throws OverspendError (charging nothing) or
   * RangeError for no parts.
   */
  reserveParallel(what: string, parts: ParallelPart[], partition: PartitionKind = 'by-value'): MeterStep {
    if (parts.length === 0) throw new RangeError(`"${what}": parallel composition needs at least one part`);
    const exact = parts.map((p) => ({ epsilon: p.epsilon, delta: p.delta ?? Rational.ZERO }));
    for (const part of exact) checkCost(what, part.epsilon, part.delta);
    if (partition === 'by-position' && this.runMeter.neighbouring === 'add-remove') {
      // Parts by position are sized from n (⌊n·share⌋) and filled by a permutation of the rows: adding
      // a row changes n, so many rows move between parts and the one-part argument fails.
      throw new RangeError(
        `"${what}": a split by position needs replace-one neighbours (its part sizes come from n); under ` +
          'add/remove the rows of every part can change',
      );
    }
    const largestEpsilon = maximum(exact.map((p) => p.epsilon));
    const onePart = partition === 'by-position' || this.runMeter.neighbouring === 'add-remove';
    const epsilon = onePart ? largestEpsilon : largestEpsilon.mul(Rational.of(2));
    const delta = onePart ? maximum(exact.map((p) => p.delta)) : byValueDelta(exact);
    const described = `${what} (parallel over ${parts.length} disjoint parts split ${partition.replace('-', ' ')})`;
    // By position, each part is drawn on its own rows and charged through its own handle (step.part(i));
    // by value, one draw over the whole partition charges the composed cost.
    const partCosts =
      partition === 'by-position'
        ? exact.map((p) => ({ notion: 'approx-dp' as const, epsilon: p.epsilon, delta: p.delta }))
        : [];
    return this.charge({ what: described, epsilon, delta }, partCosts);
  }

  /** total / parts, exactly. Throws RangeError unless parts is a whole number >= 1. */
  static split(total: Rational, parts: number): Rational {
    if (!Number.isInteger(parts) || parts < 1) {
      throw new RangeError(`a budget can only be split into a whole number of parts >= 1; got ${parts}`);
    }
    return total.div(Rational.of(parts));
  }

  /** The ε still available, divided exactly into `parts` equal shares. */
  splitRemainingEpsilon(parts: number): Rational {
    return Accountant.split(this.remaining().epsilon, parts);
  }

  spent(): PrivacyBudget {
    return { epsilon: this.spentEpsilon, delta: this.spentDelta };
  }

  remaining(): PrivacyBudget {
    return {
      epsilon: this.budget.epsilon.sub(this.spentEpsilon),
      delta: this.budget.delta.sub(this.spentDelta),
    };
  }

  /** The steps charged so far, in order, exact. */
  steps(): readonly AccountedStep[] {
    return this.recorded;
  }

  /** The run's meter this accountant registers its steps on. */
  get meter(): PrivacyMeter {
    return this.runMeter;
  }

  /**
   * Registers this accountant's steps on `meter` from now on (a staged run's wrapper attaches the
   * accountant the worker made to the run's meter). Throws once a step was reserved on another meter.
   */
  attachMeter(meter: PrivacyMeter): void {
    if (meter !== this.runMeter && this.recorded.length > 0) {
      throw new Error('an accountant cannot move to another privacy meter after reserving a step');
    }
    this.runMeter = meter;
  }

  /** The steps reserved here, from the meter's one list of planned steps. */
  private get recorded(): AccountedStep[] {
    return this.runMeter.stepsOf(this).map((step) => {
      const cost = step.planned;
      if (cost.notion !== 'approx-dp') throw new Error('an (ε, δ) accountant holds a zCDP step');
      return { what: step.what, epsilon: cost.epsilon, delta: cost.delta };
    });
  }

  /**
   * The claim for what was spent (not for the budget): notion "pure-dp" when no δ was spent, else
   * "approx-dp"; every number rounded up to 6 significant digits from the exact rational (rule 7).
   * The bound is "proven" unless `unproven` names why it is not.
   */
  claim(assumptions: string[], unproven?: UnprovenBound): PrivacyClaim {
    const pure = this.spentDelta.isZero();
    const steps: ClaimStep[] = this.recorded.map((s) =>
      s.delta.isZero()
        ? { what: s.what, epsilon: roundUpRational(s.epsilon) }
        : { what: s.what, epsilon: roundUpRational(s.epsilon), delta: roundUpRational(s.delta) },
    );
    return {
      notion: pure ? 'pure-dp' : 'approx-dp',
      epsilon: roundUpRational(this.spentEpsilon),
      delta: roundUpRational(this.spentDelta),
      neighbouring: this.runMeter.neighbouring,
      ...claimBound(unproven),
      steps,
      assumptions: [...assumptions],
    };
  }

  private charge(step: AccountedStep, parts: readonly StepCost[] = []): MeterStep {
    const epsilon = this.spentEpsilon.add(step.epsilon);
    const delta = this.spentDelta.add(step.delta);
    if (epsilon.compare(this.budget.epsilon) > 0) {
      throw new OverspendError(
        `"${step.what}" needs ε = ${formatRational(step.epsilon)}, but only ` +
          `${formatRational(this.remaining().epsilon)} of ε = ${formatRational(this.budget.epsilon)} is left`,
      );
    }
    if (delta.compare(this.budget.delta) > 0) {
      throw new OverspendError(
        `"${step.what}" needs δ = ${formatRational(step.delta)}, but only ` +
          `${formatRational(this.remaining().delta)} of δ = ${formatRational(this.budget.delta)} is left`,
      );
    }
    this.spentEpsilon = epsilon;
    this.spentDelta = delta;
    return this.runMeter.plan(
      this,
      step.what,
      { notion: 'approx-dp', epsilon: step.epsilon, delta: step.delta },
      parts,
    );
  }
}

/**
 * What a mechanism's run needs from an accountant: reserve steps (sequential or parallel), then state
 * the claim. Runs take one so that tests can pass a recording accountant and see every reservation
 * before the first draw.
 */
export type BudgetReserver = Pick<Accountant, 'reserve' | 'reserveParallel' | 'claim'>;
