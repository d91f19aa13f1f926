import { inferredFactsOf } from '../table/schema-facts';
import type { ColumnSchema, Schema } from '../table/types';

/** The sentence every seeded run carries (privacy rule 3). */
export const SEEDED_ASSUMPTION =
  'A seed was set: the random numbers are reproducible, so this output is for demonstration, not for release.';

/**
 * Schema fields whose values were read from the data rather than declared, as "column.field" paths
 * (type, bounds, integer, categories): every fact of a column marked `source: "inferred"` except
 * those it lists in `declaredFields` (privacy rule 2). Example: ["age.type", "age.integer"].
 */
export function inferredFields(schema: Schema): string[] {
  return schema.columns.flatMap((column) => inferredFactsOf(column).map((fact) => `${column.name}.${fact}`));
}

/** "a, b and c" */
function listInWords(items: string[]): string {
  return items.length <= 1
    ? (items[0] ?? '')
    : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

/** The inferred facts of a column in words, e.g. ["type (numeric)", "bounds [17, 90]"]. */
function describeInferredFacts(column: ColumnSchema): string[] {
  return inferredFactsOf(column).map((fact) => {
    if (fact === 'type') return `type (${column.type})`;
    if (column.type === 'numeric') {
      if (fact === 'bounds') return `bounds [${column.bounds![0]}, ${column.bounds![1]}]`;
      return column.integer ? 'whole-number flag' : 'not-whole-number flag';
    }
    const n = column.categories!.length;
    return `list of ${n} ${n === 1 ? 'category' : 'categories'}`;
  });
}

/**
 * One sentence per column with public facts read from the data instead of declared, naming the
 * column and those facts (a partly declared column names only its inferred ones), and saying that the guarantee assumes they are public knowledge
 * (privacy rule 2). Empty when every column is declared. Example:
 * "Column `age`: its type (numeric) and bounds [17, 90] were read from the data instead of declared;
 * the guarantee assumes they are public knowledge."
 */
export function schemaAssumptions(schema: Schema): string[] {
  return schema.columns
    .filter((column) => inferredFactsOf(column).length > 0)
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
