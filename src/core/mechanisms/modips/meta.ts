import { describeBinnedDomain } from '../common/binning/describe-domain';
import { formatCount } from '../../format/format-count';
import { noiseDominanceWarning } from '../common/noisy-counts/noise-dominance';
import { releaseEpsilonForDescription } from '../common/claims/release-epsilon';
import { Accountant } from '../../privacy/accountant';
import { parseBudget } from '../../privacy/budget';
import type { Schema } from '../../table/types';
import { defineMechanismMeta } from '../shape/define-meta';
import type { ParamValues, PublicContext } from '../types';
import { MODIPS_PARAMS } from './params';
import { assumptionsFor, MODIPS_ID, planModips, reserveModips, type ModipsPlan } from './plan';
import { modipsFit } from './fit';

/** The model's size and per-release statistics, from the plan; nothing when the plan has problems. */
function describeModips(plan: ModipsSpecPlan, context: PublicContext): string[] {
  if (plan.problems.length > 0) return [];
  if (plan.model === 'normal') {
    const p = plan.columns.length;
    return [
      `Normal model: ${p} numeric ${p === 1 ? 'column' : 'columns'}, each with a noisy missing count, mean and ` +
        'variance per release; the synthetic values come from the posterior draw of (μ, σ²).',
    ];
  }
  if (plan.model === 'glom') {
    const p = plan.numeric.length;
    return [
      `General location model: ${formatCount(plan.cells)} categorical ${plan.cells === 1 ? 'cell' : 'cells'} ` +
        `(a missing-value level per column that can be missing included) and ${p} numeric ${p === 1 ? 'column' : 'columns'}; ` +
        'per release, noisy cell counts, cell sums, the pooled within-cell scatter and missing counts; the ' +
        'synthetic values are normal within each drawn cell, with one covariance for all cells.',
    ];
  }
  const lines = describeBinnedDomain(plan.domain);
  const releaseEpsilon = releaseEpsilonForDescription(context);
  return releaseEpsilon === null
    ? lines
    : [...lines, ...noiseDominanceWarning(plan.domain.domainCells, context.n, releaseEpsilon)];
}

/** The plan `check`, `claim`, `describe` and the run share (planModips), with the schema the run decodes to. */
export type ModipsSpecPlan = ModipsPlan & { schema: Schema };

export function planModipsSpec(schema: Schema, params: ParamValues, context?: PublicContext): ModipsSpecPlan {
  return { ...planModips(schema, params, context?.n), schema };
}

/** Model-based DIPS (Liu 2016b; Bowen & Liu §3.2.2), without its run code. */
export const modipsMeta = defineMechanismMeta({
  id: MODIPS_ID,
  label: 'MODIPS (model-based)',
  summary:
    'Sanitizes the sufficient statistics of a Bayesian model (normal, general location, or saturated log-linear), then draws the parameters from the posterior and the rows from the model.',
  reference:
    'Bowen & Liu, Comparative study of differentially private data synthesis methods, §3.2.2, §4.1–4.2, §4.3.1 and §5 (Liu 2016b)',
  supports: { numeric: true, categorical: true },
  fit: modipsFit,
  params: MODIPS_PARAMS,
  plan: planModipsSpec,
  accountant: (context, meter) => new Accountant(parseBudget(context.epsilon, context.delta), meter),
  // ε/M per release, split over the model's statistics (plan.ts), each its own step.
  reserve: (plan, accountant, context) =>
    reserveModips(accountant, parseBudget(context.epsilon, context.delta).epsilon, context.releases, plan),
  assumptions: assumptionsFor,
  describe: describeModips,
});
