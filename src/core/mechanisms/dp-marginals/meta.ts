import { Accountant, type BudgetReserver } from '../../privacy/accountant';
import { parseBudget } from '../../privacy/budget';
import type { MeterStep } from '../../privacy/meter';
import { addRemoveAssumptions, binningRows } from '../neighbouring';
import { histogramClaim } from '../common/claims/histogram-claim';
import type { Rational } from '../../rng/rational';
import type { Schema } from '../../table/types';
import { planBinnedDomain, type BinnedDomain } from '../common/binning/binned-domain';
import { BINNING_PARAMS, binningChoiceFromParams } from '../common/coding/binning-params';
import { binnedMechanismAssumptions } from '../common/binning/binned-mechanism';
import { defineMechanismMeta, type PlanProblems } from '../shape/define-meta';
import type { ParamValues, PublicContext } from '../types';
import { dpMarginalsFit } from './fit';

export const DP_MARGINALS_ID = 'dp-marginals';

/** The domain `check`, `claim` and `run` share, from the schema, the parameters and n only. */
export function planDpMarginalsDomain(
  schema: Schema,
  params: ParamValues,
  n: number | undefined,
): BinnedDomain {
  return planBinnedDomain(schema, binningChoiceFromParams(params), n, false);
}

/** What the settings fix before any data is read: the binned domain (one marginal per column) and its problems. */
export interface DpMarginalsPlan extends PlanProblems {
  domain: BinnedDomain;
}

/** The plan `check`, `claim` and the run share. */
export function planDpMarginals(
  schema: Schema,
  params: ParamValues,
  context?: PublicContext,
): DpMarginalsPlan {
  const domain = planDpMarginalsDomain(schema, params, binningRows(context));
  return { domain, problems: domain.problems };
}

/** One marginal's share of ε and the step its noise charges. */
export interface MarginalBudget {
  epsilon: Rational;
  step: MeterStep;
}

/**
 * ε/M per release (each release draws fresh noise), then that share split evenly over the p
 * one-way marginals (sequential composition: one row contributes to every marginal). Returns the
 * budget and step of marginal j of release r at [r][j]. Shared by claim() and run().
 */
export function reserveMarginalBudgets(
  accountant: BudgetReserver,
  total: Rational,
  releases: number,
  domain: BinnedDomain,
): MarginalBudget[][] {
  if (domain.codings.length === 0) return []; // nothing to release; check() reports the empty schema
  const perMarginal = Accountant.split(Accountant.split(total, releases), domain.codings.length);
  return Array.from({ length: releases }, (_, r) =>
    domain.codings.map((coding) => {
      const epsilon = perMarginal;
      const step = accountant.reserve(
        `noisy ${coding.levels}-cell marginal of \`${coding.name}\`, release ${r + 1} of ${releases}`,
        epsilon,
      );
      return { epsilon, step };
    }),
  );
}

export function dpMarginalsAssumptions(domain: BinnedDomain, context: PublicContext): string[] {
  return binnedMechanismAssumptions(domain, context, [
    'Columns are synthesized independently of each other: relationships between columns are not kept.',
    ...addRemoveAssumptions(
      context,
      'each release has as many rows as the mean, weighted by 1/cells, of its noisy marginals’ sums (negatives set ' +
        'to 0) each less cells·E[max(Z, 0)], the positive noise its cells add on average; rounded, at least 0 ' +
        '(post-processing)',
    ),
  ]);
}

/** The run's whole ε, as the user gave it. */
function totalEpsilon(context: PublicContext): Rational {
  return parseBudget(context.epsilon, context.delta).epsilon;
}

/** Independent noisy one-way marginals, the baseline of Bindschaedler, Shokri & Gunter (plausible deniability, §3.2). */
export const dpMarginalsMeta = defineMechanismMeta({
  sweepRepeats: 'independent-releases',
  id: DP_MARGINALS_ID,
  label: 'Noisy one-way marginals',
  summary:
    'Each column drawn independently from its own noisy histogram (exact discrete Laplace); keeps marginals, drops relationships.',
  reference:
    'Bindschaedler, Shokri & Gunter, Plausible deniability for privacy-preserving data synthesis, §3.2 (marginal synthesis baseline)',
  supports: { numeric: true, categorical: true },
  supportsNeighbouring: ['replace-one', 'add-remove'],
  fit: dpMarginalsFit,
  params: BINNING_PARAMS,
  plan: planDpMarginals,
  accountant: (context, meter) => new Accountant(parseBudget(context.epsilon, context.delta), meter),
  reserve: (plan, accountant, context) =>
    reserveMarginalBudgets(accountant, totalEpsilon(context), context.releases, plan.domain),
  assumptions: (plan, context) => dpMarginalsAssumptions(plan.domain, context),
  // Pure ε with what it implies under the other relation (the meter's relation is the run's).
  finishClaim: (claim, { accountant, context }) =>
    histogramClaim(claim, accountant.meter.neighbouring, totalEpsilon(context)),
});
