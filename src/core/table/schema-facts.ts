import type { ColumnSchema, FieldSource, SchemaFact } from './types';

/** The facts a column of each type can state, in display order. */
export const FACTS_OF_TYPE: Record<ColumnSchema['type'], readonly SchemaFact[]> = {
  numeric: ['type', 'bounds', 'integer'],
  categorical: ['type', 'categories'],
};

/** The facts `column` states: its type, plus bounds / integer flag / categories when present. */
export function columnFacts(column: ColumnSchema): SchemaFact[] {
  if (column.type === 'numeric') {
    return FACTS_OF_TYPE.numeric.filter(
      (fact) =>
        fact === 'type' ||
        (fact === 'bounds' && column.bounds !== undefined) ||
        (fact === 'integer' && column.integer !== undefined),
    );
  }
  return column.categories === undefined ? ['type'] : ['type', 'categories'];
}

/**
 * Where one fact of a column came from. A column with source "declared" declares every fact; an
 * "inferred" one declares only the facts listed in `declaredFields` (a partly declared column).
 */
export function factSource(column: ColumnSchema, fact: SchemaFact): FieldSource {
  return column.source === 'declared' || column.declaredFields?.includes(fact) === true
    ? 'declared'
    : 'inferred';
}

/** The facts of `column` that were read from the data rather than declared. */
export function inferredFactsOf(column: ColumnSchema): SchemaFact[] {
  return columnFacts(column).filter((fact) => factSource(column, fact) === 'inferred');
}

/**
 * `column` with the given facts marked `source`, in normal form: "declared" (and no
 * `declaredFields`) when every fact it states is declared, otherwise "inferred" with the declared
 * facts listed (omitted when none are).
 */
export function withFactSources(
  column: ColumnSchema,
  facts: readonly SchemaFact[],
  source: FieldSource,
): ColumnSchema {
  const present = columnFacts(column);
  const declared = new Set(present.filter((fact) => factSource(column, fact) === 'declared'));
  for (const fact of facts) {
    if (source === 'declared') declared.add(fact);
    else declared.delete(fact);
  }
  const { declaredFields: _previous, ...rest } = column;
  if (present.every((fact) => declared.has(fact))) return { ...rest, source: 'declared' };
  const listed = present.filter((fact) => declared.has(fact));
  return listed.length === 0
    ? { ...rest, source: 'inferred' }
    : { ...rest, source: 'inferred', declaredFields: listed };
}
