import type { Accountant } from '../../privacy/accountant';
import { throwIfAborted } from '../../abort';
import { meteredNoisyPositiveCells } from '../../privacy/metered/noisy-positive-cells';
import type { QueryKind } from '../../privacy/query-sensitivity';
import { shuffleInPlace } from '../../rng/shuffle';
import type { Column, NumericColumn, Schema, Table } from '../../table/types';
import { levelsFromCells, syntheticColumnFromLevels, tableFromCells } from '../common/coding/decode-rows';
import { cellOfEveryRow } from '../common/coding/encode-rows';
import { laplaceScaleFor, repairUpper } from '../../privacy/noisy-cell-counts';
import { drawFromPriorAndBalls } from '../../rng/polya-urn';
import { countRowsPerCell } from '../../cells/sparse-cell-counts';
import { WHOLE_TABLES, type DatasetForm } from '../common/rows/dataset-form';
import { columnRows } from '../release-blocks';
import { defineMechanism, type Drawn } from '../shape/define-mechanism';
import type { Mechanism, ParamValues, RunContext } from '../types';
import {
  drawNormalColumn,
  drawNormalPosterior,
  normalSensitivities,
  normalStatistics,
  sanitizeNormalStatistics,
} from './normal-model';
import { GRID_STEPS_PER_SENSITIVITY } from '../common/noisy-counts/grid-noise';
import {
  drawGlomPosterior,
  drawGlomValues,
  repairGlomStatistics,
  sanitizeGlomStatistics,
} from './glom-model';
import { glomStatistics } from '../../models/glom-statistics';
import { modipsMeta, type ModipsSpecPlan } from './meta';
import { MODIPS_ID, reserveModips, type ModipsPlan, type ReservedBudgets } from './plan';

/** The saturated model's noisy counts: the counts of the cross-tabulation, a partition of the rows. */
const CROSS_TABULATION: QueryKind = { kind: 'partition-counts' };

type NormalPlan = Extract<ModipsPlan, { model: 'normal' }>;
type LoglinearPlan = Extract<ModipsPlan, { model: 'loglinear' }>;
type GlomPlan = Extract<ModipsPlan, { model: 'glom' }>;

function columnByName(table: Table, name: string): NumericColumn {
  const column = table.columns.find((candidate) => candidate.name === name);
  if (!column || column.kind !== 'numeric')
    throw new Error(`${MODIPS_ID}: the table has no numeric column \`${name}\` named in the schema.`);
  return column;
}

/** Per release and column: sanitize (missing count, x̄, S²), draw (μ*, σ²*), draw n values. */
function runNormal(
  table: Table,
  plan: NormalPlan,
  budgets: Extract<ReturnType<typeof reserveModips>, { model: 'normal' }>,
  ctx: RunContext,
): { datasets: Table[]; diagnostics: Record<string, unknown> } {
  const n = ctx.n;
  const statistics = plan.columns.map((column) =>
    normalStatistics(columnByName(table, column.name), column.bounds![0], column.bounds![1]),
  );
  const datasets: Table[] = [];
  const sanitizedPerRelease: Record<string, { missing: number; mean: number; variance: number }>[] = [];
  for (let release = 0; release < ctx.releases; release++) {
    const sanitizedHere: Record<string, { missing: number; mean: number; variance: number }> = {};
    const columns = plan.columns.map((column, j) => {
      throwIfAborted(ctx.signal);
      ctx.progress(
        (release * plan.columns.length + j) / (ctx.releases * plan.columns.length),
        `release ${release + 1} of ${ctx.releases}: ${column.name}`,
      );
      const [lo, hi] = column.bounds!;
      const sanitized = sanitizeNormalStatistics(
        ctx.rng,
        statistics[j]!,
        n,
        lo,
        hi,
        budgets.perColumn[release]![j]!,
      );
      sanitizedHere[column.name] = sanitized;
      // One grid step of S²: a public floor that keeps the inverse gamma proper.
      const floor = normalSensitivities(n, lo, hi).variance.toNumber() / GRID_STEPS_PER_SENSITIVITY;
      const parameters = drawNormalPosterior(ctx.rng, sanitized, n, lo, hi, floor);
      return drawNormalColumn(
        ctx.rng,
        column.name,
        parameters,
        n,
        sanitized.missing,
        lo,
        hi,
        column.integer === true,
      );
    });
    sanitizedPerRelease.push(sanitizedHere);
    datasets.push({ nRows: n, columns });
  }
  return { datasets, diagnostics: { sanitizedStatistics: sanitizedPerRelease } };
}

/** Per release: noisy counts on every cell, clamped to [0, n]; Dirichlet(α + n*) then Multinomial(n, π*). */
function runLoglinear(
  table: Table,
  plan: LoglinearPlan,
  budgets: Extract<ReturnType<typeof reserveModips>, { model: 'loglinear' }>,
  ctx: RunContext,
): { datasets: Table[]; diagnostics: Record<string, unknown> } {
  const { domain, settings } = plan;
  const counts = countRowsPerCell(cellOfEveryRow(table, domain.codings));
  const datasets: Table[] = [];
  for (let release = 0; release < ctx.releases; release++) {
    const share = (fraction: number) => (release + fraction) / ctx.releases;
    const { step, epsilon } = budgets.perRelease[release]!;
    const noisy = meteredNoisyPositiveCells(
      step,
      CROSS_TABULATION,
      counts,
      laplaceScaleFor(step, CROSS_TABULATION, epsilon),
      ctx.rng,
      {
        domainCells: domain.domainCells,
        upper: repairUpper('boundary-inflated', ctx.n),
        signal: ctx.signal,
        onProgress: (fraction) => ctx.progress(share(0.8 * fraction), `release ${release + 1}: noisy counts`),
      },
    );
    throwIfAborted(ctx.signal);
    ctx.progress(share(0.8), `release ${release + 1} of ${ctx.releases}: posterior draw`);
    const cells = drawFromPriorAndBalls(ctx.rng, {
      domainCells: domain.domainCells,
      prior: settings.prior,
      balls: { cells: noisy.cells, counts: noisy.weights },
      draws: ctx.n,
      reinforce: true,
      signal: ctx.signal,
    });
    datasets.push(tableFromCells(ctx.rng, cells, domain.codings));
  }
  return { datasets, diagnostics: { domainCells: domain.domainCells } };
}

/** `count` values of the column set missing at uniformly chosen rows (post-processing). Cost O(n). */
function setMissingAtRandomRows(rng: RunContext['rng'], column: NumericColumn, count: number): void {
  if (count === 0) return;
  const order = new Uint32Array(column.values.length);
  for (let i = 0; i < order.length; i++) order[i] = i;
  shuffleInPlace(rng, order);
  for (let j = 0; j < count; j++) {
    column.missing[order[j]!] = 1;
    column.values[order[j]!] = NaN;
  }
}

/**
 * Per release: noisy statistics (glom-model.ts), repaired; the cells of n rows by the Pólya urn,
 * i.e. π* ~ Dirichlet(α + n*) then Multinomial(n, π*); Σ* ~ Inv-Wishart(n − K, W*), μ*_k ~ N(x̄*_k,
 * Σ* / n*_k) and each row's numeric values from N(μ*_k, Σ*) (DIPS §4.3.1).
 */
function runGlom(
  table: Table,
  schema: Schema,
  plan: GlomPlan,
  budgets: Extract<ReturnType<typeof reserveModips>, { model: 'glom' }>,
  ctx: RunContext,
): { datasets: Table[]; diagnostics: Record<string, unknown> } {
  const n = ctx.n;
  const bounds = plan.numeric.map((column) => column.bounds!);
  const cellOfRow = cellOfEveryRow(table, plan.codings);
  const statistics = glomStatistics(
    cellOfRow,
    plan.cells,
    plan.numeric.map((column, j) => {
      const values = columnByName(table, column.name);
      return { values: values.values, missing: values.missing, lo: bounds[j]![0], hi: bounds[j]![1] };
    }),
  );
  const datasets: Table[] = [];
  const sanitizedPerRelease: Record<string, unknown>[] = [];
  for (let release = 0; release < ctx.releases; release++) {
    throwIfAborted(ctx.signal);
    ctx.progress(release / ctx.releases, `release ${release + 1} of ${ctx.releases}: noisy statistics`);
    const noisy = sanitizeGlomStatistics(ctx.rng, statistics, bounds, budgets.perRelease[release]!);
    const repaired = repairGlomStatistics(noisy, n, bounds);
    sanitizedPerRelease.push({
      counts: Array.from(noisy.counts),
      sums: Object.fromEntries(plan.numeric.map((column, j) => [column.name, Array.from(noisy.sums[j]!)])),
      scatter: noisy.scatter,
      missing: Object.fromEntries(plan.numeric.map((column, j) => [column.name, noisy.missing[j]!])),
    });
    const positive = Array.from(repaired.counts.keys()).filter((k) => repaired.counts[k]! > 0);
    const cells = drawFromPriorAndBalls(ctx.rng, {
      domainCells: plan.cells,
      prior: plan.settings.prior,
      balls: { cells: positive, counts: positive.map((k) => repaired.counts[k]!) },
      draws: n,
      reinforce: true,
      signal: ctx.signal,
    });
    throwIfAborted(ctx.signal);
    ctx.progress((release + 0.5) / ctx.releases, `release ${release + 1} of ${ctx.releases}: posterior draw`);
    const posterior = drawGlomPosterior(ctx.rng, repaired, n - plan.cells);
    const values = drawGlomValues(
      ctx.rng,
      posterior,
      cells,
      bounds,
      plan.numeric.map((column) => column.integer === true),
    );
    const byName = new Map<string, Column>();
    plan.codings.forEach((coding, j) =>
      byName.set(
        coding.name,
        syntheticColumnFromLevels(ctx.rng, levelsFromCells(cells, plan.codings, j), coding),
      ),
    );
    plan.numeric.forEach((column, j) => {
      const synthetic: NumericColumn = {
        kind: 'numeric',
        name: column.name,
        values: values[j]!,
        missing: new Uint8Array(n),
      };
      setMissingAtRandomRows(ctx.rng, synthetic, repaired.missing[j]!);
      byName.set(column.name, synthetic);
    });
    datasets.push({ nRows: n, columns: schema.columns.map((column) => byName.get(column.name)!) });
  }
  return { datasets, diagnostics: { cells: plan.cells, sanitizedStatistics: sanitizedPerRelease } };
}

/** What MODIPS's draws report: the model and its sanitized statistics (DP outputs). */
export type ModipsDiagnostics = { model: ModipsPlan['model'] } & Record<string, unknown>;

/** A table drawn whole as a dataset of the run's form. */
function asDataset<D>(form: DatasetForm<D>, table: Table): D {
  return form.dataset(
    table.nRows,
    table.columns.map((column) => ({
      whole: column,
      block: (_, start, end) => columnRows(column, start, end),
    })),
  );
}

/** After every step is reserved: synthesize with the chosen model. */
async function drawModips<D>(
  table: Table,
  plan: ModipsSpecPlan,
  reserved: ReservedBudgets,
  ctx: RunContext,
  form: DatasetForm<D>,
): Promise<Drawn<D, ModipsDiagnostics>> {
  const result =
    plan.model === 'normal' && reserved.model === 'normal'
      ? runNormal(table, plan, reserved, ctx)
      : plan.model === 'loglinear' && reserved.model === 'loglinear'
        ? runLoglinear(table, plan, reserved, ctx)
        : plan.model === 'glom' && reserved.model === 'glom'
          ? runGlom(table, plan.schema, plan, reserved, ctx)
          : null;
  if (result === null) throw new Error(`${MODIPS_ID}: the plan and the reservations disagree.`);
  ctx.progress(1, 'done');
  return {
    datasets: result.datasets.map((dataset) => asDataset(form, dataset)),
    diagnostics: { model: plan.model, ...result.diagnostics },
  };
}

const defined = defineMechanism(modipsMeta, {
  read: (table, _plan, ctx) => {
    if (table.nRows !== ctx.n)
      throw new Error(`${MODIPS_ID}: the table has ${table.nRows} rows but the context says n = ${ctx.n}.`);
    return table;
  },
  draw: drawModips,
});

/**
 * Model-based DIPS (Liu 2016b; Bowen & Liu §3.2.2). Each table is drawn whole from the model, so it
 * offers no run in blocks.
 */
export const modips: Mechanism & Omit<typeof defined, 'runInBlocks'> = (({ runInBlocks: _blocks, ...run }) =>
  run)(defined);

/** The run on whole tables, optionally on a given accountant (tests record its reservations). */
export function runModips(
  table: Table,
  schema: Schema,
  params: ParamValues,
  ctx: RunContext,
  accountant?: Accountant,
) {
  return defined.drawFromTable(table, schema, params, ctx, WHOLE_TABLES, accountant);
}
