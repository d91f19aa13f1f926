import type { BudgetReserver } from '../../privacy/accountant';
import type { StageMeter } from '../../privacy/meter';
import { PrivacyMeter } from '../../privacy/meter';
import type { PrivacyClaim } from '../../privacy/types';
import type { Rng } from '../../rng/types';
import type { Schema, Table } from '../../table/types';
import { relationOf } from '../neighbouring';
import { runStagesInOneThread } from '../staged-run';
import type { AbortSignalLike } from '../../abort';
import type {
  Mechanism,
  ParamValues,
  PublicContext,
  Release,
  RunContext,
  StagedPlan,
  StagedRun,
  StageProgress,
} from '../types';
import type { DiagnosticsOf, Drawn } from './define-mechanism';
import {
  claimOf,
  planOrRefuse,
  type ClaimingAccountant,
  type DefinedMeta,
  type PlanProblems,
} from './define-meta';

/**
 * The run half of a staged mechanism's shape (README.md, "A mechanism's shape", staged runs): the
 * `StagedRun` and `run` derived from the meta's spec and a staged draw, so the stages are planned on
 * the same reservations the meta claims, and the finish returns the claim built as the meta builds it.
 */

/**
 * What a staged draw plans after the reservation: the stages (their specs carry the reserved steps'
 * `ticket()`s), the part every stage reads, the progress words and trace, and `state`, what `finish`
 * needs, kept on the planning worker (never cloned: it may hold step handles for draws in `finish`).
 */
export interface StagesOf<State, Spec, Shared> extends Omit<StagedPlan<State, Spec, Shared>, 'plan'> {
  state: State;
}

/** The run-only part of a staged mechanism. */
export interface MechanismStages<Plan, Reserved, Input, State, Spec, Result, Shared, Diagnostics> {
  /** Reads what the stages need from the table, before any reservation; refuses a table the plan does not fit. */
  read(table: Table, plan: Plan, ctx: RunContext): Input;
  /**
   * Fixes every stage after the reservation: randomness only from ctx.rng (each stage's seed too),
   * draws made here only through the metered primitives on `reserved`'s handles.
   */
  stages(input: Input, plan: Plan, reserved: Reserved, ctx: RunContext): StagesOf<State, Spec, Shared>;
  /** One stage anywhere (StagedRun.runStage): its draws on `meter.step(ticket)` of the tickets in its spec. */
  runStage(
    spec: Spec,
    rng: Rng,
    progress: StageProgress,
    signal: AbortSignalLike,
    shared: Shared,
    meter?: StageMeter,
  ): Result;
  /**
   * The release's datasets and diagnostics from the stages' results (in stage order), on the planning
   * worker; `claim` is the run's claim, already built (e.g. for a message that says what was spent).
   */
  finish(state: State, results: Result[], ctx: RunContext, claim: PrivacyClaim): Drawn<Table, Diagnostics>;
  /** Optional: the buffers a stage's result owns outright (StagedRun.transferables). */
  transferables?(result: Result): ArrayBuffer[];
}

/** What a derived staged plan keeps on the planning worker: the plan, its accountant and reservations, the draw's state. */
export interface StagedState<Plan, A, Reserved, State> {
  plan: Plan;
  accountant: A;
  reserved: Reserved;
  context: PublicContext;
  state: State;
}

/** A staged mechanism derived from its shape: `staged` for workers, `run` its stages on one thread. */
export interface DefinedStagedMechanism<
  Plan,
  A,
  Reserved,
  State,
  Spec,
  Result,
  Shared,
  Diagnostics,
> extends Mechanism {
  staged: StagedRun<StagedState<Plan, A, Reserved, State>, Spec, Result, Shared>;
  run(
    table: Table,
    schema: Schema,
    params: ParamValues,
    ctx: RunContext,
  ): Promise<Release<DiagnosticsOf<Diagnostics>>>;
}

/**
 * The staged mechanism of a meta made by defineMechanismMeta: `staged.plan` = `plan` (InputError on
 * problems) → `read` → the spec's `reserve` on the accountant the worker gives → `stages`;
 * `staged.finish` = the claim from `claimOf` with what the plan kept, then `finish`;
 * `run` = runStagesInOneThread on the spec's accountant over ctx.meter.
 *
 * The worker's accountant is an (ε, δ) `Accountant` (worker/staged-jobs.ts) and the wrapper attaches it
 * to the run's meter, so `A` must be what that accountant is for the spec's reserve.
 */
export function defineStagedMechanism<
  Plan extends PlanProblems,
  A extends ClaimingAccountant & BudgetReserver,
  Reserved,
  Input,
  State,
  Spec,
  Result,
  Shared,
  Diagnostics extends object,
>(
  meta: DefinedMeta<Plan, A, Reserved>,
  draw: MechanismStages<Plan, Reserved, Input, State, Spec, Result, Shared, Diagnostics>,
): DefinedStagedMechanism<Plan, A, Reserved, State, Spec, Result, Shared, Diagnostics> {
  const { spec } = meta;
  const staged: StagedRun<StagedState<Plan, A, Reserved, State>, Spec, Result, Shared> = {
    plan(table, schema, params, ctx, given) {
      const plan = planOrRefuse(spec, schema, params, ctx);
      const input = draw.read(table, plan, ctx);
      // The accountant the worker (or runStagesInOneThread) gives, kept for the finish's claim.
      const accountant = given as A;
      const reserved = spec.reserve(plan, accountant, ctx);
      const { state, ...stages } = draw.stages(input, plan, reserved, ctx);
      return { ...stages, plan: { plan, accountant, reserved, context: ctx, state } };
    },
    runStage: (stageSpec, rng, progress, signal, shared, meter) =>
      draw.runStage(stageSpec, rng, progress, signal, shared, meter),
    finish(kept, results, ctx) {
      const claim = claimOf(spec, kept);
      const drawn = draw.finish(kept.state, results, ctx, claim);
      return {
        datasets: drawn.datasets,
        claim,
        diagnostics: drawn.diagnostics as DiagnosticsOf<Diagnostics>,
        dataHolderDiagnostics: drawn.dataHolderDiagnostics ?? {},
      };
    },
    ...(draw.transferables === undefined ? {} : { transferables: draw.transferables }),
  };
  return {
    ...meta,
    staged,
    run: async (table, schema, params, ctx) =>
      (await runStagesInOneThread(
        staged,
        table,
        schema,
        params,
        ctx,
        spec.accountant(ctx, ctx.meter ?? new PrivacyMeter(relationOf(ctx))),
      )) as Release<DiagnosticsOf<Diagnostics>>,
  };
}
