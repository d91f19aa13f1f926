import { Accountant, type BudgetReserver } from '../../privacy/accountant';
import { parseBudget } from '../../privacy/budget';
import { meteredSmoothedHistogramDraws } from '../../privacy/metered/smoothed-histogram-draws';
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
import { cellOfEveryRow } from '../common/encode-rows';
import { blockRowsOf } from '../release-blocks';
import type { Mechanism, ParamValues, Release, RunContext } from '../types';
import {
  planSmoothedHistogramDomain,
  reserveSmoothedHistogramBudget,
  SMOOTHED_HISTOGRAM_ID,
  smoothedHistogramAssumptions,
  smoothedHistogramMeta,
  smoothingPlan,
} from './meta';

export {
  epsilonOfSmoothedDraws,
  largestSmoothingOddsForEpsilon,
  smoothingWeight,
} from '../../privacy/metered/smoothing-weight';

/** The smoothed histogram draws from the cells of the binned domain: counts over a partition. */
const PARTITION = { kind: 'partition-counts' } as const;

/** The run with the accountant made explicit: validate, reserve, then draw M·n rows and split them into M tables. */
export async function runSmoothedHistogram(
  table: Table,
  schema: Schema,
  params: ParamValues,
  ctx: RunContext,
  accountant: BudgetReserver = new Accountant(parseBudget(ctx.epsilon, ctx.delta), ctx.meter),
): Promise<Release> {
  return drawSmoothedHistogram(table, schema, params, ctx, accountant, WHOLE_TABLES);
}

/** The run with its datasets in the given form (whole tables, or row blocks decoded when read). */
export async function drawSmoothedHistogram<D>(
  table: Table,
  schema: Schema,
  params: ParamValues,
  ctx: RunContext,
  accountant: BudgetReserver,
  form: DatasetForm<D>,
): Promise<ReleaseOf<D>> {
  const domain = planSmoothedHistogramDomain(schema, params, ctx.n);
  refuseUnplannedRun(SMOOTHED_HISTOGRAM_ID, domain, table, ctx);
  const budget = parseBudget(ctx.epsilon, ctx.delta);
  const plan = smoothingPlan(domain.domainCells, ctx.n, ctx.releases, budget.epsilon);
  const step = reserveSmoothedHistogramBudget(accountant, budget.epsilon, domain, ctx, plan);
  const design = { epsilon: budget.epsilon, calls: ctx.releases };

  const cellOfRealRow = cellOfEveryRow(table, domain.codings);
  const datasets: D[] = [];
  for (let release = 0; release < ctx.releases; release++) {
    const share = (fraction: number) => (release + fraction) / ctx.releases;
    // n draws from the histogram whose λ is set for all M·n: the step is charged ε/M per release.
    const cells = meteredSmoothedHistogramDraws(
      step,
      PARTITION,
      cellOfRealRow,
      domain.domainCells,
      ctx.n,
      design,
      ctx.rng,
      ctx.signal,
      (f) => ctx.progress(share(0.8 * f), `release ${release + 1} of ${ctx.releases}: drawing rows`),
    );
    throwIfAborted(ctx.signal); // a small release draws between the signal's checks
    datasets.push(datasetFromCells(form, ctx.rng, cells, domain.codings));
  }
  ctx.progress(1, 'done');
  return {
    datasets,
    claim: accountant.claim(smoothedHistogramAssumptions(domain, ctx)),
    diagnostics: {
      domainCells: domain.domainCells,
      lambda: plan.lambda,
      levelsPerColumn: levelsPerColumn(domain),
    },
    dataHolderDiagnostics: {},
  };
}

/** The smoothed histogram as workers and the CLI run it. */
export const smoothedHistogram: Mechanism = {
  ...smoothedHistogramMeta,
  run: (table, schema, params, ctx) => runSmoothedHistogram(table, schema, params, ctx),
  runInBlocks: (table, schema, params, ctx, options) =>
    drawSmoothedHistogram(
      table,
      schema,
      params,
      ctx,
      new Accountant(parseBudget(ctx.epsilon, ctx.delta), ctx.meter),
      rowBlocks(blockRowsOf(options)),
    ),
};
