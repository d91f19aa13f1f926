import { Accountant } from '../../privacy/accountant';
import { parseBudget } from '../../privacy/budget';
import type { Schema } from '../../table/types';
import { defineMechanismMeta } from '../shape/define-meta';
import type { ParamValues, PublicContext } from '../types';
import { checkPmseMechanism } from './check';
import { pmseSettingsAssumptions, pmseSchemaRead, pmseUnprovenBound } from './claim';
import { describePmsePlan } from './describe';
import { buildSynthesisModel, describeOrderProblems, type SynthesisModel } from './model';
import { PMSE_PARAMS, pmseQualityOf, readPmseSettings } from './pmse-params';
import { reserveReleaseBudget } from './release-budget';
import { pmseMechanismFit } from './fit';
import type { PmsePlan } from './plan-types';

export const PMSE_MECHANISM_ID = 'pmse-mechanism';

export type { PmsePlan };

/**
 * The plan `check`, `claim`, `describe` and the run share: the settings, the model (built when the
 * column order is a permutation of the schema), and every problem: `checkPmseMechanism`'s, a column
 * the model cannot use, and no rows (when n is known).
 */
export function planPmseMechanism(schema: Schema, params: ParamValues, context?: PublicContext): PmsePlan {
  const settings = readPmseSettings(params, schema);
  const problems = checkPmseMechanism(schema, params, context);
  let model: SynthesisModel | undefined;
  if (describeOrderProblems(schema, settings.columnOrder).length === 0) {
    try {
      model = buildSynthesisModel(schema, settings.columnOrder, new Set(settings.missingColumns));
    } catch (error) {
      if (!(error instanceof RangeError)) throw error;
      problems.push(error.message);
    }
  }
  if (context !== undefined && context.n < 1) problems.push('The pMSE mechanism needs at least one row.');
  return { settings, schema, model, problems };
}

/**
 * Snoke & Slavković's pMSE mechanism: exponential mechanism over synthesis-model parameters, sampled
 * by MCMC. Pure ε-DP by sequential composition of l exponential-mechanism draws at ε/l each (Algorithm 2
 * and Theorem 1), for exact draws; the synthetic data are post-processing (Proposition 1). The bound is
 * "unproven" because the draws come from MCMC (pmseUnprovenBound).
 */
export const pmseMechanismMeta = defineMechanismMeta({
  sweepRepeats: 'shared-chains',
  // Each chain places draws `thinning` apart in its `steps` post-burn-in iterations (drawIterations).
  sweepRepeatsPerRun: (params) =>
    Number(params.chains) * (Math.floor((Number(params.steps) - 1) / Number(params.thinning)) + 1),
  id: PMSE_MECHANISM_ID,
  label: 'pMSE mechanism',
  summary:
    'Parameters of a sequential parametric model drawn by the exponential mechanism, sampled by MCMC, with a propensity-tree pMSE as quality (by default the best depth-2 tree on a grid of synthetic quantiles), then data from the model; no bounds needed.',
  reference:
    'Snoke & Slavković, pMSE Mechanism: Differentially Private Synthetic Data with Maximal Distributional Similarity (PSD 2018), §3–4, Algorithm 2',
  supports: { numeric: true, categorical: true },
  fit: pmseMechanismFit,
  params: PMSE_PARAMS,
  schemaRead: pmseSchemaRead,
  plan: planPmseMechanism,
  accountant: (context, meter) => new Accountant(parseBudget(context.epsilon, context.delta), meter),
  // ε/l for each of the l releases, one step each.
  reserve: (plan, accountant, context) =>
    reserveReleaseBudget(accountant, context, pmseQualityOf(plan.settings)),
  assumptions: (plan, context) => pmseSettingsAssumptions(plan.settings, context),
  unproven: (plan) => pmseUnprovenBound(plan.settings),
  describe: describePmsePlan,
});
