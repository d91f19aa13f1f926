import { roundDown } from '../../privacy/round-up';
import { Accountant, type BudgetReserver } from '../../privacy/accountant';
import { standardAssumptions } from '../../privacy/assumptions';
import { parseBudget } from '../../privacy/budget';
import type { PrivacyClaim } from '../../privacy/types';
import type { Rational } from '../../rng/rational';
import type { Schema, Table } from '../../table/types';
import { InputError } from '../../table/errors';
import { planBinnedDomain, type BinnedDomain } from '../common/binned-domain';
import { describeBinnedDomain } from '../common/describe-domain';
import { BINNING_PARAMS, binningChoiceFromParams } from '../common/binning-params';
import { tableFromCells } from '../common/decode-rows';
import { cellOfEveryRow } from '../common/encode-rows';
import { formatCount } from '../common/format-count';
import { binnedDomainAssumptions } from '../common/public-assumptions';
import type { Mechanism, ParamValues, PublicContext, Release, RunContext } from '../types';
import { drawSmoothedHistogramCells } from './draw-smoothed-rows';
import { smoothingWeight } from './smoothing-weight';

export { drawSmoothedHistogramCells } from './draw-smoothed-rows';
export { epsilonOfSmoothedDraws, largestSmoothingOddsForEpsilon, smoothingWeight } from './smoothing-weight';

const ID = 'smoothed-histogram';

function planDomain(schema: Schema, params: ParamValues, n: number | undefined): BinnedDomain {
  return planBinnedDomain(schema, binningChoiceFromParams(params), n, true);
}

/** The public plan of a run: λ from K, n, the total rows T = M·n and ε rounded down. */
interface SmoothingPlan {
  lambda: number;
  totalDrawnRows: number;
}

function smoothingPlan(domainCells: number, n: number, releases: number, epsilon: Rational): SmoothingPlan {
  const totalDrawnRows = n * releases;
  return { lambda: smoothingWeight(domainCells, n, totalDrawnRows, epsilon.toNumberDown()), totalDrawnRows };
}

/** One step spends the whole ε: the M·n draws from one smoothed histogram (see smoothing-weight.ts). */
function reserveBudget(
  accountant: BudgetReserver,
  epsilon: Rational,
  domain: BinnedDomain,
  context: PublicContext,
  plan: SmoothingPlan,
): void {
  accountant.reserve(
    `${formatCount(plan.totalDrawnRows)} rows (${context.releases} × ${formatCount(context.n)}) drawn from the ` +
      `smoothed histogram of ${formatCount(domain.domainCells)} cells, λ = ${roundDown(plan.lambda, 6)}`,
    epsilon,
  );
}

function assumptionsFor(domain: BinnedDomain, context: PublicContext): string[] {
  return [
    ...standardAssumptions(context.schema, context.seeded),
    ...binnedDomainAssumptions(domain.codings, context.schema),
    'The privacy comes from sampling: the M releases of n rows are M·n draws from one smoothed histogram, ' +
      'and λ is set for that total; releasing more rows from it would spend more ε.',
  ];
}

function claim(params: ParamValues, context: PublicContext): PrivacyClaim {
  const budget = parseBudget(context.epsilon, context.delta);
  const domain = planDomain(context.schema, params, context.n);
  const accountant = new Accountant(budget);
  reserveBudget(
    accountant,
    budget.epsilon,
    domain,
    context,
    smoothingPlan(domain.domainCells, context.n, context.releases, budget.epsilon),
  );
  return accountant.claim(assumptionsFor(domain, context));
}

/** The run with the accountant made explicit: validate, reserve, then draw M·n rows and split them into M tables. */
export async function runSmoothedHistogram(
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
  const plan = smoothingPlan(domain.domainCells, ctx.n, ctx.releases, budget.epsilon);
  reserveBudget(accountant, budget.epsilon, domain, ctx, plan);

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
    claim: accountant.claim(assumptionsFor(domain, ctx)),
    diagnostics: {
      domainCells: domain.domainCells,
      lambda: plan.lambda,
      levelsPerColumn: Object.fromEntries(domain.codings.map((coding) => [coding.name, coding.levels])),
    },
    dataHolderDiagnostics: {},
  };
}

/**
 * The domain size and λ: with T = M·n draws, λ ≥ K/(K + n(e^(ε/T) − 1)) ≈ K/(K + ε·n/T) is close
 * to 1 unless ε is large or K small, and the rows are then nearly uniform over the domain.
 */
function describeSmoothedHistogram(params: ParamValues, context: PublicContext): string[] {
  const domain = planDomain(context.schema, params, context.n);
  const lines = describeBinnedDomain(domain, 'Histogram');
  if (lines.length === 0) return lines;
  let epsilon: Rational;
  try {
    epsilon = parseBudget(context.epsilon, context.delta).epsilon;
  } catch {
    return lines; // the budget fields report an invalid ε themselves
  }
  const { lambda } = smoothingPlan(domain.domainCells, context.n, context.releases, epsilon);
  lines.push(
    `Each row comes from the uniform distribution over all cells with probability λ = ${roundDown(lambda, 3)}` +
      (lambda > 0.5
        ? ': most rows carry no information from the data; fewer cells or a larger ε lower λ.'
        : '.'),
  );
  return lines;
}

/** Wasserman & Zhou's smoothed histogram, sampled (Bowen & Liu, DIPS study §3.1.2, eqs. 6–7). */
export const smoothedHistogram: Mechanism = {
  id: ID,
  label: 'Smoothed histogram',
  summary:
    'Rows drawn from a mixture of the empirical cross-tabulation and the uniform distribution; no noise, the sampling is the privacy.',
  reference:
    'Bowen & Liu, Comparative study of differentially private data synthesis methods, §3.1.2, eqs. 6–7 (Wasserman & Zhou 2010)',
  supports: { numeric: true, categorical: true },
  params: BINNING_PARAMS,
  claim,
  describe: describeSmoothedHistogram,
  check: (schema, params, context) => planDomain(schema, params, context?.n).problems,
  run: (table, schema, params, ctx) => runSmoothedHistogram(table, schema, params, ctx),
};
