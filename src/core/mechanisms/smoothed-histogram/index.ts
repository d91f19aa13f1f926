import { Accountant, type BudgetReserver } from '../../privacy/accountant';
import { parseBudget } from '../../privacy/budget';
import type { Schema, Table } from '../../table/types';
import { levelsPerColumn, refuseUnplannedRun } from '../common/binned-mechanism';
import { tableFromCells } from '../common/decode-rows';
import { cellOfEveryRow } from '../common/encode-rows';
import type { Mechanism, ParamValues, Release, RunContext } from '../types';
import { drawSmoothedHistogramCells } from './draw-smoothed-rows';
import {
  planSmoothedHistogramDomain,
  reserveSmoothedHistogramBudget,
  SMOOTHED_HISTOGRAM_ID,
  smoothedHistogramAssumptions,
  smoothedHistogramMeta,
  smoothingPlan,
} from './meta';

export { drawSmoothedHistogramCells } from './draw-smoothed-rows';
export { epsilonOfSmoothedDraws, largestSmoothingOddsForEpsilon, smoothingWeight } from './smoothing-weight';

/** The run with the accountant made explicit: validate, reserve, then draw M·n rows and split them into M tables. */
export async function runSmoothedHistogram(
  table: Table,
  schema: Schema,
  params: ParamValues,
  ctx: RunContext,
  accountant: BudgetReserver = new Accountant(parseBudget(ctx.epsilon, ctx.delta)),
): Promise<Release> {
  const domain = planSmoothedHistogramDomain(schema, params, ctx.n);
  refuseUnplannedRun(SMOOTHED_HISTOGRAM_ID, domain, table, ctx);
  const budget = parseBudget(ctx.epsilon, ctx.delta);
  const plan = smoothingPlan(domain.domainCells, ctx.n, ctx.releases, budget.epsilon);
  reserveSmoothedHistogramBudget(accountant, budget.epsilon, domain, ctx, plan);

  const cellOfRealRow = cellOfEveryRow(table, domain.codings);
  const datasets: Table[] = [];
  for (let release = 0; release < ctx.releases; release++) {
    const share = (fraction: number) => (release + fraction) / ctx.releases;
    const cells = drawSmoothedHistogramCells(
      ctx.rng,
      cellOfRealRow,
      domain.domainCells,
      plan.lambda,
      ctx.n,
      ctx.signal,
      (f) => ctx.progress(share(0.8 * f), `release ${release + 1} of ${ctx.releases}: drawing rows`),
    );
    datasets.push(tableFromCells(ctx.rng, cells, domain.codings));
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
};
