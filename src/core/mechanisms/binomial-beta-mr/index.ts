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
import { binomialBetaMrMeta } from './meta';
import {
  assumptionsFor,
  BINOMIAL_BETA_MR_ID,
  planDomain,
  reserveReleases,
  type BudgetReserver,
} from './plan';

/**
 * Validate, reserve ε/M for every release, then per release draw n cells independently with
 * P(k) = (n_k + α)/(n + Kα) (exactly: the prior mass or a uniformly chosen real row), and decode.
 */
export async function runBinomialBetaMr(
  table: Table,
  schema: Schema,
  params: ParamValues,
  ctx: RunContext,
  accountant: BudgetReserver = new Accountant(parseBudget(ctx.epsilon, ctx.delta)),
): Promise<Release> {
  return drawBinomialBetaMr(table, schema, params, ctx, accountant, WHOLE_TABLES);
}

/** The run with its datasets in the given form (whole tables, or row blocks decoded when read). */
export async function drawBinomialBetaMr<D>(
  table: Table,
  schema: Schema,
  params: ParamValues,
  ctx: RunContext,
  accountant: BudgetReserver,
  form: DatasetForm<D>,
): Promise<ReleaseOf<D>> {
  const domain = planDomain(schema, params, ctx.n);
  if (domain.problems.length > 0)
    throw new InputError(`${BINOMIAL_BETA_MR_ID} cannot run: ${domain.problems.join(' ')}`);
  if (table.nRows !== ctx.n)
    throw new Error(
      `${BINOMIAL_BETA_MR_ID}: the table has ${table.nRows} rows but the context says n = ${ctx.n}.`,
    );
  const budget = parseBudget(ctx.epsilon, ctx.delta);
  const plans = reserveReleases(accountant, budget.epsilon, ctx.releases, ctx.n, domain.domainCells);
  const counts = countRowsPerCell(cellOfEveryRow(table, domain.codings));
  const datasets: D[] = [];
  for (let release = 0; release < ctx.releases; release++) {
    throwIfAborted(ctx.signal);
    ctx.progress(release / ctx.releases, `release ${release + 1} of ${ctx.releases}: drawing rows`);
    const cells = drawFromPriorAndBalls(ctx.rng, {
      domainCells: domain.domainCells,
      prior: plans[release]!.prior,
      balls: counts,
      draws: ctx.n,
      reinforce: false,
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

/** The Binomial–Beta synthesizer of McClure & Reiter (2012), DIPS §3.2.1. */
export const binomialBetaMr: Mechanism = {
  ...binomialBetaMrMeta,
  run: (table, schema, params, ctx) => runBinomialBetaMr(table, schema, params, ctx),
  runInBlocks: (table, schema, params, ctx, options) =>
    drawBinomialBetaMr(
      table,
      schema,
      params,
      ctx,
      new Accountant(parseBudget(ctx.epsilon, ctx.delta)),
      rowBlocks(blockRowsOf(options)),
    ),
};
