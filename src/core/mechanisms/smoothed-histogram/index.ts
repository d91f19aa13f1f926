import type { Accountant } from '../../privacy/accountant';
import { meteredSmoothedHistogramDraws } from '../../privacy/metered/smoothed-histogram-draws';
import type { Schema, Table } from '../../table/types';
import { throwIfAborted } from '../../abort';
import { levelsPerColumn, refuseUnplannedRun } from '../common/binning/binned-mechanism';
import { datasetFromCells, WHOLE_TABLES, type DatasetForm } from '../common/rows/dataset-form';
import { cellOfEveryRow } from '../common/coding/encode-rows';
import { defineMechanism, type Drawn } from '../shape/define-mechanism';
import type { ParamValues, RunContext } from '../types';
import {
  SMOOTHED_HISTOGRAM_ID,
  smoothedHistogramMeta,
  type SmoothedHistogramPlan,
  type SmoothedHistogramReserved,
} from './meta';

export {
  epsilonOfSmoothedDraws,
  largestSmoothingOddsForEpsilon,
  smoothingWeight,
} from '../../privacy/metered/smoothing-weight';

/** The smoothed histogram draws from the cells of the binned domain: counts over a partition. */
const PARTITION = { kind: 'partition-counts' } as const;

/** The smoothed histogram's public diagnostics: the domain and λ, from public facts only. */
export interface SmoothedHistogramDiagnostics {
  domainCells: number;
  lambda: number;
  levelsPerColumn: Record<string, number>;
}

/** Draws M·n rows from the smoothed histogram of the real rows' cells and splits them into M datasets. */
async function drawSmoothedHistogram<D>(
  cellOfRealRow: Uint32Array,
  { domain }: SmoothedHistogramPlan,
  { step, epsilon, smoothing }: SmoothedHistogramReserved,
  ctx: RunContext,
  form: DatasetForm<D>,
): Promise<Drawn<D, SmoothedHistogramDiagnostics>> {
  const design = { epsilon, calls: ctx.releases };
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
    diagnostics: {
      domainCells: domain.domainCells,
      lambda: smoothing.lambda,
      levelsPerColumn: levelsPerColumn(domain),
    },
  };
}

/** The smoothed histogram as workers and the CLI run it: the real rows' cells, then the draws. */
export const smoothedHistogram = defineMechanism(smoothedHistogramMeta, {
  read: (table, { domain }, ctx) => {
    refuseUnplannedRun(SMOOTHED_HISTOGRAM_ID, domain, table, ctx);
    return cellOfEveryRow(table, domain.codings);
  },
  draw: drawSmoothedHistogram,
});

/** The run on whole tables with the accountant made explicit (tests record its reservations). */
export function runSmoothedHistogram(
  table: Table,
  schema: Schema,
  params: ParamValues,
  ctx: RunContext,
  accountant?: Accountant,
) {
  return smoothedHistogram.drawFromTable(table, schema, params, ctx, WHOLE_TABLES, accountant);
}
