import { standardAssumptions } from '../../privacy/assumptions';
import { withOtherRelation } from '../../privacy/relation-conversion';
import { binningRows, publicRows, relationOf } from '../neighbouring';
import type { PrivacyClaim } from '../../privacy/types';
import type { ZcdpAccountant } from '../../privacy/zcdp-accountant';
import type { Schema } from '../../table/types';
import { formatCount } from '../../format/format-count';
import { deltaIsZero, deltaProblem, zcdpAccountantFor } from '../common/graphical-models/pgm-budget';
import { pgmRelationAssumptions } from '../common/graphical-models/relation-assumptions';
import {
  marginalLimitProblem,
  PGM_BINNING_PARAMS,
  planPgmDomain,
  SAMPLING_PARAM,
  type PgmDomain,
} from '../common/graphical-models/pgm-domain';
import { binnedDomainAssumptions } from '../common/claims/public-assumptions';
import { QUANTILE_BINNING_PARAMS } from '../common/coding/binning-params';
import {
  pgmBinPlan,
  pgmRhoAfterBinning,
  reservePgmBinStep,
} from '../common/graphical-models/pgm-quantile-step';
import { quantileBinSentences } from '../common/binning/describe-bin-shape';
import type { ParamSpec, ParamValues, PublicContext } from '../types';
import type { MeterStep } from '../../privacy/meter';
import { InputError } from '../../table/errors';
import type { QuantileBinPlan } from '../common/binning/quantile-bins';
import type { SamplingRule } from '../../models/pgm/sample-model';
import { defineMechanismMeta, type PlanProblems } from '../shape/define-meta';
import {
  planMstBudget,
  mstReplaceOneRho,
  reserveMstBudget,
  type MstBudgetPlan,
  type MstSteps,
} from './budget-plan';
import { epsilonInWords, sigmaInWords } from '../../privacy/in-words';
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
  ...QUANTILE_BINNING_PARAMS,
];

/** Domain and problems from public facts; shared by check, claim and run. */
export function planMstDomain(
  schema: Schema,
  params: ParamValues,
  context?: Pick<PublicContext, 'n' | 'epsilon' | 'delta' | 'neighbouring'>,
): PgmDomain {
  // Under add/remove n is private: the binning uses a fixed reference instead (neighbouring.ts).
  const domain = planPgmDomain(schema, params, binningRows(context));
  const rows = publicRows(context);
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
  if (rows !== undefined && rows < 1) problems.push('needs at least one row of data.');
  if (context && deltaIsZero(context)) problems.push(deltaProblem(MST_ID));
  return { ...domain, problems };
}

export function mstAssumptions(domain: PgmDomain, context: PublicContext): string[] {
  return [
    ...standardAssumptions(context.schema, context.seeded),
    ...binnedDomainAssumptions(domain.codings, context.schema),
    ...pgmRelationAssumptions(
      context,
      { replaceOne: "2 for a pair's L1 score", addRemove: "1 for a pair's L1 score" },
      'the synthetic row count, the minimum-variance estimate of the total from the d noisy one-way histograms (at least 1)',
    ),
    'Each exponential-mechanism round is ε-DP with bounded range, hence ε²/8-zCDP (Cesar & Rogers 2021); it is ' +
      'sampled exactly, with scores rounded to the grid 2^-20 so that the sensitivity holds exactly.',
    'Later steps depend on earlier outputs (the merged levels, the chosen edges): adaptive composition of zCDP ' +
      'steps whose costs are fixed in advance.',
    `All ${context.releases === 1 ? 'synthetic rows' : `${context.releases} releases`} are drawn from one fitted model (post-processing): releases do not split the budget.`,
  ];
}

/** What the settings fix before any data is read: the domain (quantile bins included), the model's settings, the problems. */
export interface MstPlan extends PlanProblems {
  domain: PgmDomain;
  /** Merge each column's levels below 3σ₁ (compress-levels.ts). */
  compress: boolean;
  /** Most mirror-descent iterations. */
  iterations: number;
  sampling: SamplingRule;
}

/** The plan check, claim, describe and the run share: planMstDomain with MST's settings. */
export function planMst(schema: Schema, params: ParamValues, context?: PublicContext): MstPlan {
  const domain = planMstDomain(schema, params, context);
  return {
    domain,
    compress: params.compress !== false,
    iterations: Number(params.iterations),
    sampling: params.sampling as SamplingRule,
    problems: domain.problems,
  };
}

/** What MST's reservations return: the binning step (with quantile bins), the budget plan and its three steps. */
export interface MstReserved {
  bin: { plan: QuantileBinPlan; step: MeterStep } | undefined;
  budget: MstBudgetPlan;
  steps: MstSteps;
}

/**
 * Reserves MST's steps for the domain in the order the run spends them: the quantile binning step
 * (when the domain has one), then the one-way histograms, the selection and the two-way histograms,
 * planned with the ρ left after binning. The claim shown and the run's both come from this.
 */
export function reserveMst(
  accountant: Pick<ZcdpAccountant, 'reserve' | 'rhoBudget' | 'meter'>,
  domain: PgmDomain,
): MstReserved {
  const d = domain.sizes.length;
  const bin = reservePgmBinStep(accountant, domain);
  const rho = pgmRhoAfterBinning(accountant.rhoBudget, domain, accountant.meter.neighbouring);
  const budget = planMstBudget(rho, d, accountant.meter.neighbouring);
  const steps = reserveMstBudget(accountant, budget, d);
  return { bin, budget, steps };
}

/**
 * The accountant's claim on what an MST plan reserved, with what it implies under the other relation:
 * nothing for replace-one; for add/remove, the replace-one ρ of the same steps (mstReplaceOneRho, the
 * binning step included when the domain has quantile bins) at the same δ.
 */
export function mstClaim(
  claim: PrivacyClaim,
  accountant: Pick<ZcdpAccountant, 'delta' | 'rhoBudget'>,
  plan: MstBudgetPlan,
  domain: PgmDomain,
): PrivacyClaim {
  if (plan.neighbouring === 'replace-one') return withOtherRelation(claim);
  const binPlan = pgmBinPlan(accountant.rhoBudget, domain, 'add-remove');
  return withOtherRelation(claim, {
    notion: 'zcdp',
    rho: mstReplaceOneRho(plan, domain.sizes.length, binPlan),
    delta: accountant.delta,
    why:
      'each histogram’s ρ doubles (Δ₂² = 2 against 1) and each selection round’s quadruples (score sensitivity 2 against 1, (2ε)²/8)' +
      (binPlan === undefined
        ? ''
        : binPlan.detections === 0
          ? '; the quantile bin edges keep theirs (score sensitivity 1 under both)'
          : '; the quantile bin edges keep theirs (score sensitivity 1 under both) and the point-mass counts’ ρ doubles (Δ₂² = 2 against 1)'),
  });
}

function describe({ domain }: MstPlan, context: PublicContext): string[] {
  if (domain.problems.length > 0) return [];
  const d = domain.sizes.length;
  const rhoBudget = zcdpAccountantFor(context, MST_ID).rhoBudget;
  const plan = planMstBudget(
    pgmRhoAfterBinning(rhoBudget, domain, relationOf(context)),
    d,
    relationOf(context),
  );
  const largestPair = [...domain.sizes]
    .sort((x, y) => y - x)
    .slice(0, 2)
    .reduce((x, y) => x * y, 1);
  return [
    `Noise: σ = ${sigmaInWords(plan.oneWaySigma2)} on each one-way histogram, σ = ${sigmaInWords(plan.twoWaySigma2)} on each of the ${d - 1} two-way histograms of the tree; each of the ${d - 1} edge choices is an exponential mechanism with ε = ${epsilonInWords(plan.selectionEpsilon)}.`,
    ...quantileBinSentences(pgmBinPlan(rhoBudget, domain, relationOf(context)), domain.codings),
    `Model: ${d - 1} two-way cliques of at most ${formatCount(largestPair)} cells each (before merging rare levels); ${formatCount((d * (d - 1)) / 2)} column pairs are scored.`,
  ];
}

/** Everything about MST but its run: what the catalogue, the form, the claim panel and the CLI need. */
export const mstMeta = defineMechanismMeta({
  id: MST_ID,
  label: 'MST (maximum spanning tree of marginals)',
  summary:
    'Noisy one- and two-way marginals on a privately chosen tree of column pairs, fitted by a graphical model; keeps the strongest pairwise relationships.',
  reference:
    'McKenna, Miklau & Sheldon, Winning the NIST contest: a scalable and general approach to differentially private synthetic data, JPC 2021, §4 (MST)',
  supports: { numeric: true, categorical: true },
  supportsNeighbouring: ['replace-one', 'add-remove'],
  fit: mstFit,
  params: MST_PARAMS,
  plan: planMst,
  accountant: (context, meter) => zcdpAccountantFor(context, MST_ID, meter),
  // A plan with problems has no budget plan (one column, δ = 0): refused here, so the claim says why.
  reserve: ({ domain }, accountant) => {
    if (domain.problems.length > 0)
      throw new InputError(`${MST_ID} cannot run: ${domain.problems.join(' ')}`);
    return reserveMst(accountant, domain);
  },
  assumptions: ({ domain }, context) => mstAssumptions(domain, context),
  finishClaim: (claim, { plan, accountant, reserved }) =>
    mstClaim(claim, accountant, reserved.budget, plan.domain),
  describe,
});
