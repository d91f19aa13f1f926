import { inferredFields } from '../../privacy/assumptions';
import type { Schema } from '../../table/types';
import type { ColumnCoding } from './column-coding';

/**
 * Assumption sentences shared by the mechanisms that bin numeric columns and code categories
 * (privacy rule 6: say plainly what the guarantee rests on).
 */
export function binnedDomainAssumptions(codings: readonly ColumnCoding[], schema: Schema): string[] {
  const source =
    inferredFields(schema).length === 0
      ? 'Bounds, categories and bin counts are public: declared in the schema or set as parameters, not read ' +
        'from the data'
      : 'Bounds, categories and bin counts come from the schema and the parameters; the schema facts named ' +
        'above as read from the data are treated as public, the others were declared';
  const sentences = [
    `${source}. Numeric values outside the bounds were clamped into the edge bins.`,
    'Every column has one extra missing-value cell, whether or not the data has missing values, so missing ' +
      'values are synthesized at a DP rate.',
  ];
  if (codings.some((coding) => coding.kind === 'categorical')) {
    sentences.push(
      'Categorical values outside the declared categories were counted, and synthesized, as missing.',
    );
  }
  return sentences;
}
