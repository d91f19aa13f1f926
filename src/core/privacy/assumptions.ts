import type { ColumnSchema, Schema } from '../table/types';

/** The sentence every seeded run carries (privacy rule 3). */
export const SEEDED_ASSUMPTION =
  'A seed was set: the random numbers are reproducible, so this output is for demonstration, not for release.';

/** The public facts of a column as schema paths, e.g. ["age.type", "age.bounds", "age.integer"]. */
function publicFacts(column: ColumnSchema): string[] {
  const facts = ['type'];
  if (column.type === 'numeric') {
    if (column.bounds !== undefined) facts.push('bounds');
    if (column.integer !== undefined) facts.push('integer');
  } else if (column.categories !== undefined) {
    facts.push('categories');
  }
  return facts.map((fact) => `${column.name}.${fact}`);
}

/**
 * Schema fields whose values were read from the data rather than declared, as "column.field" paths
 * (type, bounds, integer, categories) of every column marked `source: "inferred"` (privacy rule 2).
 */
export function inferredFields(schema: Schema): string[] {
  return schema.columns.filter((c) => c.source === 'inferred').flatMap(publicFacts);
}

/** "a, b and c" */
function listInWords(items: string[]): string {
  return items.length <= 1
    ? (items[0] ?? '')
    : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

function describeFacts(column: ColumnSchema): string[] {
  if (column.type === 'numeric') {
    const facts = ['type (numeric)'];
    if (column.bounds !== undefined) facts.push(`bounds [${column.bounds[0]}, ${column.bounds[1]}]`);
    if (column.integer !== undefined)
      facts.push(column.integer ? 'whole-number flag' : 'not-whole-number flag');
    return facts;
  }
  const facts = ['type (categorical)'];
  if (column.categories !== undefined) {
    const n = column.categories.length;
    facts.push(`list of ${n} ${n === 1 ? 'category' : 'categories'}`);
  }
  return facts;
}

/**
 * One sentence per column whose public facts were read from the data instead of declared, naming
 * the column and the facts, and saying that the guarantee assumes they are public knowledge
 * (privacy rule 2). Empty when every column is declared. Example:
 * "Column `age`: its type (numeric) and bounds [17, 90] were read from the data instead of declared;
 * the guarantee assumes they are public knowledge."
 */
export function schemaAssumptions(schema: Schema): string[] {
  return schema.columns
    .filter((column) => column.source === 'inferred')
    .map((column) => {
      const facts = describeFacts(column);
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
