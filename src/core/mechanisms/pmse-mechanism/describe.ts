import { releaseEpsilonForDescription } from '../common/claims/release-epsilon';
import type { PublicContext } from '../types';
import type { PmsePlan } from './plan-types';
import { pmseQualityOf } from './pmse-params';
import { qualitySensitivity } from './target';
import { publicWarnings } from './diagnostics';

/**
 * Public facts about the planned synthesis model g(θ), from the schema and parameters only:
 * the number of parameters k (the dimension the MCMC explores) with its split by column, and the
 * public warning when ε/(2lΔu) is too small for the exponential mechanism to concentrate.
 * Example: the paper's two numeric columns X1, X2 → "… 5 parameters: X1 2, X2 3". Nothing when the
 * column order cannot be modelled (check says why).
 */
export function describePmsePlan({ settings, model }: PmsePlan, context: PublicContext): string[] {
  if (model === undefined) return [];
  const byColumn = model.columns.map((column) => `${column.name} ${column.parameterCount}`).join(', ');
  const lines = [`Synthesis model: ${model.parameterCount} parameters (θ), in column order: ${byColumn}.`];
  const releaseEpsilon = releaseEpsilonForDescription(context);
  if (releaseEpsilon === null) return lines;
  const sensitivity = qualitySensitivity(pmseQualityOf(settings), context.n);
  return [...lines, ...publicWarnings(releaseEpsilon, context.n, sensitivity)];
}
