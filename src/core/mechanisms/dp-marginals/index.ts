import { Accountant, type BudgetReserver } from '../../privacy/accountant';
import { standardAssumptions } from '../../privacy/assumptions';
import { parseBudget } from '../../privacy/budget';
import type { PrivacyClaim } from '../../privacy/types';
import type { Rational } from '../../rng/rational';
import { throwIfAborted } from '../../table/abort';
import { InputError } from '../../table/errors';
import type { Column, Schema, Table } from '../../table/types';
import { planBinnedDomain, type BinnedDomain } from '../common/binned-domain';
import { BINNING_PARAMS, binningChoiceFromParams } from '../common/binning-params';
import { syntheticColumnFromLevels } from '../common/decode-rows';
import { drawCellsForRows } from '../common/draw-rows';
import { columnsForCodings, levelsOfColumn } from '../common/encode-rows';
import { binnedDomainAssumptions } from '../common/public-assumptions';
import { countRowsPerCell } from '../common/sparse-cell-counts';
import { makeCountNoiseSampler, perturbAllCellCounts } from '../common/noisy-cell-counts';
import type { Mechanism, ParamValues, PublicContext, Release, RunContext } from '../types';

const ID = 'dp-marginals';

function planDomain(schema: Schema, params: ParamValues, n: number | undefined): BinnedDomain {
  return planBinnedDomain(schema, binningChoiceFromParams(params), n, false);
}

/**
 * ε/M per release (each release draws fresh noise), then that share split evenly over the p
 * one-way marginals (sequential composition: one row contributes to every marginal). Returns the
 * budget of marginal j of release r at [r][j]. Shared by claim() and run().
 */
function reserveMarginalBudgets(
  accountant: BudgetReserver,
  total: Rational,
  releases: number,
  domain: BinnedDomain,
): Rational[][] {
  if (domain.codings.length === 0) return []; // nothing to release; check() reports the empty schema
  const perMarginal = Accountant.split(Accountant.split(total, releases), domain.codings.length);
  return Array.from({ length: releases }, (_, r) =>
    domain.codings.map((coding) => {
      const epsilon = perMarginal;
      accountant.reserve(
        `noisy ${coding.levels}-cell marginal of \`${coding.name}\`, release ${r + 1} of ${releases}`,
        epsilon,
      );
      return epsilon;
    }),
  );
}

function assumptionsFor(domain: BinnedDomain, context: PublicContext): string[] {
  return [
    ...standardAssumptions(context.schema, context.seeded),
    ...binnedDomainAssumptions(domain.codings, context.schema),
    'Columns are synthesized independently of each other: relationships between columns are not kept.',
  ];
}

function claim(params: ParamValues, context: PublicContext): PrivacyClaim {
  const budget = parseBudget(context.epsilon, context.delta);
  const domain = planDomain(context.schema, params, context.n);
  const accountant = new Accountant(budget);
  reserveMarginalBudgets(accountant, budget.epsilon, context.releases, domain);
  return accountant.claim(assumptionsFor(domain, context));
}

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
  accountant: BudgetReserver = new Accountant(parseBudget(ctx.epsilon, ctx.delta)),
): Promise<Release> {
  const domain = planDomain(schema, params, ctx.n);
  if (domain.problems.length > 0) throw new InputError(`${ID} cannot run: ${domain.problems.join(' ')}`);
  if (table.nRows !== ctx.n)
    throw new Error(`${ID}: the table has ${table.nRows} rows but the context says n = ${ctx.n}.`);
  const budget = parseBudget(ctx.epsilon, ctx.delta);
  const budgets = reserveMarginalBudgets(accountant, budget.epsilon, ctx.releases, domain);

  const realColumns = columnsForCodings(table, domain.codings);
  const marginals = domain.codings.map((coding, j) =>
    countRowsPerCell(levelsOfColumn(realColumns[j]!, coding)),
  );
  const steps = ctx.releases * domain.codings.length;
  const datasets: Table[] = [];
  for (let release = 0; release < ctx.releases; release++) {
    const columns: Column[] = domain.codings.map((coding, j) => {
      throwIfAborted(ctx.signal);
      ctx.progress(
        (release * domain.codings.length + j) / steps,
        `release ${release + 1} of ${ctx.releases}: ${coding.name}`,
      );
      const noisy = perturbAllCellCounts(
        ctx.rng,
        marginals[j]!,
        makeCountNoiseSampler(budgets[release]![j]!),
        {
          domainCells: coding.levels,
          repair: 'zero',
          nRows: ctx.n,
          signal: ctx.signal,
        },
      );
      const levels = drawCellsForRows(ctx.rng, ctx.n, noisy.cells, noisy.weights, coding.levels);
      return syntheticColumnFromLevels(ctx.rng, levels, coding);
    });
    datasets.push({ nRows: ctx.n, columns });
  }
  ctx.progress(1, 'done');
  return {
    datasets,
    claim: accountant.claim(assumptionsFor(domain, ctx)),
    diagnostics: {
      levelsPerColumn: Object.fromEntries(domain.codings.map((coding) => [coding.name, coding.levels])),
    },
    dataHolderDiagnostics: {},
  };
}

/** Independent noisy one-way marginals, the baseline of Bindschaedler, Shokri & Gunter (plausible deniability, §3.2). */
export const dpMarginals: Mechanism = {
  id: ID,
  label: 'Noisy one-way marginals',
  summary:
    'Each column drawn independently from its own noisy histogram (exact discrete Laplace); keeps marginals, drops relationships.',
  reference:
    'Bindschaedler, Shokri & Gunter, Plausible deniability for privacy-preserving data synthesis, §3.2 (marginal synthesis baseline)',
  supports: { numeric: true, categorical: true },
  params: BINNING_PARAMS,
  claim,
  check: (schema, params, context) => planDomain(schema, params, context?.n).problems,
  run: (table, schema, params, ctx) => runDpMarginals(table, schema, params, ctx),
};
