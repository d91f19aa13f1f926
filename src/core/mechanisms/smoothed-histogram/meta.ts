import { roundDown } from '../../privacy/round-up';
import { Accountant, type BudgetReserver } from '../../privacy/accountant';
import type { MeterStep } from '../../privacy/meter';
import { parseBudget } from '../../privacy/budget';
import type { Rational } from '../../rng/rational';
import type { Schema } from '../../table/types';
import { planBinnedDomain, type BinnedDomain } from '../common/binning/binned-domain';
import { describeBinnedDomain } from '../common/binning/describe-domain';
import { BINNING_PARAMS, binningChoiceFromParams } from '../common/coding/binning-params';
import { formatCount } from '../../format/format-count';
import { binnedMechanismAssumptions } from '../common/binning/binned-mechanism';
import { defineMechanismMeta, type PlanProblems } from '../shape/define-meta';
import type { ParamValues, PublicContext } from '../types';
import { smoothingWeight } from '../../privacy/metered/smoothing-weight';
import { smoothedHistogramFit } from './fit';

export const SMOOTHED_HISTOGRAM_ID = 'smoothed-histogram';

/** The domain `check`, `claim`, `describe` and `run` share, from the schema, the parameters and n only. */
export function planSmoothedHistogramDomain(
  schema: Schema,
  params: ParamValues,
  n: number | undefined,
): BinnedDomain {
  return planBinnedDomain(schema, binningChoiceFromParams(params), n, true);
}

/** What the settings fix before any data is read: the binned domain and its problems. */
export interface SmoothedHistogramPlan extends PlanProblems {
  domain: BinnedDomain;
}

/** The plan `check`, `claim`, `describe` and the run share. */
export function planSmoothedHistogram(
  schema: Schema,
  params: ParamValues,
  context?: PublicContext,
): SmoothedHistogramPlan {
  const domain = planSmoothedHistogramDomain(schema, params, context?.n);
  return { domain, problems: domain.problems };
}

/** The public plan of a run: λ from K, n, the total rows T = M·n and ε rounded down. */
export interface SmoothingPlan {
  lambda: number;
  totalDrawnRows: number;
}

export function smoothingPlan(
  domainCells: number,
  n: number,
  releases: number,
  epsilon: Rational,
): SmoothingPlan {
  const totalDrawnRows = n * releases;
  return { lambda: smoothingWeight(domainCells, n, totalDrawnRows, epsilon.toNumberDown()), totalDrawnRows };
}

/**
 * One step spends the whole ε: the M·n draws from one smoothed histogram (privacy/metered/
 * smoothing-weight.ts). Returns its handle: each release's n draws charge ε/M to it.
 */
export function reserveSmoothedHistogramBudget(
  accountant: BudgetReserver,
  epsilon: Rational,
  domain: BinnedDomain,
  context: PublicContext,
  plan: SmoothingPlan,
): MeterStep {
  return accountant.reserve(
    `${formatCount(plan.totalDrawnRows)} rows (${context.releases} × ${formatCount(context.n)}) drawn from the ` +
      `smoothed histogram of ${formatCount(domain.domainCells)} cells, λ = ${roundDown(plan.lambda, 6)}`,
    epsilon,
  );
}

export function smoothedHistogramAssumptions(domain: BinnedDomain, context: PublicContext): string[] {
  return binnedMechanismAssumptions(domain, context, [
    'The privacy comes from sampling: the M releases of n rows are M·n draws from one smoothed histogram, ' +
      'and λ is set for that total; releasing more rows from it would spend more ε.',
  ]);
}

/** The one step's handle, the whole ε it spends and the smoothing it was planned with. */
export interface SmoothedHistogramReserved {
  step: MeterStep;
  epsilon: Rational;
  smoothing: SmoothingPlan;
}

/** Plans λ for the M·n draws and reserves the one step; the claim and the run both call it. */
function reserveSmoothedHistogram(
  { domain }: SmoothedHistogramPlan,
  accountant: Accountant,
  context: PublicContext,
): SmoothedHistogramReserved {
  const epsilon = parseBudget(context.epsilon, context.delta).epsilon;
  const smoothing = smoothingPlan(domain.domainCells, context.n, context.releases, epsilon);
  const step = reserveSmoothedHistogramBudget(accountant, epsilon, domain, context, smoothing);
  return { step, epsilon, smoothing };
}

/**
 * The domain size and λ: with T = M·n draws, λ ≥ K/(K + n(e^(ε/T) − 1)) ≈ K/(K + ε·n/T) is close
 * to 1 unless ε is large or K small, and the rows are then nearly uniform over the domain.
 */
function describeSmoothedHistogram({ domain }: SmoothedHistogramPlan, context: PublicContext): string[] {
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
export const smoothedHistogramMeta = defineMechanismMeta({
  sweepRepeats: 'independent-releases',
  id: SMOOTHED_HISTOGRAM_ID,
  label: 'Smoothed histogram',
  summary:
    'Rows drawn from a mixture of the empirical cross-tabulation and the uniform distribution; no noise, the sampling is the privacy.',
  reference:
    'Bowen & Liu, Comparative study of differentially private data synthesis methods, §3.1.2, eqs. 6–7 (Wasserman & Zhou 2010)',
  supports: { numeric: true, categorical: true },
  fit: smoothedHistogramFit,
  params: BINNING_PARAMS,
  plan: planSmoothedHistogram,
  accountant: (context, meter) => new Accountant(parseBudget(context.epsilon, context.delta), meter),
  reserve: reserveSmoothedHistogram,
  assumptions: (plan, context) => smoothedHistogramAssumptions(plan.domain, context),
  describe: describeSmoothedHistogram,
});
