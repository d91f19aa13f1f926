import { Accountant } from '../../privacy/accountant';
import { parseBudget } from '../../privacy/budget';
import { throwIfAborted } from '../../abort';
import { InputError } from '../../table/errors';
import type { NumericColumn, Schema, Table } from '../../table/types';
import { tableFromCells } from '../common/decode-rows';
import { cellOfEveryRow } from '../common/encode-rows';
import { makeCountNoiseSampler, perturbAllCellCounts } from '../common/noisy-cell-counts';
import { drawFromPriorAndBalls } from '../common/polya-urn';
import { countRowsPerCell } from '../common/sparse-cell-counts';
import type { Mechanism, ParamValues, Release, RunContext } from '../types';
import {
  drawNormalColumn,
  drawNormalPosterior,
  normalSensitivities,
  normalStatistics,
  sanitizeNormalStatistics,
} from './normal-model';
import { GRID_STEPS_PER_SENSITIVITY } from './grid-noise';
import { modipsMeta } from './meta';
import {
  assumptionsFor,
  MODIPS_ID,
  planModips,
  reserveModips,
  type BudgetReserver,
  type ModipsPlan,
} from './plan';

type NormalPlan = Extract<ModipsPlan, { model: 'normal' }>;
type LoglinearPlan = Extract<ModipsPlan, { model: 'loglinear' }>;

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
    const noisy = perturbAllCellCounts(ctx.rng, counts, makeCountNoiseSampler(budgets.perRelease[release]!), {
      domainCells: domain.domainCells,
      repair: 'boundary-inflated',
      nRows: ctx.n,
      signal: ctx.signal,
      onProgress: (fraction) => ctx.progress(share(0.8 * fraction), `release ${release + 1}: noisy counts`),
    });
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

/** Validate, reserve every step, then synthesize with the chosen model. */
export async function runModips(
  table: Table,
  schema: Schema,
  params: ParamValues,
  ctx: RunContext,
  accountant: BudgetReserver = new Accountant(parseBudget(ctx.epsilon, ctx.delta)),
): Promise<Release> {
  const plan = planModips(schema, params, ctx.n);
  if (plan.problems.length > 0) throw new InputError(`${MODIPS_ID} cannot run: ${plan.problems.join(' ')}`);
  if (table.nRows !== ctx.n)
    throw new Error(`${MODIPS_ID}: the table has ${table.nRows} rows but the context says n = ${ctx.n}.`);
  const budget = parseBudget(ctx.epsilon, ctx.delta);
  const reserved = reserveModips(accountant, budget.epsilon, ctx.releases, plan);
  const result =
    plan.model === 'normal' && reserved.model === 'normal'
      ? runNormal(table, plan, reserved, ctx)
      : plan.model === 'loglinear' && reserved.model === 'loglinear'
        ? runLoglinear(table, plan, reserved, ctx)
        : null;
  if (result === null) throw new Error(`${MODIPS_ID}: the plan and the reservations disagree.`);
  ctx.progress(1, 'done');
  return {
    datasets: result.datasets,
    claim: accountant.claim(assumptionsFor(plan, ctx)),
    diagnostics: { model: plan.model, ...result.diagnostics },
    dataHolderDiagnostics: {},
  };
}

/** Model-based DIPS (Liu 2016b; Bowen & Liu §3.2.2). */
export const modips: Mechanism = {
  ...modipsMeta,
  run: (table, schema, params, ctx) => runModips(table, schema, params, ctx),
};
