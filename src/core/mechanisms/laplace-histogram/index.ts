import { Accountant, type BudgetReserver } from '../../privacy/accountant';
import { parseBudget } from '../../privacy/budget';
import type { Schema, Table } from '../../table/types';
import { throwIfAborted } from '../../abort';
import { levelsPerColumn, refuseUnplannedRun } from '../common/binned-mechanism';
import {
  datasetFromCells,
  rowBlocks,
  WHOLE_TABLES,
  type DatasetForm,
  type ReleaseOf,
} from '../common/dataset-form';
import { drawCellsForRows } from '../common/draw-rows';
import { laplaceScaleFor, repairUpper } from '../common/noisy-cell-counts';
import { meteredNoisyPositiveCells } from '../../privacy/metered/noisy-positive-cells';
import { countInMemory } from '../../counts/memory-count-source';
import type { CountQueryPlan, PlannedCounts } from '../../counts/count-source';
import { InputError } from '../../table/errors';
import { blockRowsOf } from '../release-blocks';
import type { Mechanism, ParamValues, PublicContext, Release, RunContext } from '../types';
import { PrivacyMeter } from '../../privacy/meter';
import { binningRows, relationOf } from '../neighbouring';
import { rowsFromNoisySum } from '../common/noisy-row-count';
import { histogramClaim } from '../common/histogram-claim';
import {
  LAPLACE_HISTOGRAM_ID,
  laplaceHistogramAssumptions,
  laplaceHistogramRelationProblems,
  laplaceHistogramMeta,
  planLaplaceHistogramDomain,
  reserveReleaseBudgets,
} from './meta';
import { laplaceHistogramSettings } from './params';

export { CROSS_TABULATION_SENSITIVITY_REPLACE_ONE, countNoiseScale } from '../common/noisy-cell-counts';

/** The cross-tabulation's cells are a partition of the rows fixed by the schema: its counts are this query. */
const PARTITION = { kind: 'partition-counts' } as const;

/**
 * The run with the accountant made explicit. Order per the plug-in contract: validate, reserve the
 * whole budget, then touch ctx.rng. For each release: noise on every cell of the domain, repair,
 * draw n cells in proportion to the positive noisy counts, decode cells to values.
 */
export async function runLaplaceHistogram(
  table: Table,
  schema: Schema,
  params: ParamValues,
  ctx: RunContext,
  accountant: BudgetReserver = new Accountant(
    parseBudget(ctx.epsilon, ctx.delta),
    ctx.meter ?? new PrivacyMeter(relationOf(ctx)),
  ),
): Promise<Release> {
  return drawLaplaceHistogram(table, schema, params, ctx, accountant, WHOLE_TABLES);
}

/** The run with its datasets in the given form (whole tables, or row blocks decoded when read). */
export async function drawLaplaceHistogram<D>(
  table: Table,
  schema: Schema,
  params: ParamValues,
  ctx: RunContext,
  accountant: BudgetReserver,
  form: DatasetForm<D>,
): Promise<ReleaseOf<D>> {
  const domain = planLaplaceHistogramDomain(schema, params, binningRows(ctx));
  refuseUnplannedRun(LAPLACE_HISTOGRAM_ID, domain, table, ctx);
  const counts = countInMemory(table, laplaceHistogramCountPlan(schema, params, ctx));
  return drawLaplaceHistogramFromCounts(counts, schema, params, ctx, accountant, form);
}

/**
 * The counts the run reads: the full cross-tabulation of the binned domain, fixed by the schema, the
 * parameters and n before any data is read (count-source.ts).
 */
export function laplaceHistogramCountPlan(
  schema: Schema,
  params: ParamValues,
  context: PublicContext,
): CountQueryPlan {
  const domain = planLaplaceHistogramDomain(schema, params, binningRows(context));
  if (domain.problems.length > 0) {
    throw new InputError(`${LAPLACE_HISTOGRAM_ID} cannot run: ${domain.problems.join(' ')}`);
  }
  return { codings: domain.codings, cells: true, marginals: [] };
}

/** The run on exact counts from any count source (in memory, an SQL engine, files of query results). */
export async function drawLaplaceHistogramFromCounts<D>(
  planned: PlannedCounts,
  schema: Schema,
  params: ParamValues,
  ctx: RunContext,
  accountant: BudgetReserver,
  form: DatasetForm<D>,
): Promise<ReleaseOf<D>> {
  const settings = laplaceHistogramSettings(params);
  const domain = planLaplaceHistogramDomain(schema, params, binningRows(ctx));
  const problems = [...domain.problems, ...laplaceHistogramRelationProblems(params, ctx)];
  if (problems.length > 0) {
    throw new InputError(`${LAPLACE_HISTOGRAM_ID} cannot run: ${problems.join(' ')}`);
  }
  if (planned.n !== ctx.n || planned.cells === undefined) {
    throw new Error(
      `${LAPLACE_HISTOGRAM_ID}: the counts are for ${planned.n} rows but the context says n = ${ctx.n}.`,
    );
  }
  const budget = parseBudget(ctx.epsilon, ctx.delta);
  const perRelease = reserveReleaseBudgets(accountant, budget.epsilon, ctx.releases, domain.domainCells);
  // The relation of the run's meter, carried by every step handle.
  const relation = perRelease[0]?.step.neighbouring ?? relationOf(ctx);
  const addRemove = relation === 'add-remove';

  const counts = planned.cells;
  const datasets: D[] = [];
  const positiveNoisyCells: number[] = [];
  for (let release = 0; release < ctx.releases; release++) {
    const share = (fraction: number) => (release + fraction) / ctx.releases;
    const message = `release ${release + 1} of ${ctx.releases}: noisy counts`;
    // Discrete Laplace of scale Δ₁/(ε/M) on every cell, empty ones too (charged ε/M to the release's step).
    const { epsilon, step } = perRelease[release]!;
    const scale = laplaceScaleFor(step, PARTITION, epsilon);
    const noisy = meteredNoisyPositiveCells(step, PARTITION, counts, scale, ctx.rng, {
      domainCells: domain.domainCells,
      // Under add/remove only 'zero' runs (check), and n is not read.
      upper: addRemove ? Infinity : repairUpper(settings.repair, ctx.n),
      signal: ctx.signal,
      onProgress: (fraction) => ctx.progress(share(0.9 * fraction), message),
    });
    throwIfAborted(ctx.signal);
    ctx.progress(share(0.9), `release ${release + 1} of ${ctx.releases}: drawing rows`);
    // Rows: the public n under replace-one; under add/remove the noisy table's sum less the expected
    // positive noise of its cells (post-processing, noisy-row-count.ts).
    const rows = addRemove
      ? rowsFromNoisySum({ weights: noisy.weights, cells: domain.domainCells, scale: scale.toNumber() })
      : ctx.n;
    const cellOfRow = drawCellsForRows(ctx.rng, rows, noisy.cells, noisy.weights, domain.domainCells);
    datasets.push(datasetFromCells(form, ctx.rng, cellOfRow, domain.codings));
    positiveNoisyCells.push(noisy.cells.length);
  }
  ctx.progress(1, 'done');
  return {
    datasets,
    claim: histogramClaim(
      accountant.claim(laplaceHistogramAssumptions(domain, ctx)),
      relation,
      budget.epsilon,
    ),
    diagnostics: {
      domainCells: domain.domainCells,
      levelsPerColumn: levelsPerColumn(domain),
      positiveNoisyCells,
    },
    dataHolderDiagnostics: {},
  };
}

/** The Laplace histogram as workers and the CLI run it. */
export const laplaceHistogram: Mechanism = {
  ...laplaceHistogramMeta,
  run: (table, schema, params, ctx) => runLaplaceHistogram(table, schema, params, ctx),
  runInBlocks: (table, schema, params, ctx, options) =>
    drawLaplaceHistogram(
      table,
      schema,
      params,
      ctx,
      new Accountant(parseBudget(ctx.epsilon, ctx.delta), ctx.meter ?? new PrivacyMeter(relationOf(ctx))),
      rowBlocks(blockRowsOf(options)),
    ),
};
