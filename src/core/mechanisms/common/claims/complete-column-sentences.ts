import { inferredPartsOf } from '../../../table/schema-facts';
import type { Schema } from '../../../table/types';

/** What a mechanism keeps for a column that can be missing, as the claim's sentences name it. */
export interface MissingPart {
  /** After "has no": e.g. "missing-value coordinate". */
  none: string;
  /** After "has": e.g. "a missing-value coordinate". */
  some: string;
}

/**
 * The claim's sentences on columns the schema says cannot be missing (`canBeMissing: false`), for the
 * mechanisms that model missing values their own way (privacy rule 6: say what the guarantee rests on).
 * A column's completeness read from the data is withheld from the release report, so only the columns
 * whose completeness is public (declared or learned with DP) are named, and the others are spoken of by
 * their source alone (the standard assumptions name them among the facts read from the data). With
 * `followsInferred` (the default) a complete column has none of the mechanism's missing part whatever
 * the fact's source; without, only a publicly complete one drops it, and a column whose flag was read
 * from the data keeps its part (the mechanism's steps then do not depend on that flag). Empty when no
 * column states it cannot be missing.
 */
export function completeColumnSentences(schema: Schema, part: MissingPart, followsInferred = true): string[] {
  const complete = schema.columns.filter((column) => column.canBeMissing === false);
  const inferred = complete.filter((column) => inferredPartsOf(column).includes('canBeMissing'));
  const named = complete.filter((column) => !inferred.includes(column)).map((c) => `\`${c.name}\``);
  const sentences: string[] = [];
  if (named.length > 0) {
    sentences.push(
      `The schema says ${named.join(', ')} cannot be missing: ${named.length === 1 ? 'it has' : 'they have'} ` +
        `no ${part.none}, a run whose data has a missing value there is refused, and no synthetic value there ` +
        'is missing.',
    );
  }
  if (schema.columns.some((column) => inferredPartsOf(column).includes('canBeMissing'))) {
    sentences.push(
      followsInferred
        ? 'Whether a column can be missing was read from the data for some columns (named above): such a column ' +
            `has ${part.some} only when the data has a missing value there.`
        : 'Whether a column can be missing was read from the data for some columns (named above): the run does ' +
            `not use that fact, so such a column has ${part.some} whatever the data.`,
    );
  }
  return sentences;
}
