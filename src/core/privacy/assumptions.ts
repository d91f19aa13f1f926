import { inferredPartsOf } from '../table/schema-facts';
import type { ColumnSchema, Schema } from '../table/types';

/** The sentence every seeded run carries (privacy rule 3). */
export const SEEDED_ASSUMPTION =
  'A seed was set: the random numbers are reproducible, so this output is for demonstration, not for release.';

/**
 * Schema values read from the data rather than declared, as "column.part" paths (type, lower, upper,
 * integer, categories; the bounds per end) (privacy rule 2). Example: ["age.type", "age.upper"].
 */
export function inferredFields(schema: Schema): string[] {
  return schema.columns.flatMap((column) => inferredPartsOf(column).map((part) => `${column.name}.${part}`));
}

/** "a, b and c" */
function listInWords(items: string[]): string {
  return items.length <= 1
    ? (items[0] ?? '')
    : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

/**
 * The inferred values of a column in words, without the values read from the data (the claim
 * travels in the release report), e.g. ["type (numeric)", "bounds"] or ["upper bound"].
 */
function describeInferredFacts(column: ColumnSchema): string[] {
  const parts = inferredPartsOf(column);
  const words: string[] = [];
  if (parts.includes('type')) words.push(`type (${column.type})`);
  if (parts.includes('lower') && parts.includes('upper')) words.push('bounds');
  else if (parts.includes('lower')) words.push('lower bound');
  else if (parts.includes('upper')) words.push('upper bound');
  if (parts.includes('integer') && column.type === 'numeric') {
    words.push(column.integer ? 'whole-number flag' : 'not-whole-number flag');
  }
  if (parts.includes('categories')) words.push('list of categories');
  // Only whether it can be missing, never the value: the release report withholds it.
  if (parts.includes('canBeMissing')) words.push('whether it can be missing');
  return words;
}

/**
 * One sentence per column with public facts read from the data instead of declared, naming the
 * column and those facts (a partly declared column names only its inferred ones), and saying that the guarantee assumes they are public knowledge
 * (privacy rule 2). Empty when every column is declared. Example:
 * "Column `age`: its type (numeric) and bounds were read from the data instead of declared;
 * the guarantee assumes they are public knowledge."
 */
export function schemaAssumptions(schema: Schema): string[] {
  return schema.columns
    .filter((column) => inferredPartsOf(column).length > 0)
    .map((column) => {
      const facts = describeInferredFacts(column);
      const verb = facts.length === 1 ? 'was' : 'were';
      const pronoun = facts.length === 1 ? 'it is' : 'they are';
      return (
        `Column \`${column.name}\`: its ${listInWords(facts)} ${verb} read from the data instead of declared; ` +
        `the guarantee assumes ${pronoun} public knowledge.`
      );
    });
}

/** The assumptions every mechanism states: the schema's inferred facts, then the seed sentence if seeded. */
export function standardAssumptions(schema: Schema, seeded: boolean): string[] {
  return seeded ? [...schemaAssumptions(schema), SEEDED_ASSUMPTION] : schemaAssumptions(schema);
}
