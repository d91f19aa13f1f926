import type { Schema } from '../../table/types';
import { budgetProblems, defineMechanismMeta } from '../shape/define-meta';
import { InputError } from '../../table/errors';
import type { ParamValues, PublicContext } from '../types';
import { clustmixClaimAssumptions } from './claim';
import { describeClustmixPlan } from './describe';
import { CLUSTMIX_PARAMS, readClustmixSettings } from './params';
import {
  buildClustmixPlan,
  clustmixAccountant,
  clustmixProblems,
  reserveClustmixBudget,
  type ClustmixPlan,
  type ClustmixSpecPlan,
} from './plan';
import { clustmixFit } from './fit';

export const CLUSTMIX_ID = 'clustmix';

export type { ClustmixSpecPlan };

export function planClustmix(schema: Schema, params: ParamValues, context?: PublicContext): ClustmixSpecPlan {
  const settings = readClustmixSettings(params);
  const problems = clustmixProblems(schema, params, context);
  const plan: ClustmixSpecPlan = { schema, settings, problems };
  if (context === undefined || problems.length > 0 || budgetProblems(context).length > 0) return plan;
  return { ...plan, mixture: buildClustmixPlan(schema, settings, context) };
}

/** The mixture's plan; one with problems cannot be reserved (InputError, as a run refuses it). */
export function mixtureOf(plan: ClustmixSpecPlan): ClustmixPlan {
  if (plan.mixture === undefined) {
    throw new InputError(`${CLUSTMIX_ID} cannot run: ${plan.problems.join(' ')}`);
  }
  return plan.mixture;
}

/** ClustMix (3A's Approximate and Anonymize, optionally Adapt), re-derived for replace-one neighbours. */
export const clustmixMeta = defineMechanismMeta({
  id: CLUSTMIX_ID,
  label: 'ClustMix (noisy clusters)',
  summary:
    'An isotropic Gaussian mixture from noisy cluster counts, clipped residual sums and spreads found by noisy k-means iterations; optional label-aware adaptation of the centres.',
  reference:
    'Approximate, Adapt, Anonymize (3A): a framework for privacy-preserving training data release for machine learning (2023), ClustMix: Methods, eqs. 1–7 and Theorem 2, re-derived for replace-one neighbours in zCDP',
  supports: { numeric: true, categorical: true },
  fit: clustmixFit,
  params: CLUSTMIX_PARAMS,
  plan: planClustmix,
  // zCDP: ρ from (ε, δ) (Canonne, Kamath & Steinke 2020, Cor. 13); δ = 0 is refused (BudgetError).
  accountant: (context, meter) => clustmixAccountant(context, meter),
  // Every step in order: the T iterations, the final release, the adapt moments.
  reserve: (plan, accountant) => reserveClustmixBudget(accountant, mixtureOf(plan)),
  assumptions: (plan, context) => clustmixClaimAssumptions(mixtureOf(plan), context),
  describe: describeClustmixPlan,
});
