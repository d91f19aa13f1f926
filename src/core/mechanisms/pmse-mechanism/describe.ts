import type { Schema } from '../../table/types';
import { releaseEpsilonForDescription } from '../common/release-epsilon';
import type { ParamValues, PublicContext } from '../types';
import { buildSynthesisModel, describeOrderProblems } from './model';
import { pmseQualityOf, readPmseSettings } from './pmse-params';
import { qualitySensitivity } from './target';
import { publicWarnings } from './diagnostics';

/**
 * Public facts about the configured synthesis model g(θ), from the schema and parameters only:
 * the number of parameters k (the dimension the MCMC explores) with its split by column, and the
 * public warning when ε/(2lΔu) is too small for the exponential mechanism to concentrate.
 * Example: the paper's two numeric columns X1, X2 → "… 5 parameters: X1 2, X2 3".
 */
export function describePmseMechanism(params: ParamValues, context: PublicContext): string[] {
  const schema: Schema = context.schema;
  const settings = readPmseSettings(params, schema);
  if (describeOrderProblems(schema, settings.columnOrder).length > 0) return [];
  const model = buildSynthesisModel(schema, settings.columnOrder, new Set(settings.missingColumns));
  const byColumn = model.columns.map((column) => `${column.name} ${column.parameterCount}`).join(', ');
  const lines = [`Synthesis model: ${model.parameterCount} parameters (θ), in column order: ${byColumn}.`];
  const releaseEpsilon = releaseEpsilonForDescription(context);
  if (releaseEpsilon === null) return lines;
  const sensitivity = qualitySensitivity(pmseQualityOf(settings), context.n);
  return [...lines, ...publicWarnings(releaseEpsilon, context.n, sensitivity)];
}
