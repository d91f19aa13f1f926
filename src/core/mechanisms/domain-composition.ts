import { Accountant, type BudgetReserver } from '../privacy/accountant';
import { withDomainSteps } from '../privacy/domain-claim';
import { checkCompleteColumns } from '../table/complete-columns';
import { PrivacyMeter, StageMeter, type StageCharge } from '../privacy/meter';
import { FailedAfterSpendingError, isSpentBudgetError } from '../privacy/spent-budget-error';
import { ZcdpAccountant } from '../privacy/zcdp-accountant';
import { InputError } from '../table/errors';
import { relationOf, relationProblems } from './neighbouring';
import type { Mechanism, MechanismMeta, RunContext, StagedRun } from './types';

/**
 * A mechanism's meta whose claim, on a schema with DP-learned facts, is composed with the steps
 * that learned them (privacy/domain-claim.ts). The catalogue applies it to every meta, so the
 * claim the studio shows before a run already states the total. Page-safe: no run code.
 */
export function composedMeta(meta: MechanismMeta): MechanismMeta {
  return {
    ...meta,
    claim: (params, context) => {
      refuseRelation(meta, context);
      return withDomainSteps(meta.claim(params, context), context.schema);
    },
    // A relation the mechanism does not support is refused first, with the reason.
    check: (schema, params, context) => {
      const refused = relationProblems(meta, schema, context);
      return refused.length > 0 ? refused : meta.check(schema, params, context);
    },
  };
}

/** Throws InputError when the context's relation cannot be used with this mechanism and schema. */
function refuseRelation(
  meta: Pick<MechanismMeta, 'id' | 'supportsNeighbouring'>,
  context: Parameters<MechanismMeta['claim']>[1],
): void {
  const problems = relationProblems(meta, context.schema, context);
  if (problems.length > 0) throw new InputError(`${meta.id} cannot run: ${problems.join(' ')}`);
}

/**
 * The context a run sees: the caller's, with the run's meter under the run's neighbouring relation (the
 * caller's own meter when it gave one, which must be under the same relation).
 */
function withMeter(ctx: RunContext): { ctx: RunContext; meter: PrivacyMeter } {
  const relation = relationOf(ctx);
  const meter = ctx.meter ?? new PrivacyMeter(relation);
  if (meter.neighbouring !== relation) {
    throw new Error(
      `the run's meter is for ${meter.neighbouring} neighbours but the run asks for ${relation}`,
    );
  }
  return { ctx: { ...ctx, meter, neighbouring: relation }, meter };
}

/**
 * The mechanism with its run (its run in blocks, its staged finish) returning the composed claim, and the composed
 * meta's fields, so `claim` before the run and the run's claim agree (the registry applies it to
 * every mechanism with the catalogue's meta). Composition is idempotent: a claim already composed
 * is left as it is, so a staged run finished through `run` is composed once.
 *
 * Every release path goes through here (the studio's worker, the CLI, staged runs over workers, row
 * blocks), so this is where claim = spend is checked: each run gets a privacy meter in `ctx.meter`,
 * and the meter is settled before the release is returned, for every mechanism: every planned
 * step charged exactly its cost and the claim's steps the planned ones, or a MeterMismatchError
 * (a SpentBudgetError: ledgers count the budget) and nothing is released.
 */
export function composedMechanism(mechanism: Mechanism, meta: MechanismMeta): Mechanism {
  const staged = mechanism.staged === undefined ? undefined : composedStaged(mechanism.staged, mechanism);
  return {
    ...mechanism,
    ...meta,
    run: async (table, schema, params, given) => {
      // A missing value in a column the schema declares complete: refused before any draw.
      checkCompleteColumns(table, schema);
      refuseRelation(mechanism, given);
      const { ctx, meter } = withMeter(given);
      const release = await spending(meter, () => mechanism.run(table, schema, params, ctx));
      meter.settle(release.claim.steps);
      return { ...release, claim: withDomainSteps(release.claim, schema) };
    },
    ...(mechanism.runInBlocks === undefined
      ? {}
      : {
          runInBlocks: async (table, schema, params, given, options) => {
            checkCompleteColumns(table, schema);
            refuseRelation(mechanism, given);
            const { ctx, meter } = withMeter(given);
            const release = await spending(meter, () =>
              mechanism.runInBlocks!(table, schema, params, ctx, options),
            );
            meter.settle(release.claim.steps);
            return { ...release, claim: withDomainSteps(release.claim, schema) };
          },
        }),
    ...(staged === undefined ? {} : { staged }),
  };
}

/**
 * The run, with any failure after its first metered draw turned into a FailedAfterSpendingError (a
 * SpentBudgetError: ledgers count the budget, since noise was drawn on the data) unless it already is
 * one or is a cancel. A failure before any draw spent nothing and passes unchanged.
 */
export async function spending<T>(meter: PrivacyMeter, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    const drew = meter.steps().some((step) => step.charges() > 0);
    const name = (error as Error | undefined)?.name;
    if (!drew || name === 'AbortError' || isSpentBudgetError(error)) throw error;
    throw new FailedAfterSpendingError(
      `The run failed after drawing noise on the data, so its budget counts as spent and nothing is ` +
        `released: ${(error as Error | undefined)?.message ?? String(error)}`,
    );
  }
}

/** A stage's result as a metered staged run hands it back: the mechanism's result and the stage's charges. */
export interface MeteredStageResult {
  result: unknown;
  charges: StageCharge[];
}

/** The run's meter of each staged run in progress, keyed by the accountant plan and finish share. */
const stagedMeters = new WeakMap<object, PrivacyMeter>();

function composedStaged(
  staged: StagedRun,
  meta: Pick<MechanismMeta, 'id' | 'supportsNeighbouring'>,
): StagedRun {
  return {
    ...staged,
    plan: (table, schema, params, given, accountant) => {
      // A missing value in a column the schema declares complete: refused before any draw, as in run.
      checkCompleteColumns(table, schema);
      refuseRelation(meta, given);
      const meter = given.meter ?? meterOf(accountant) ?? new PrivacyMeter(relationOf(given));
      if (accountant instanceof Accountant || accountant instanceof ZcdpAccountant)
        accountant.attachMeter(meter);
      stagedMeters.set(accountant, meter);
      return staged.plan(table, schema, params, { ...given, meter }, accountant);
    },
    runStage: (spec, rng, progress, signal, shared) => {
      const stageMeter = new StageMeter();
      const result = staged.runStage(spec, rng, progress, signal, shared, stageMeter);
      return { result, charges: stageMeter.charges() } satisfies MeteredStageResult;
    },
    ...(staged.transferables === undefined
      ? {}
      : { transferables: (wrapped) => staged.transferables!((wrapped as MeteredStageResult).result) }),
    finish: (plan, results, given, accountant) => {
      const meter = stagedMeters.get(accountant);
      if (meter === undefined)
        throw new Error('This staged run was not planned through the registry; plan it again.');
      stagedMeters.delete(accountant);
      const stageResults = results as MeteredStageResult[];
      for (const stage of stageResults) meter.absorb(stage.charges);
      const release = staged.finish(
        plan,
        stageResults.map((stage) => stage.result),
        { ...given, meter },
        accountant,
      );
      meter.settle(release.claim.steps);
      return { ...release, claim: withDomainSteps(release.claim, given.schema) };
    },
  };
}

function meterOf(accountant: BudgetReserver): PrivacyMeter | undefined {
  return accountant instanceof Accountant || accountant instanceof ZcdpAccountant
    ? accountant.meter
    : undefined;
}
