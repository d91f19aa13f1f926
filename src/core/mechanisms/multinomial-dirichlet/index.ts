import { Accountant } from '../../privacy/accountant';
import { parseBudget } from '../../privacy/budget';
import { throwIfAborted } from '../../abort';
import { InputError } from '../../table/errors';
import type { Schema, Table } from '../../table/types';
import {
  datasetFromCells,
  rowBlocks,
  WHOLE_TABLES,
  type DatasetForm,
  type ReleaseOf,
} from '../common/dataset-form';
import { cellOfEveryRow } from '../common/encode-rows';
import { drawFromPriorAndBalls } from '../common/polya-urn';
import { countRowsPerCell } from '../common/sparse-cell-counts';
import { blockRowsOf } from '../release-blocks';
import type { Mechanism, ParamValues, Release, RunContext } from '../types';
import { multinomialDirichletMeta } from './meta';
import {
  assumptionsFor,
  MULTINOMIAL_DIRICHLET_ID,
  planDomain,
  reserveReleases,
  type BudgetReserver,
} from './plan';

/**
 * Validate, reserve ε/M for every release, then per release draw n cells from the Pólya urn with
 * α per cell plus one ball per real row (= π* ~ Dirichlet(α + counts), cells ~ Multinomial(n, π*)),
 * and decode cells to values (uniform within numeric bins).
 */
export async function runMultinomialDirichlet(
  table: Table,
  schema: Schema,
  params: ParamValues,
  ctx: RunContext,
  accountant: BudgetReserver = new Accountant(parseBudget(ctx.epsilon, ctx.delta)),
): Promise<Release> {
  return drawMultinomialDirichlet(table, schema, params, ctx, accountant, WHOLE_TABLES);
}

/** The run with its datasets in the given form (whole tables, or row blocks decoded when read). */
export async function drawMultinomialDirichlet<D>(
  table: Table,
  schema: Schema,
  params: ParamValues,
  ctx: RunContext,
  accountant: BudgetReserver,
  form: DatasetForm<D>,
): Promise<ReleaseOf<D>> {
  const domain = planDomain(schema, params, ctx.n);
  if (domain.problems.length > 0)
    throw new InputError(`${MULTINOMIAL_DIRICHLET_ID} cannot run: ${domain.problems.join(' ')}`);
  if (table.nRows !== ctx.n)
    throw new Error(
      `${MULTINOMIAL_DIRICHLET_ID}: the table has ${table.nRows} rows but the context says n = ${ctx.n}.`,
    );
  const budget = parseBudget(ctx.epsilon, ctx.delta);
  const plans = reserveReleases(accountant, budget.epsilon, ctx.releases, ctx.n, domain.domainCells);
  const counts = countRowsPerCell(cellOfEveryRow(table, domain.codings));
  const datasets: D[] = [];
  for (let release = 0; release < ctx.releases; release++) {
    throwIfAborted(ctx.signal);
    ctx.progress(release / ctx.releases, `release ${release + 1} of ${ctx.releases}: posterior draw`);
    const cells = drawFromPriorAndBalls(ctx.rng, {
      domainCells: domain.domainCells,
      prior: plans[release]!.prior,
      balls: counts,
      draws: ctx.n,
      reinforce: true,
      signal: ctx.signal,
    });
    datasets.push(datasetFromCells(form, ctx.rng, cells, domain.codings));
  }
  ctx.progress(1, 'done');
  return {
    datasets,
    claim: accountant.claim(assumptionsFor(domain, ctx)),
    diagnostics: {
      domainCells: domain.domainCells,
      priorPerCell: plans.map((plan) => plan.prior.toNumberUp()),
    },
    dataHolderDiagnostics: {},
  };
}

/** The Multinomial–Dirichlet synthesizer (Abowd & Vilhuber 2008; DIPS §3.2.1). */
export const multinomialDirichlet: Mechanism = {
  ...multinomialDirichletMeta,
  run: (table, schema, params, ctx) => runMultinomialDirichlet(table, schema, params, ctx),
  runInBlocks: (table, schema, params, ctx, options) =>
    drawMultinomialDirichlet(
      table,
      schema,
      params,
      ctx,
      new Accountant(parseBudget(ctx.epsilon, ctx.delta)),
      rowBlocks(blockRowsOf(options)),
    ),
};
