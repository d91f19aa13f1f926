import { standardAssumptions } from '../../privacy/assumptions';
import type { PrivacyClaim } from '../../privacy/types';
import type { ZcdpAccountant } from '../../privacy/zcdp-accountant';
import type { Schema } from '../../table/types';
import { formatCount } from '../common/format-count';
import { SCORE_MAX_ROWS } from '../common/pgm/grid-score';
import { deltaIsZero, deltaProblem, zcdpAccountantFor } from '../common/pgm/pgm-budget';
import {
  marginalLimitProblem,
  PGM_BINNING_PARAMS,
  planPgmDomain,
  SAMPLING_PARAM,
  type PgmDomain,
} from '../common/pgm/pgm-domain';
import { binnedDomainAssumptions } from '../common/public-assumptions';
import type { Mechanism, ParamSpec, ParamValues, PublicContext } from '../types';
import {
  epsilonInWords,
  planMstBudget,
  reserveMstBudget,
  sigmaInWords,
  type MstBudgetPlan,
} from './budget-plan';
import { mstFit } from './fit';

export const MST_ID = 'mst';

export const MST_PARAMS: ParamSpec[] = [
  {
    name: 'compress',
    label: 'Merge rare levels',
    type: 'boolean',
    default: true,
    help:
      'After the one-way histograms are measured, merge the levels of each column whose noisy count is below 3σ ' +
      'into one level (measured by the sum of their noisy counts), and spread the rows drawn in it uniformly over ' +
      'those levels. A smaller model, fitted faster; costs no budget.',
  },
  {
    name: 'iterations',
    label: 'Estimation iterations',
    type: 'integer',
    default: 5000,
    min: 1,
    max: 100_000,
    help:
      'Most iterations of mirror descent when fitting the graphical model to the noisy marginals; it stops earlier ' +
      'once the loss changes by less than 1e-7 (relative) for 100 iterations. Costs no budget.',
  },
  SAMPLING_PARAM,
  ...PGM_BINNING_PARAMS,
];

/** Domain and problems from public facts; shared by check, claim and run. */
export function planMstDomain(
  schema: Schema,
  params: ParamValues,
  context?: Pick<PublicContext, 'n' | 'epsilon' | 'delta'>,
): PgmDomain {
  const domain = planPgmDomain(schema, params, context?.n);
  const problems = [...domain.problems];
  if (problems.length === 0 && domain.sizes.length < 2) {
    problems.push('needs at least two columns: with one column, use dp-marginals.');
  }
  if (problems.length === 0) {
    const order = domain.sizes.map((size, j) => ({ size, j })).sort((x, y) => y.size - x.size);
    if (order.length >= 2) {
      const [first, second] = [order[0]!, order[1]!];
      const tooLarge = marginalLimitProblem(
        [domain.codings[first.j]!.name, domain.codings[second.j]!.name],
        first.size * second.size,
        'the largest two-way marginal',
      );
      if (tooLarge) problems.push(tooLarge);
    }
  }
  if (context && context.n < 1) problems.push('needs at least one row of data.');
  if (context && context.n > SCORE_MAX_ROWS) {
    problems.push(
      `needs at most ${formatCount(SCORE_MAX_ROWS)} rows, so that its selection scores stay exact.`,
    );
  }
  if (context && deltaIsZero(context)) problems.push(deltaProblem(MST_ID));
  return { ...domain, problems };
}

export function mstAssumptions(domain: PgmDomain, context: PublicContext): string[] {
  return [
    ...standardAssumptions(context.schema, context.seeded),
    ...binnedDomainAssumptions(domain.codings, context.schema),
    'The budget is composed in zero-concentrated DP (ρ) and stated as (ε, δ) by the conversion of Canonne, Kamath & ' +
      'Steinke 2020 (Corollary 13). Sensitivities are for replacing one row: √2 in L2 for a histogram (ρ = 1/σ² ' +
      "per histogram), 2 for a pair's L1 score.",
    'Each exponential-mechanism round is ε-DP with bounded range, hence ε²/8-zCDP (Cesar & Rogers 2021); it is ' +
      'sampled exactly, with scores rounded to the grid 2^-20 so that the sensitivity holds exactly.',
    'Later steps depend on earlier outputs (the merged levels, the chosen edges): adaptive composition of zCDP ' +
      'steps whose costs are fixed in advance.',
    `All ${context.releases === 1 ? 'synthetic rows' : `${context.releases} releases`} are drawn from one fitted model (post-processing): releases do not split the budget.`,
  ];
}

/** Plans MST's budget for the domain and reserves its three steps; claim() and run() both call it. */
export function reserveMst(
  accountant: Pick<ZcdpAccountant, 'reserve' | 'rhoBudget'>,
  domain: PgmDomain,
): MstBudgetPlan {
  const d = domain.sizes.length;
  const plan = planMstBudget(accountant.rhoBudget, d);
  reserveMstBudget(accountant, plan, d);
  return plan;
}

function claim(params: ParamValues, context: PublicContext): PrivacyClaim {
  const domain = planMstDomain(context.schema, params, context);
  if (domain.problems.length > 0) throw new Error(`${MST_ID} cannot run: ${domain.problems.join(' ')}`);
  const accountant = zcdpAccountantFor(context, MST_ID);
  reserveMst(accountant, domain);
  return accountant.claim(mstAssumptions(domain, context));
}

function describe(params: ParamValues, context: PublicContext): string[] {
  const domain = planMstDomain(context.schema, params, context);
  if (domain.problems.length > 0) return [];
  const d = domain.sizes.length;
  const plan = planMstBudget(zcdpAccountantFor(context, MST_ID).rhoBudget, d);
  const largestPair = [...domain.sizes]
    .sort((x, y) => y - x)
    .slice(0, 2)
    .reduce((x, y) => x * y, 1);
  return [
    `Noise: σ = ${sigmaInWords(plan.oneWaySigma2)} on each one-way histogram, σ = ${sigmaInWords(plan.twoWaySigma2)} on each of the ${d - 1} two-way histograms of the tree; each of the ${d - 1} edge choices is an exponential mechanism with ε = ${epsilonInWords(plan.selectionEpsilon)}.`,
    `Model: ${d - 1} two-way cliques of at most ${formatCount(largestPair)} cells each (before merging rare levels); ${formatCount((d * (d - 1)) / 2)} column pairs are scored.`,
  ];
}

/** Everything about MST but its run: what the catalogue, the form, the claim panel and the CLI need. */
export const mstMeta: Omit<Mechanism, 'run'> = {
  id: MST_ID,
  label: 'MST (maximum spanning tree of marginals)',
  summary:
    'Noisy one- and two-way marginals on a privately chosen tree of column pairs, fitted by a graphical model; keeps the strongest pairwise relationships.',
  reference:
    'McKenna, Miklau & Sheldon, Winning the NIST contest: a scalable and general approach to differentially private synthetic data, JPC 2021, §4 (MST)',
  supports: { numeric: true, categorical: true },
  fit: mstFit,
  params: MST_PARAMS,
  claim,
  describe,
  check: (schema, params, context) => planMstDomain(schema, params, context).problems,
};
