import { PrivacyMeter } from '../../privacy/meter';
import type { Schema, Table } from '../../table/types';
import { rowBlocks, WHOLE_TABLES, type DatasetForm, type ReleaseOf } from '../common/rows/dataset-form';
import { relationOf } from '../neighbouring';
import { blockRowsOf } from '../release-blocks';
import type { Mechanism, ParamValues, Release, ReleaseInBlocks, RunContext } from '../types';
import {
  claimOf,
  planOrRefuse,
  type ClaimingAccountant,
  type DefinedMeta,
  type PlanProblems,
} from './define-meta';

/**
 * The run half of a mechanism's shape (README.md, "A mechanism's shape"): `run` and `runInBlocks`
 * derived from the meta's spec and a `draw`, so a run reserves and claims exactly as the meta does.
 */

/** What a draw makes: the datasets in the run's form and the diagnostics. */
export interface Drawn<D, Diagnostics> {
  datasets: D[];
  /** Public diagnostics (Release.diagnostics). */
  diagnostics: Diagnostics;
  /** Diagnostics from the real data, for the data holder only (absent: none). */
  dataHolderDiagnostics?: Record<string, unknown>;
}

/**
 * The run-only part of a mechanism: what it reads from the table and how it draws. `Input` is what
 * the draw reads: the table itself, or (for a mechanism that reads counts only) the counts `read`
 * takes from it, which a count source can give instead (`drawFrom`).
 */
export interface MechanismDraw<Plan, Reserved, Input, Diagnostics> {
  /** Reads the draw's input from the table (counts, say), before any reservation; refuses a table the plan does not fit. */
  read(table: Table, plan: Plan, ctx: RunContext): Input;
  /**
   * Draws the release from the input with the reserved steps: noise only through the metered
   * primitives on the steps' handles, randomness only from ctx.rng, datasets through `form`.
   */
  draw<D>(
    input: Input,
    plan: Plan,
    reserved: Reserved,
    ctx: RunContext,
    form: DatasetForm<D>,
  ): Promise<Drawn<D, Diagnostics>>;
}

/**
 * A mechanism's diagnostics type as its release carries it: still the plain record that callers taking
 * any mechanism read (an interface has no index signature of its own).
 */
export type DiagnosticsOf<Diagnostics> = Diagnostics & Record<string, unknown>;

/** A mechanism derived from its shape, with the run on an input already read (a count source's counts). */
export interface DefinedMechanism<A, Input, Diagnostics> extends Mechanism {
  run(
    table: Table,
    schema: Schema,
    params: ParamValues,
    ctx: RunContext,
  ): Promise<Release<DiagnosticsOf<Diagnostics>>>;
  runInBlocks(
    table: Table,
    schema: Schema,
    params: ParamValues,
    ctx: RunContext,
    options?: { blockRows?: number },
  ): Promise<ReleaseInBlocks<DiagnosticsOf<Diagnostics>>>;
  /**
   * plan (InputError on problems) → the accountant (`accountant`, or the spec's on ctx.meter) →
   * reserve → draw → the claim built as the meta builds it.
   */
  drawFrom<D>(
    input: Input,
    schema: Schema,
    params: ParamValues,
    ctx: RunContext,
    form: DatasetForm<D>,
    accountant?: A,
  ): Promise<ReleaseOf<D, DiagnosticsOf<Diagnostics>>>;
  /** The run on a table in the given form, optionally on a given accountant (tests record its reservations). */
  drawFromTable<D>(
    table: Table,
    schema: Schema,
    params: ParamValues,
    ctx: RunContext,
    form: DatasetForm<D>,
    accountant?: A,
  ): Promise<ReleaseOf<D, DiagnosticsOf<Diagnostics>>>;
}

/**
 * The mechanism of a meta made by defineMechanismMeta and its draw: `run` gives whole tables,
 * `runInBlocks` row blocks, both `read` → plan → reserve → `draw` → claim, in that order.
 */
export function defineMechanism<
  Plan extends PlanProblems,
  A extends ClaimingAccountant,
  Reserved,
  Input,
  Diagnostics extends object,
>(
  meta: DefinedMeta<Plan, A, Reserved>,
  run: MechanismDraw<Plan, Reserved, Input, Diagnostics>,
): DefinedMechanism<A, Input, Diagnostics> {
  const { spec } = meta;
  const release = async <D>(
    plan: Plan,
    input: Input,
    ctx: RunContext,
    form: DatasetForm<D>,
    given?: A,
  ): Promise<ReleaseOf<D, DiagnosticsOf<Diagnostics>>> => {
    const accountant = given ?? spec.accountant(ctx, ctx.meter ?? new PrivacyMeter(relationOf(ctx)));
    const reserved = spec.reserve(plan, accountant, ctx);
    const drawn = await run.draw(input, plan, reserved, ctx, form);
    return {
      datasets: drawn.datasets,
      claim: claimOf(spec, { plan, accountant, reserved, context: ctx }),
      // Widened to the plain record every caller reads; the object is the draw's own.
      diagnostics: drawn.diagnostics as DiagnosticsOf<Diagnostics>,
      dataHolderDiagnostics: drawn.dataHolderDiagnostics ?? {},
    };
  };
  const drawFromTable = async <D>(
    table: Table,
    schema: Schema,
    params: ParamValues,
    ctx: RunContext,
    form: DatasetForm<D>,
    accountant?: A,
  ) => {
    const plan = planOrRefuse(spec, schema, params, ctx);
    return release(plan, run.read(table, plan, ctx), ctx, form, accountant);
  };
  return {
    ...meta,
    drawFrom: async (input, schema, params, ctx, form, accountant) =>
      release(planOrRefuse(spec, schema, params, ctx), input, ctx, form, accountant),
    drawFromTable,
    run: (table, schema, params, ctx) => drawFromTable(table, schema, params, ctx, WHOLE_TABLES),
    runInBlocks: (table, schema, params, ctx, options) =>
      drawFromTable(table, schema, params, ctx, rowBlocks(blockRowsOf(options))),
  };
}
