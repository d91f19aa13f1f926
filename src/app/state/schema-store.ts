import { create } from 'zustand';
import { columnFacts, inferredFactsOf, withFactSources } from '../../core/table/schema-facts';
import type { ColumnSchema, Schema, SchemaFact } from '../../core/table/types';
import type { SchemaValidation } from '../../worker/protocol';

interface SchemaState {
  /** The schema the next run uses; starts as the inferred schema of the loaded file. */
  schema: Schema | null;
  /** Values outside the declared domain under `schema`, counted by the data worker. */
  validation: SchemaValidation | null;
  /** Why the last schema file could not be imported. */
  importError: string | null;
}

const initialSchemaState: SchemaState = { schema: null, validation: null, importError: null };

/** The schema slice: the user's schema and the counts that validate it against the data. */
export const useSchemaStore = create<SchemaState>(() => initialSchemaState);

export function resetSchemaStore(): void {
  useSchemaStore.setState(initialSchemaState, true);
}

export function replaceSchema(schema: Schema | null): void {
  useSchemaStore.setState({ schema, validation: null, importError: null });
}

/**
 * Replaces column `index` after the user edited the facts `edited` (e.g. ["bounds"]): those become
 * declared; the column's other facts keep their source, so an untouched inferred fact stays inferred.
 */
export function updateColumn(index: number, column: ColumnSchema, edited: readonly SchemaFact[]): void {
  updateColumns((columns) =>
    columns.map((current, i) => (i === index ? withFactSources(column, edited, 'declared') : current)),
  );
}

/** Replaces column `index` after the facts `read` were read from the data: those become inferred. */
export function replaceFactsAsInferred(
  index: number,
  column: ColumnSchema,
  read: readonly SchemaFact[],
): void {
  updateColumns((columns) =>
    columns.map((current, i) => (i === index ? withFactSources(column, read, 'inferred') : current)),
  );
}

/** "I declare these public": keeps the column's values and marks all of them declared. */
export function declareColumn(index: number): void {
  updateColumns((columns) =>
    columns.map((current, i) =>
      i === index ? withFactSources(current, columnFacts(current), 'declared') : current,
    ),
  );
}

export function declareAllColumns(): void {
  updateColumns((columns) =>
    columns.map((current) => withFactSources(current, columnFacts(current), 'declared')),
  );
}

export function setSchemaImportError(message: string | null): void {
  useSchemaStore.setState({ importError: message });
}

export function setValidation(validation: SchemaValidation | null): void {
  useSchemaStore.setState({ validation });
}

function updateColumns(change: (columns: ColumnSchema[]) => ColumnSchema[]): void {
  const { schema } = useSchemaStore.getState();
  if (schema === null) return;
  useSchemaStore.setState({ schema: { ...schema, columns: change(schema.columns) } });
}

/** Columns with at least one fact (type, bounds, integer flag, categories) read from the data. */
export function selectInferredColumnNames(state: SchemaState): string[] {
  return (state.schema?.columns ?? [])
    .filter((column) => inferredFactsOf(column).length > 0)
    .map((column) => column.name);
}

/** How many facts of the schema were read from the data rather than declared. */
export function selectInferredFactCount(state: SchemaState): number {
  return (state.schema?.columns ?? []).reduce((sum, column) => sum + inferredFactsOf(column).length, 0);
}
