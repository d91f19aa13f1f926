import { Accountant, type BudgetReserver } from '../../privacy/accountant';
import { parseBudget } from '../../privacy/budget';
import { throwIfAborted } from '../../abort';
import type { Schema, Table } from '../../table/types';
import { levelsPerColumn, refuseUnplannedRun } from '../common/binned-mechanism';
import {
  rowBlocks,
  WHOLE_TABLES,
  type DatasetForm,
  type DrawnColumn,
  type ReleaseOf,
} from '../common/dataset-form';
import { drawCellsForRows } from '../common/draw-rows';
import { columnsForCodings, levelsOfColumn } from '../common/encode-rows';
import { countRowsPerCell } from '../common/sparse-cell-counts';
import { laplaceScaleFor } from '../common/noisy-cell-counts';
import { meteredNoisyPositiveCells } from '../../privacy/metered/noisy-positive-cells';
import { blockRowsOf } from '../release-blocks';
import type { Mechanism, ParamValues, Release, RunContext } from '../types';
import { PrivacyMeter } from '../../privacy/meter';
import type { NoisyPositiveCells } from '../../privacy/metered/sparse-cell-noise';
import { histogramClaim } from '../common/histogram-claim';
import { binningRows, relationOf } from '../neighbouring';
import { rowsFromNoisySums } from '../common/noisy-row-count';
import {
  DP_MARGINALS_ID,
  dpMarginalsAssumptions,
  dpMarginalsMeta,
  planDpMarginalsDomain,
  reserveMarginalBudgets,
} from './meta';

/** A column's levels partition the rows by a rule fixed by the schema: its level counts are this query. */
const PARTITION = { kind: 'partition-counts' } as const;

/**
 * The run with the accountant made explicit: validate, reserve every marginal's budget, then per
 * release and column: exact discrete Laplace noise (sensitivity 2) on each level count, negatives
 * to 0, n levels drawn in proportion (normalisation is implicit in the multinomial draw), values
 * decoded (uniform within numeric bins). Columns are drawn independently and shuffled separately.
 */
export async function runDpMarginals(
  table: Table,
  schema: Schema,
  params: ParamValues,
  ctx: RunContext,
  accountant: BudgetReserver = new Accountant(
    parseBudget(ctx.epsilon, ctx.delta),
    ctx.meter ?? new PrivacyMeter(relationOf(ctx)),
  ),
): Promise<Release> {
  return drawDpMarginals(table, schema, params, ctx, accountant, WHOLE_TABLES);
}

/** The run with its datasets in the given form (whole tables, or row blocks decoded when read). */
export async function drawDpMarginals<D>(
  table: Table,
  schema: Schema,
  params: ParamValues,
  ctx: RunContext,
  accountant: BudgetReserver,
  form: DatasetForm<D>,
): Promise<ReleaseOf<D>> {
  const domain = planDpMarginalsDomain(schema, params, binningRows(ctx));
  refuseUnplannedRun(DP_MARGINALS_ID, domain, table, ctx);
  const budget = parseBudget(ctx.epsilon, ctx.delta);
  const budgets = reserveMarginalBudgets(accountant, budget.epsilon, ctx.releases, domain);
  // The relation of the run's meter, carried by every step handle.
  const relation = budgets[0]?.[0]?.step.neighbouring ?? relationOf(ctx);

  const realColumns = columnsForCodings(table, domain.codings);
  const marginals = domain.codings.map((coding, j) =>
    countRowsPerCell(levelsOfColumn(realColumns[j]!, coding)),
  );
  const steps = ctx.releases * domain.codings.length;
  const datasets: D[] = [];
  for (let release = 0; release < ctx.releases; release++) {
    // Discrete Laplace of scale Δ₁/ε_j on every level, empty ones too, charged ε_j to the marginal's step.
    const scales: number[] = [];
    const noisyMarginal = (j: number): NoisyPositiveCells => {
      throwIfAborted(ctx.signal);
      ctx.progress(
        (release * domain.codings.length + j) / steps,
        `release ${release + 1} of ${ctx.releases}: ${domain.codings[j]!.name}`,
      );
      const { epsilon, step } = budgets[release]![j]!;
      const scale = laplaceScaleFor(step, PARTITION, epsilon);
      scales[j] = scale.toNumber();
      return meteredNoisyPositiveCells(step, PARTITION, marginals[j]!, scale, ctx.rng, {
        domainCells: domain.codings[j]!.levels,
        upper: Infinity,
        signal: ctx.signal,
      });
    };
    const drawColumn = (j: number, noisy: NoisyPositiveCells, rows: number): DrawnColumn => {
      const coding = domain.codings[j]!;
      const levels = drawCellsForRows(ctx.rng, rows, noisy.cells, noisy.weights, coding.levels);
      return form.columnOfLevels(ctx.rng, coding, levels);
    };
    if (relation === 'replace-one') {
      // n public: each column's noise, then its n levels, column by column.
      const columns = domain.codings.map((_, j) => drawColumn(j, noisyMarginal(j), ctx.n));
      datasets.push(form.dataset(ctx.n, columns));
    } else {
      // n private: every column's noise first, then one row count from their sums (post-processing).
      const noisy = domain.codings.map((_, j) => noisyMarginal(j));
      const rows = rowsFromNoisySums(
        noisy.map((cells, j) => ({
          weights: cells.weights,
          cells: domain.codings[j]!.levels,
          scale: scales[j]!,
        })),
      );
      datasets.push(
        form.dataset(
          rows,
          noisy.map((cells, j) => drawColumn(j, cells, rows)),
        ),
      );
    }
  }
  ctx.progress(1, 'done');
  return {
    datasets,
    claim: histogramClaim(accountant.claim(dpMarginalsAssumptions(domain, ctx)), relation, budget.epsilon),
    diagnostics: {
      levelsPerColumn: levelsPerColumn(domain),
    },
    dataHolderDiagnostics: {},
  };
}

/** Noisy one-way marginals as workers and the CLI run them. */
export const dpMarginals: Mechanism = {
  ...dpMarginalsMeta,
  run: (table, schema, params, ctx) => runDpMarginals(table, schema, params, ctx),
  runInBlocks: (table, schema, params, ctx, options) =>
    drawDpMarginals(
      table,
      schema,
      params,
      ctx,
      new Accountant(parseBudget(ctx.epsilon, ctx.delta), ctx.meter ?? new PrivacyMeter(relationOf(ctx))),
      rowBlocks(blockRowsOf(options)),
    ),
};
