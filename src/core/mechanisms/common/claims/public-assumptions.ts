import { inferredFields } from '../../../privacy/assumptions';
import { dpPartsOf, inferredPartsOf } from '../../../table/schema-facts';
import type { Schema } from '../../../table/types';
import type { ColumnCoding } from '../coding/column-coding';

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
  // A column's completeness read from the data is withheld from the release report, so these sentences
  // name only the columns whose completeness is public (declared or learned with DP) and speak of the
  // others by their source alone, whatever their value.
  const missingnessInferred = new Set(
    schema.columns.filter((column) => inferredPartsOf(column).includes('canBeMissing')).map((c) => c.name),
  );
  const complete = codings
    .filter((coding) => coding.complete && !missingnessInferred.has(coding.name))
    .map((coding) => `\`${coding.name}\``);
  const sentences = [
    `${source}. Numeric values outside the bounds were clamped into the edge bins.`,
    complete.length === 0
      ? 'Every column the schema allows to be missing has one extra missing-value cell, whether or not the ' +
        'data has missing values, so missing values are synthesized at a DP rate.'
      : `The schema says ${complete.join(', ')} cannot be missing: ${complete.length === 1 ? 'it has' : 'they have'} ` +
        'no missing-value cell, a run whose data has a missing value there is refused, and no synthetic value ' +
        'there is missing; every other column the schema allows to be missing has one extra missing-value ' +
        'cell, whether or not the data has missing values, so missing values are synthesized at a DP rate.',
  ];
  if (missingnessInferred.size > 0) {
    sentences.push(
      'Whether a column can be missing was read from the data for some columns (named above): such a column ' +
        'has a missing-value cell only when the data has a missing value there.',
    );
  }
  if (codings.some((coding) => coding.kind !== 'categorical' && coding.quantile !== undefined)) {
    sentences.push(
      "The edges of the quantile bins are learned from the data in this claim's bin-edge step (the number of bins " +
        "and the quantiles aimed at are parameters); the edges are released as that step's output.",
    );
  }
  if (codings.some((coding) => coding.kind !== 'categorical' && coding.points !== undefined)) {
    sentences.push(
      'Point masses are declared in the schema: public values, each synthesized as exactly itself.',
    );
  }
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
