import type { Schema } from '../../table/types';
import type { ParamValues, PublicContext } from '../types';
import { describeOrderProblems } from './model';
import { drawsPerChain, readPmseSettings } from './pmse-params';

/**
 * Problems that prevent a run, each a sentence: a column order that is not a permutation of the
 * schema, categorical columns without categories, unknown names among the columns that may be
 * missing, and (when the number of releases is known) draws that do not fit after burn-in.
 */
export function checkPmseMechanism(schema: Schema, params: ParamValues, context?: PublicContext): string[] {
  const settings = readPmseSettings(params, schema);
  const problems = describeOrderProblems(schema, settings.columnOrder);
  const known = new Set(schema.columns.map((column) => column.name));
  for (const name of settings.missingColumns) {
    if (!known.has(name))
      problems.push(`Columns that may be missing names \`${name}\`, which is not in the schema.`);
  }
  if (context) {
    const mostDraws = Math.max(...drawsPerChain(context.releases, settings.chains));
    if (mostDraws > 1 && (mostDraws - 1) * settings.thinning >= settings.steps) {
      problems.push(
        `${context.releases} releases from ${settings.chains} chains need ${mostDraws} draws per chain ` +
          `${settings.thinning} iterations apart: set steps above ${(mostDraws - 1) * settings.thinning}, ` +
          'lower the thinning or add chains.',
      );
    }
  }
  return problems;
}
