import { inferredFields } from '../../privacy/assumptions';
import { dpPartsOf } from '../../table/schema-facts';
import type { Schema } from '../../table/types';
import type { ColumnCoding } from './column-coding';

/**
 * Assumption sentences shared by the mechanisms that bin numeric columns and code categories
 * (privacy rule 6: say plainly what the guarantee rests on).
 */
export function binnedDomainAssumptions(codings: readonly ColumnCoding[], schema: Schema): string[] {
  const learned = schema.columns.some((column) => dpPartsOf(column).length > 0);
  const source =
    inferredFields(schema).length === 0
      ? learned
        ? 'Bounds, categories and bin counts are public: declared in the schema, learned from the data with ' +
          'DP in the domain steps of this claim, or set as parameters'
        : 'Bounds, categories and bin counts are public: declared in the schema or set as parameters, not read ' +
          'from the data'
      : 'Bounds, categories and bin counts come from the schema and the parameters; the schema facts named ' +
        'above as read from the data are treated as public, the others were declared' +
        (learned ? ' or learned with DP' : '');
  const complete = codings.filter((coding) => coding.complete).map((coding) => `\`${coding.name}\``);
  const sentences = [
    `${source}. Numeric values outside the bounds were clamped into the edge bins.`,
    complete.length === 0
      ? 'Every column has one extra missing-value cell, whether or not the data has missing values, so missing ' +
        'values are synthesized at a DP rate.'
      : `The schema says ${complete.join(', ')} cannot be missing: ${complete.length === 1 ? 'it has' : 'they have'} ` +
        'no missing-value cell, a run whose data has a missing value there is refused, and no synthetic value ' +
        'there is missing; every other column has one extra missing-value cell, whether or not the data has ' +
        'missing values, so missing values are synthesized at a DP rate.',
  ];
  if (codings.some((coding) => coding.kind === 'categorical')) {
    const other = schema.columns.some(
      (column) => column.type === 'categorical' && column.other !== undefined,
    );
    sentences.push(
      other
        ? 'Categorical values outside the category list were counted as the column\'s "other" level where ' +
            'the schema names one (a category like any other), and as missing elsewhere.'
        : 'Categorical values outside the declared categories were counted, and synthesized, as missing.',
    );
  }
  return sentences;
}
