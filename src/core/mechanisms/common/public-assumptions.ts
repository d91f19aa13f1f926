import type { ColumnCoding } from './column-coding';

/**
 * Assumption sentences shared by the mechanisms that bin numeric columns and code categories
 * (privacy rule 6: say plainly what the guarantee rests on).
 */
export function binnedDomainAssumptions(codings: readonly ColumnCoding[]): string[] {
  const sentences = [
    'Bounds, categories and bin counts are public (from the schema and the parameters, never from the data); ' +
      'numeric values outside the bounds were clamped into the edge bins.',
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
