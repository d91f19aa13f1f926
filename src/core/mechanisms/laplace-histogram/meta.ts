import { Accountant, type BudgetReserver } from '../../privacy/accountant';
import { parseBudget } from '../../privacy/budget';
import type { MeterStep } from '../../privacy/meter';
import { addRemoveAssumptions, binningRows, publicRows, relationOf } from '../neighbouring';
import type { Rational } from '../../rng/rational';
import type { Schema } from '../../table/types';
import { planBinnedDomain, type BinnedDomain } from '../common/binning/binned-domain';
import { describeBinnedDomain } from '../common/binning/describe-domain';
import { formatCount } from '../../format/format-count';
import { noiseDominanceWarning } from '../common/noisy-counts/noise-dominance';
import { binnedMechanismAssumptions } from '../common/binning/binned-mechanism';
import { histogramClaim } from '../common/claims/histogram-claim';
import { releaseEpsilonForDescription } from '../common/claims/release-epsilon';
import { defineMechanismMeta, type PlanProblems } from '../shape/define-meta';
import type { ParamValues, PublicContext } from '../types';
import { LAPLACE_HISTOGRAM_PARAMS, laplaceHistogramSettings, type LaplaceHistogramSettings } from './params';
import { laplaceHistogramFit } from './fit';

export const LAPLACE_HISTOGRAM_ID = 'laplace-histogram';

/** The domain `check`, `claim`, `describe` and `run` share, from the schema, the parameters and n only. */
export function planLaplaceHistogramDomain(
  schema: Schema,
  params: ParamValues,
  n: number | undefined,
): BinnedDomain {
  return planBinnedDomain(schema, laplaceHistogramSettings(params).binning, n, true);
}

/** The domain's size and, when noise would dominate the drawn rows, a public warning (ε/M per release). */
function describeLaplaceHistogram({ domain }: LaplaceHistogramPlan, context: PublicContext): string[] {
  const lines = describeBinnedDomain(domain);
  if (lines.length === 0) return lines;
  const releaseEpsilon = releaseEpsilonForDescription(context);
  // The warning compares the noise with n: only when n is public.
  const rows = publicRows(context);
  if (releaseEpsilon === null || rows === undefined) return lines;
  return [...lines, ...noiseDominanceWarning(domain.domainCells, rows, releaseEpsilon)];
}

/** Why the settings cannot be used under the context's relation: clamping to [0, n] reads n. */
export function laplaceHistogramRelationProblems(
  params: ParamValues,
  context?: Pick<PublicContext, 'neighbouring'>,
): string[] {
  return relationOf(context) === 'add-remove' &&
    laplaceHistogramSettings(params).repair === 'boundary-inflated'
    ? [
        'clamping noisy counts to [0, n] (boundary inflated) reads n, which is private under add/remove neighbours: set negative noisy counts to 0.',
      ]
    : [];
}

/** What the settings fix before any data is read: the binned domain, the noisy-count repair, the problems. */
export interface LaplaceHistogramPlan extends PlanProblems {
  domain: BinnedDomain;
  settings: LaplaceHistogramSettings;
}

/** The plan `check`, `claim`, `describe` and the run share: the domain's problems and the relation's. */
export function planLaplaceHistogram(
  schema: Schema,
  params: ParamValues,
  context?: PublicContext,
): LaplaceHistogramPlan {
  const domain = planLaplaceHistogramDomain(schema, params, binningRows(context));
  return {
    domain,
    settings: laplaceHistogramSettings(params),
    problems: [...domain.problems, ...laplaceHistogramRelationProblems(params, context)],
  };
}

/** One release's share of ε and the step its noise charges. */
export interface ReleaseBudget {
  epsilon: Rational;
  step: MeterStep;
}

/**
 * Reserves ε/M for each of the M releases (sequential composition: every release draws fresh
 * noise from the same rows) and returns the per-release budgets with their step handles. Shared by
 * claim() and run() so that the claim shown before a run is exactly the one the run produces.
 */
export function reserveReleaseBudgets(
  accountant: BudgetReserver,
  total: Rational,
  releases: number,
  domainCells: number,
): ReleaseBudget[] {
  return Array.from({ length: releases }, (_, i) => {
    const epsilon = Accountant.split(total, releases);
    const step = accountant.reserve(
      `noisy counts of the ${formatCount(domainCells)}-cell cross-tabulation, release ${i + 1} of ${releases}`,
      epsilon,
    );
    return { epsilon, step };
  });
}

export function laplaceHistogramAssumptions(domain: BinnedDomain, context: PublicContext): string[] {
  return binnedMechanismAssumptions(
    domain,
    context,
    addRemoveAssumptions(
      context,
      'each release has as many rows as the sum of its noisy counts (negatives set to 0) less K·E[max(Z, 0)], the ' +
        'positive noise its K cells add on average, rounded, at least 0 (post-processing; it can fall below n by up to ' +
        'that much, and over a large domain it is itself very noisy)',
    ),
  );
}

/** The run's whole ε, as the user gave it. */
function totalEpsilon(context: PublicContext): Rational {
  return parseBudget(context.epsilon, context.delta).epsilon;
}

/**
 * The Laplace sanitizer on the full cross-tabulation with perturbed histograms for numeric
 * columns (Bowen & Liu, DIPS comparative study §3.1.1–3.1.2 and the NP-DIPS of §4.3).
 */
export const laplaceHistogramMeta = defineMechanismMeta({
  sweepRepeats: 'independent-releases',
  id: LAPLACE_HISTOGRAM_ID,
  label: 'Laplace histogram',
  summary:
    'Exact discrete Laplace noise on every cell of the full cross-tabulation (numeric columns binned), rows drawn from the noisy counts.',
  reference:
    'Bowen & Liu, Comparative study of differentially private data synthesis methods, §3.1.1–3.1.2 (Laplace sanitizer, perturbed histogram) and §4.3',
  supports: { numeric: true, categorical: true },
  supportsNeighbouring: ['replace-one', 'add-remove'],
  fit: laplaceHistogramFit,
  params: LAPLACE_HISTOGRAM_PARAMS,
  plan: planLaplaceHistogram,
  accountant: (context, meter) => new Accountant(parseBudget(context.epsilon, context.delta), meter),
  // ε/M per release of the context's ε, on whatever accountant the run gives (a test may give a smaller one).
  reserve: (plan, accountant, context) =>
    reserveReleaseBudgets(accountant, totalEpsilon(context), context.releases, plan.domain.domainCells),
  assumptions: (plan, context) => laplaceHistogramAssumptions(plan.domain, context),
  // Pure ε with what it implies under the other relation (the meter's relation is the run's).
  finishClaim: (claim, { accountant, context }) =>
    histogramClaim(claim, accountant.meter.neighbouring, totalEpsilon(context)),
  describe: describeLaplaceHistogram,
});
