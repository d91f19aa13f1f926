import type { Accountant } from '../../privacy/accountant';
import type { Schema, Table } from '../../table/types';
import { throwIfAborted } from '../../abort';
import { levelsPerColumn, refuseUnplannedRun } from '../common/binning/binned-mechanism';
import { datasetFromCells, WHOLE_TABLES, type DatasetForm } from '../common/rows/dataset-form';
import { drawCellsForRows } from '../common/rows/draw-rows';
import { laplaceScaleFor, repairUpper } from '../../privacy/noisy-cell-counts';
import { meteredNoisyPositiveCells } from '../../privacy/metered/noisy-positive-cells';
import { countInMemory } from '../../counts/memory-count-source';
import type { CountQueryPlan, PlannedCounts } from '../../counts/count-source';
import { InputError } from '../../table/errors';
import type { ParamValues, PublicContext, RunContext } from '../types';
import { binningRows, relationOf } from '../neighbouring';
import { rowsFromNoisySum } from '../common/noisy-counts/noisy-row-count';
import { defineMechanism, type Drawn } from '../shape/define-mechanism';
import type { BinnedDomain } from '../common/binning/binned-domain';
import {
  LAPLACE_HISTOGRAM_ID,
  laplaceHistogramMeta,
  planLaplaceHistogramDomain,
  type LaplaceHistogramPlan,
  type ReleaseBudget,
} from './meta';

export { CROSS_TABULATION_SENSITIVITY_REPLACE_ONE, countNoiseScale } from '../../privacy/noisy-cell-counts';

/** The cross-tabulation's cells are a partition of the rows fixed by the schema: its counts are this query. */
const PARTITION = { kind: 'partition-counts' } as const;

/** The Laplace histogram's public diagnostics: the domain, fixed by the schema, and per release the cells drawn from. */
export interface LaplaceHistogramDiagnostics {
  domainCells: number;
  levelsPerColumn: Record<string, number>;
  /** Per release: how many cells had a positive noisy count (a DP output). */
  positiveNoisyCells: number[];
}

/** The counts of the binned domain's full cross-tabulation (count-source.ts). */
function crossTabulation(domain: BinnedDomain): CountQueryPlan {
  return { codings: domain.codings, cells: true, marginals: [] };
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
  return crossTabulation(domain);
}

/**
 * The draw on exact counts from any count source (in memory, an SQL engine, files of query results),
 * after the plan reserved ε/M per release. For each release: discrete Laplace noise on every cell of
 * the domain, repair, draw the rows' cells in proportion to the positive noisy counts, decode cells
 * to values.
 */
async function drawLaplaceHistogram<D>(
  planned: PlannedCounts,
  { domain, settings }: LaplaceHistogramPlan,
  perRelease: ReleaseBudget[],
  ctx: RunContext,
  form: DatasetForm<D>,
): Promise<Drawn<D, LaplaceHistogramDiagnostics>> {
  if (planned.n !== ctx.n || planned.cells === undefined) {
    throw new Error(
      `${LAPLACE_HISTOGRAM_ID}: the counts are for ${planned.n} rows but the context says n = ${ctx.n}.`,
    );
  }
  // The relation of the run's meter, carried by every step handle.
  const addRemove = (perRelease[0]?.step.neighbouring ?? relationOf(ctx)) === 'add-remove';
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
    diagnostics: {
      domainCells: domain.domainCells,
      levelsPerColumn: levelsPerColumn(domain),
      positiveNoisyCells,
    },
  };
}

/**
 * The Laplace histogram as workers and the CLI run it: the table's cross-tabulation counted in memory,
 * then the draw; `drawFrom` takes the counts from a count source instead.
 */
export const laplaceHistogram = defineMechanism(laplaceHistogramMeta, {
  read: (table, { domain }, ctx) => {
    refuseUnplannedRun(LAPLACE_HISTOGRAM_ID, domain, table, ctx);
    return countInMemory(table, crossTabulation(domain));
  },
  draw: drawLaplaceHistogram,
});

/** The run on whole tables with the accountant made explicit (tests record its reservations). */
export function runLaplaceHistogram(
  table: Table,
  schema: Schema,
  params: ParamValues,
  ctx: RunContext,
  accountant?: Accountant,
) {
  return laplaceHistogram.drawFromTable(table, schema, params, ctx, WHOLE_TABLES, accountant);
}
