import type { Accountant } from '../../privacy/accountant';
import { throwIfAborted } from '../../abort';
import type { Schema, Table } from '../../table/types';
import { levelsPerColumn, refuseUnplannedRun } from '../common/binning/binned-mechanism';
import { WHOLE_TABLES, type DatasetForm, type DrawnColumn } from '../common/rows/dataset-form';
import { drawCellsForRows } from '../common/rows/draw-rows';
import { columnsForCodings, levelsOfColumn } from '../common/coding/encode-rows';
import { countRowsPerCell, type SparseCellCounts } from '../../cells/sparse-cell-counts';
import { laplaceScaleFor } from '../../privacy/noisy-cell-counts';
import { meteredNoisyPositiveCells } from '../../privacy/metered/noisy-positive-cells';
import type { ParamValues, RunContext } from '../types';
import type { NoisyPositiveCells } from '../../privacy/metered/sparse-cell-noise';
import { relationOf } from '../neighbouring';
import { rowsFromNoisySums } from '../common/noisy-counts/noisy-row-count';
import { defineMechanism, type Drawn } from '../shape/define-mechanism';
import { DP_MARGINALS_ID, dpMarginalsMeta, type DpMarginalsPlan, type MarginalBudget } from './meta';

/** A column's levels partition the rows by a rule fixed by the schema: its level counts are this query. */
const PARTITION = { kind: 'partition-counts' } as const;

/** Noisy one-way marginals' public diagnostics: the levels of each column, from the schema. */
export interface DpMarginalsDiagnostics {
  levelsPerColumn: Record<string, number>;
}

/** The level counts of every column of the table (one marginal per column), exact. */
function countMarginals(table: Table, { domain }: DpMarginalsPlan, ctx: RunContext): SparseCellCounts[] {
  refuseUnplannedRun(DP_MARGINALS_ID, domain, table, ctx);
  const realColumns = columnsForCodings(table, domain.codings);
  return domain.codings.map((coding, j) => countRowsPerCell(levelsOfColumn(realColumns[j]!, coding)));
}

/**
 * The draw after every marginal's budget is reserved: per release and column, exact discrete
 * Laplace noise (sensitivity 2 under replace-one) on each level count, negatives to 0, the rows'
 * levels drawn in proportion (normalisation is implicit in the multinomial draw), values decoded
 * (uniform within numeric bins). Columns are drawn independently and shuffled separately.
 */
async function drawDpMarginals<D>(
  marginals: SparseCellCounts[],
  { domain }: DpMarginalsPlan,
  budgets: MarginalBudget[][],
  ctx: RunContext,
  form: DatasetForm<D>,
): Promise<Drawn<D, DpMarginalsDiagnostics>> {
  // The relation of the run's meter, carried by every step handle.
  const relation = budgets[0]?.[0]?.step.neighbouring ?? relationOf(ctx);
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
  return { datasets, diagnostics: { levelsPerColumn: levelsPerColumn(domain) } };
}

/** Noisy one-way marginals as workers and the CLI run them: the columns' level counts, then the draw. */
export const dpMarginals = defineMechanism(dpMarginalsMeta, { read: countMarginals, draw: drawDpMarginals });

/** The run on whole tables with the accountant made explicit (tests record its reservations). */
export function runDpMarginals(
  table: Table,
  schema: Schema,
  params: ParamValues,
  ctx: RunContext,
  accountant?: Accountant,
) {
  return dpMarginals.drawFromTable(table, schema, params, ctx, WHOLE_TABLES, accountant);
}
