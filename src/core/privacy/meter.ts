import { Rational } from '../rng/rational';
import { formatRational } from './format-rational';
import type { Neighbouring } from './query-sensitivity';
import { roundUpRational } from './round-up';
import { METER_MISMATCH_ERROR_NAME, SpentBudgetError } from './spent-budget-error';
import type { ClaimStep } from './types';

/**
 * The cost of one step, exact: (ε, δ) for steps of an `Accountant`, ρ for steps of a `ZcdpAccountant`.
 * A step's planned cost and what is charged to it are always of the same notion.
 */
export type StepCost =
  { notion: 'approx-dp'; epsilon: Rational; delta: Rational } | { notion: 'zcdp'; rho: Rational };

/** What a step handle carries across a worker boundary (structured-cloneable): see {@link StageMeter}. */
export interface StepTicket {
  id: number;
  what: string;
  notion: StepCost['notion'];
  neighbouring: Neighbouring;
  /** The part of a by-position parallel step the charges go to (see {@link MeterStep.part}). */
  part?: number;
  /**
   * The step's (or part's) planned cost, [ε, δ] or [ρ] as "num/den": a stage refuses a charge past it
   * before the draw, as the run's own meter does.
   */
  planned?: string[];
}

/**
 * What a metered primitive (privacy/metered/) needs of a step: its notion and the run's neighbouring
 * relation, to compute its own cost, and `charge` to record it. Mechanisms hold these handles (from
 * `reserve` or `reserveParallel`, or `StageMeter.step` in a stage) and pass them on; they never
 * charge by hand.
 */
export interface ChargeableStep {
  readonly id: number;
  readonly what: string;
  readonly notion: StepCost['notion'];
  readonly neighbouring: Neighbouring;
  /** Records a cost computed by a metered primitive before it draws. */
  charge(cost: StepCost): void;
}

/**
 * The largest of costs of one notion, coordinate by coordinate: what a by-position parallel step costs
 * (one replaced row lies in one part only).
 */
function largestCost(notion: StepCost['notion'], costs: readonly StepCost[]): StepCost {
  return costs.reduce<StepCost>((best, cost) => {
    if (best.notion === 'zcdp' && cost.notion === 'zcdp') {
      return cost.rho.compare(best.rho) > 0 ? cost : best;
    }
    if (best.notion === 'approx-dp' && cost.notion === 'approx-dp') {
      return {
        notion: 'approx-dp',
        epsilon: cost.epsilon.compare(best.epsilon) > 0 ? cost.epsilon : best.epsilon,
        delta: cost.delta.compare(best.delta) > 0 ? cost.delta : best.delta,
      };
    }
    throw new RangeError(`a ${cost.notion} part cannot belong to a ${best.notion} step`);
  }, zeroOf(notion));
}

/**
 * A run's charges do not match its claim: a step was charged more or less than planned (a skipped or
 * extra draw, noise at another scale), or the claim lists other steps than the meter planned. Nothing
 * is released. A SpentBudgetError, so the CLI's --ledger and the studio's ledger count the budget, but
 * an internal error (the code, not the input, is wrong): the CLI exits with status 1.
 */
export class MeterMismatchError extends SpentBudgetError {
  constructor(message: string) {
    super(message);
    this.name = METER_MISMATCH_ERROR_NAME;
  }
}

const ZERO_APPROX: StepCost = { notion: 'approx-dp', epsilon: Rational.ZERO, delta: Rational.ZERO };
const ZERO_ZCDP: StepCost = { notion: 'zcdp', rho: Rational.ZERO };

function zeroOf(notion: StepCost['notion']): StepCost {
  return notion === 'zcdp' ? ZERO_ZCDP : ZERO_APPROX;
}

function addCost(a: StepCost, b: StepCost): StepCost {
  if (a.notion === 'zcdp' && b.notion === 'zcdp') return { notion: 'zcdp', rho: a.rho.add(b.rho) };
  if (a.notion === 'approx-dp' && b.notion === 'approx-dp') {
    return { notion: 'approx-dp', epsilon: a.epsilon.add(b.epsilon), delta: a.delta.add(b.delta) };
  }
  throw new RangeError(`a ${b.notion} cost cannot be charged to a ${a.notion} step`);
}

/** -1, 0 or 1 when a is below, equal to or above b in every coordinate; null when neither holds. */
function compareCost(a: StepCost, b: StepCost): -1 | 0 | 1 | null {
  if (a.notion === 'zcdp' && b.notion === 'zcdp') return a.rho.compare(b.rho);
  if (a.notion === 'approx-dp' && b.notion === 'approx-dp') {
    const e = a.epsilon.compare(b.epsilon);
    const d = a.delta.compare(b.delta);
    if (e === d) return e;
    if (e === 0) return d;
    if (d === 0) return e;
    return null;
  }
  return null;
}

/** A cost in words, exact: "ρ = 1/12" or "ε = 1/2, δ = 0". */
export function costInWords(cost: StepCost): string {
  return cost.notion === 'zcdp'
    ? `ρ = ${formatRational(cost.rho)}`
    : `ε = ${formatRational(cost.epsilon)}, δ = ${formatRational(cost.delta)}`;
}

/** One planned step of a run and what has been charged to it: the handle `reserve` returns. */
export class MeterStep implements ChargeableStep {
  private chargedCost: StepCost;
  private draws = 0;
  private readonly partSteps: MeterStep[];

  /**
   * `parts`: the planned costs of the parts of a by-position parallel step (rows split by a rule that
   * ignores their values, so one replaced row lies in one part): each part is charged through its own
   * handle ({@link part}) and settles on its own; the step's cost is their largest.
   */
  constructor(
    readonly id: number,
    readonly what: string,
    readonly planned: StepCost,
    readonly neighbouring: Neighbouring,
    private readonly onOvercharge: (step: MeterStep, attempted: StepCost) => never,
    parts: readonly StepCost[] = [],
    readonly partIndex?: number,
  ) {
    this.chargedCost = zeroOf(planned.notion);
    this.partSteps = parts.map(
      (cost, i) => new MeterStep(id, `${what}, part ${i + 1}`, cost, neighbouring, onOvercharge, [], i),
    );
    if (parts.length > 0) {
      const composed = largestCost(planned.notion, parts);
      if (compareCost(composed, planned) !== 0) {
        throw new RangeError(`"${what}": the parts' largest cost is not the step's planned cost`);
      }
    }
  }

  /** The first part of a by-position parallel step whose charges differ from its plan (for messages). */
  unsettledPart(): MeterStep | undefined {
    return this.partSteps.find((p) => !p.settled());
  }

  /** The handle of part `index` of a by-position parallel step; the metered primitives charge it. */
  part(index: number): MeterStep {
    const part = this.partSteps[index];
    if (part === undefined) throw new RangeError(`"${this.what}" has no part ${index + 1}`);
    return part;
  }

  get notion(): StepCost['notion'] {
    return this.planned.notion;
  }

  /** What was charged so far, exact (for a step in parts: the largest of the parts' charges). */
  charged(): StepCost {
    if (this.partSteps.length > 0) {
      return largestCost(
        this.planned.notion,
        this.partSteps.map((p) => p.charged()),
      );
    }
    return this.chargedCost;
  }

  /** How many charges (metered draws or selections) the step received (all its parts together). */
  charges(): number {
    return this.draws + this.partSteps.reduce((sum, p) => sum + p.charges(), 0);
  }

  /**
   * Adds a cost computed by a metered primitive. Throws MeterMismatchError, charging nothing, when
   * the total would pass the planned cost: the primitive charges before it draws, so that draw never
   * happens.
   */
  charge(cost: StepCost): void {
    if (this.partSteps.length > 0) {
      throw new RangeError(`"${this.what}" is planned in parts: charge each part through its handle`);
    }
    const total = addCost(this.chargedCost, cost);
    const against = compareCost(total, this.planned);
    if (against === null || against > 0) this.onOvercharge(this, total);
    this.chargedCost = total;
    this.draws += 1;
  }

  /** True when what was charged equals the plan exactly (every part its own plan, for a step in parts). */
  settled(): boolean {
    if (this.partSteps.length > 0) return this.partSteps.every((p) => p.settled());
    return compareCost(this.chargedCost, this.planned) === 0;
  }

  /** The handle's structured-cloneable form, for a stage that runs in another worker. */
  ticket(): StepTicket {
    const ticket: StepTicket = {
      id: this.id,
      what: this.what,
      notion: this.notion,
      neighbouring: this.neighbouring,
    };
    if (this.partIndex !== undefined) ticket.part = this.partIndex;
    ticket.planned = valuesOfCost(this.planned);
    return ticket;
  }
}

/** One charge made in a stage, structured-cloneable (numerators and denominators as decimal strings). */
export interface StageCharge {
  step: number;
  /** The part of a by-position parallel step, when the charge went to one. */
  part?: number;
  notion: StepCost['notion'];
  /** [ε, δ] or [ρ], each "num/den". */
  values: string[];
}

function rationalOfText(text: string): Rational {
  const [num, den] = text.split('/');
  return Rational.of(BigInt(num!), BigInt(den ?? '1'));
}

function textOfRational(r: Rational): string {
  return `${r.num}/${r.den}`;
}

/** A cost as the structured-cloneable texts of a StageCharge or a ticket's plan. */
function valuesOfCost(cost: StepCost): string[] {
  return cost.notion === 'zcdp'
    ? [textOfRational(cost.rho)]
    : [textOfRational(cost.epsilon), textOfRational(cost.delta)];
}

/** The cost of a StageCharge's or a ticket's texts. */
function costOfValues(notion: StepCost['notion'], values: readonly string[]): StepCost {
  const exact = values.map(rationalOfText);
  return notion === 'zcdp'
    ? { notion: 'zcdp', rho: exact[0]! }
    : { notion: 'approx-dp', epsilon: exact[0]!, delta: exact[1]! };
}

/**
 * A run's privacy meter: the steps it PLANNED (the accountants attached to it register each
 * reservation here, so the claim's steps and the meter's are one list) and what the metered
 * primitives CHARGED to each. When the run ends, `settle` checks that every step was charged exactly
 * its planned cost (Rational equality): less means a draw was skipped, more that noise was drawn at
 * another scale; either way nothing is released (MeterMismatchError).
 */
export class PrivacyMeter {
  private readonly planned: { step: MeterStep; owner: object }[] = [];

  constructor(readonly neighbouring: Neighbouring = 'replace-one') {}

  /**
   * Registers a planned step for `owner` (the accountant that reserved it) and returns its handle.
   * Accountants call this from `reserve`; mechanisms do not.
   */
  plan(owner: object, what: string, cost: StepCost, parts: readonly StepCost[] = []): MeterStep {
    const step = new MeterStep(
      this.planned.length,
      what,
      cost,
      this.neighbouring,
      (s, attempted) => {
        throw new MeterMismatchError(
          `Privacy meter: step ${s.id + 1} ("${s.what}") would be charged ${costInWords(attempted)}, more than its ` +
            `planned ${costInWords(s.planned)}; nothing is released. The run’s noise does not match its claim.`,
        );
      },
      parts,
    );
    this.planned.push({ step, owner });
    return step;
  }

  /** Every planned step in order. */
  steps(): readonly MeterStep[] {
    return this.planned.map((p) => p.step);
  }

  /** The steps `owner` planned, in order (an accountant's own list). */
  stepsOf(owner: object): MeterStep[] {
    return this.planned.filter((p) => p.owner === owner).map((p) => p.step);
  }

  /** Adds the charges a stage made (StageMeter.charges), e.g. after it ran in another worker. */
  absorb(charges: readonly StageCharge[]): void {
    for (const charge of charges) {
      const step = this.planned[charge.step]?.step;
      if (step === undefined) {
        throw new MeterMismatchError(
          `Privacy meter: a stage charged step ${charge.step + 1}, which was never planned.`,
        );
      }
      const target = charge.part === undefined ? step : step.part(charge.part);
      target.charge(costOfValues(charge.notion, charge.values));
    }
  }

  /**
   * The check made when a run ends, before anything is released: the claim's steps are the planned
   * steps (same count, same words, same rounded cost), and each step was charged exactly its planned
   * cost. Throws MeterMismatchError naming the first step that differs, with planned and charged.
   */
  settle(claimSteps?: readonly ClaimStep[]): void {
    const steps = this.steps();
    if (claimSteps !== undefined) checkClaimSteps(steps, claimSteps);
    for (const whole of steps) {
      const step = whole.unsettledPart() ?? whole;
      if (step.settled()) continue;
      throw new MeterMismatchError(
        `Privacy meter: step ${step.id + 1} ("${step.what}") was planned at ${costInWords(step.planned)} but ` +
          `charged ${costInWords(step.charged())} in ${step.charges()} draw${step.charges() === 1 ? '' : 's'}; ` +
          'nothing is released. The run’s noise does not match its claim.',
      );
    }
  }
}

function checkClaimSteps(steps: readonly MeterStep[], claimSteps: readonly ClaimStep[]): void {
  const mismatch = (why: string): never => {
    throw new MeterMismatchError(
      `Privacy meter: the claim does not list the planned steps (${why}); nothing is released.`,
    );
  };
  if (steps.length !== claimSteps.length) {
    mismatch(`${claimSteps.length} claimed, ${steps.length} planned`);
  }
  steps.forEach((step, i) => {
    const claimed = claimSteps[i]!;
    if (claimed.what !== step.what)
      mismatch(`step ${i + 1} is "${claimed.what}" in the claim, "${step.what}" planned`);
    const planned = step.planned;
    const same =
      planned.notion === 'zcdp'
        ? claimed.rho === roundUpRational(planned.rho)
        : claimed.epsilon === roundUpRational(planned.epsilon) &&
          (claimed.delta ?? 0) === roundUpRational(planned.delta);
    if (!same)
      mismatch(`step ${i + 1} ("${step.what}") states another cost than its planned ${costInWords(planned)}`);
  });
}

/**
 * The meter of one stage of a staged run, which may run in another worker: `step(ticket)` gives a
 * handle for a step the plan reserved (its ticket travels in the stage's spec), the metered primitives
 * charge it, and `charges()` (structured-cloneable) goes back with the stage's result, where
 * `PrivacyMeter.absorb` adds them to the run's meter before it settles.
 */
export class StageMeter {
  private readonly recorded: StageCharge[] = [];

  step(ticket: StepTicket): ChargeableStep {
    const recorded = this.recorded;
    // Within this stage, the step's charges so far and its plan: a charge past the plan is refused
    // before the primitive draws, as on the run's own meter (the run's settle also checks the sum
    // over all stages).
    let chargedHere = zeroOf(ticket.notion);
    const planned = ticket.planned === undefined ? undefined : costOfValues(ticket.notion, ticket.planned);
    return {
      id: ticket.id,
      what: ticket.what,
      notion: ticket.notion,
      neighbouring: ticket.neighbouring,
      charge(cost: StepCost): void {
        if (cost.notion !== ticket.notion) {
          throw new RangeError(`a ${cost.notion} cost cannot be charged to a ${ticket.notion} step`);
        }
        const total = addCost(chargedHere, cost);
        if (planned !== undefined) {
          const against = compareCost(total, planned);
          if (against === null || against > 0) {
            throw new MeterMismatchError(
              `Privacy meter: step ${ticket.id + 1} ("${ticket.what}") would be charged ${costInWords(total)} in ` +
                `one stage, more than its planned ${costInWords(planned)}; nothing is released. The run’s ` +
                'noise does not match its claim.',
            );
          }
        }
        chargedHere = total;
        recorded.push({
          step: ticket.id,
          ...(ticket.part === undefined ? {} : { part: ticket.part }),
          notion: cost.notion,
          values: valuesOfCost(cost),
        });
      },
    };
  }

  charges(): StageCharge[] {
    return this.recorded.map((c) => ({ ...c, values: [...c.values] }));
  }
}
