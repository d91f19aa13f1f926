import { parseBudget } from '../../privacy/budget';
import { PrivacyMeter } from '../../privacy/meter';
import type { PrivacyClaim, UnprovenBound } from '../../privacy/types';
import { InputError } from '../../table/errors';
import type { Schema } from '../../table/types';
import { relationOf, relationProblems, supportedRelations } from '../neighbouring';
import type { MechanismMeta, ParamValues, PublicContext } from '../types';

/**
 * A mechanism's shape is `plan → reserve → draw` (README.md, "A mechanism's shape"). This module is
 * the page-safe half: from a spec's plan and reservations it derives `check`, `claim` and `describe`,
 * so it imports no run code. `define-mechanism.ts` derives `run` and `runInBlocks` from the same spec.
 */

/** What every plan carries: why the mechanism cannot run with these settings ([] when it can). */
export interface PlanProblems {
  readonly problems: readonly string[];
}

/** The accountant a plan reserves on: (ε, δ) (`Accountant`) or zCDP (`ZcdpAccountant`). */
export interface ClaimingAccountant {
  readonly meter: PrivacyMeter;
  claim(assumptions: string[], unproven?: UnprovenBound): PrivacyClaim;
}

/** The catalogue fields of a meta: everything but what the spec derives. */
export type MetaFields = Omit<MechanismMeta, 'check' | 'claim' | 'describe'>;

/**
 * A mechanism's plan and budget, from public facts only. `Plan` is what the settings fix before any
 * data is read (the domain, the problems); `A` the accountant; `Reserved` what `reserve` returns
 * (the steps' handles and shares), handed to the draw.
 */
export interface MechanismSpec<
  Plan extends PlanProblems,
  A extends ClaimingAccountant,
  Reserved,
> extends MetaFields {
  /** The plan from the schema, the parameters and public facts; `context` is absent while editing. */
  plan(schema: Schema, params: ParamValues, context?: PublicContext): Plan;
  /** The accountant for the context's budget, registering its steps on `meter`. */
  accountant(context: PublicContext, meter: PrivacyMeter): A;
  /** Reserves every step of the plan, in order; the claim shown and the run's both come from this. */
  reserve(plan: Plan, accountant: A, context: PublicContext): Reserved;
  /** The claim's assumption sentences (start with standardAssumptions). */
  assumptions(plan: Plan, context: PublicContext): string[];
  /** Optional: why the bound is not proven for this plan (absent: proven). */
  unproven?(plan: Plan, context: PublicContext): UnprovenBound | undefined;
  /** Optional: the accountant's claim completed (e.g. with what it implies under the other relation). */
  finishClaim?(claim: PrivacyClaim, planned: Planned<Plan, A, Reserved>): PrivacyClaim;
  /** Optional: public sentences on the configured model (MechanismMeta.describe). */
  describe?(plan: Plan, context: PublicContext): string[];
}

/** A plan with its accountant and reservations, as claim builders see it. */
export interface Planned<Plan, A, Reserved> {
  plan: Plan;
  accountant: A;
  reserved: Reserved;
  context: PublicContext;
}

/** A meta derived from a spec; it keeps the spec so `defineMechanism` derives the run from the same one. */
export interface DefinedMeta<
  Plan extends PlanProblems,
  A extends ClaimingAccountant,
  Reserved,
> extends MechanismMeta {
  readonly spec: MechanismSpec<Plan, A, Reserved>;
}

/** The spec's plan, or an InputError naming the mechanism and every problem when it cannot run. */
export function planOrRefuse<Plan extends PlanProblems>(
  spec: Pick<MechanismSpec<Plan, ClaimingAccountant, unknown>, 'id' | 'plan'>,
  schema: Schema,
  params: ParamValues,
  context: PublicContext,
): Plan {
  const plan = spec.plan(schema, params, context);
  if (plan.problems.length > 0) throw new InputError(`${spec.id} cannot run: ${plan.problems.join(' ')}`);
  return plan;
}

/**
 * The claim of a plan whose steps `accountant` reserved: the accountant's claim (every number rounded
 * up) with the spec's assumptions, then `finishClaim`. The meta's claim and the run's are both this.
 */
export function claimOf<Plan extends PlanProblems, A extends ClaimingAccountant, Reserved>(
  spec: MechanismSpec<Plan, A, Reserved>,
  planned: Planned<Plan, A, Reserved>,
): PrivacyClaim {
  const { plan, accountant, context } = planned;
  const claim = accountant.claim(spec.assumptions(plan, context), spec.unproven?.(plan, context));
  return spec.finishClaim ? spec.finishClaim(claim, planned) : claim;
}

/** Why the context's budget cannot be read (ε, δ), as sentences; [] when it can or there is no context. */
export function budgetProblems(context?: Pick<PublicContext, 'epsilon' | 'delta'>): string[] {
  if (context === undefined) return [];
  try {
    parseBudget(context.epsilon, context.delta);
    return [];
  } catch (error) {
    return [`${(error as Error).message}.`];
  }
}

/** The fields a spec has and a meta does not. */
const SPEC_ONLY = ['plan', 'accountant', 'reserve', 'assumptions', 'unproven', 'finishClaim', 'describe'];

/** The spec's catalogue fields (id, label, params, fit, …): the spec less what only it has. */
function catalogueFields(spec: object): MetaFields {
  const fields: Record<string, unknown> = { ...spec };
  for (const key of SPEC_ONLY) delete fields[key];
  return fields as unknown as MetaFields;
}

/**
 * The meta of a spec: `check` = the relation's problems, the plan's and the budget's; `claim` = the
 * plan reserved on a fresh accountant over a dry meter, then `claimOf` (as the run does after refusing
 * a plan with problems); `describe` from the plan.
 */
export function defineMechanismMeta<Plan extends PlanProblems, A extends ClaimingAccountant, Reserved>(
  spec: MechanismSpec<Plan, A, Reserved>,
): DefinedMeta<Plan, A, Reserved> {
  return {
    ...catalogueFields(spec),
    spec,
    check: (schema, params, context) => [
      ...relationProblems(spec, schema, context),
      ...spec.plan(schema, params, context).problems,
      ...budgetProblems(context),
    ],
    // A plan with problems is still claimed (check says why it cannot run; a reserve that cannot
    // plan throws), so the page shows the check's sentences; the run refuses it (planOrRefuse).
    // Under a relation the mechanism does not support (check refuses the run), the claim shown is the
    // one its sensitivities hold for, under its first supported relation, never a label they do not back.
    claim: (params, given) => {
      const context = claimContext(spec, given);
      const plan = spec.plan(context.schema, params, context);
      const accountant = spec.accountant(context, new PrivacyMeter(relationOf(context)));
      const reserved = spec.reserve(plan, accountant, context);
      return claimOf(spec, { plan, accountant, reserved, context });
    },
    ...(spec.describe === undefined
      ? {}
      : {
          describe: (params, context) => spec.describe!(spec.plan(context.schema, params, context), context),
        }),
  };
}

/** The context a claim is built in: the given one, with its relation replaced by the mechanism's first supported one when it supports not the given. */
function claimContext(
  meta: Pick<MechanismMeta, 'supportsNeighbouring'>,
  context: PublicContext,
): PublicContext {
  const supported = supportedRelations(meta);
  return supported.includes(relationOf(context)) ? context : { ...context, neighbouring: supported[0] };
}
