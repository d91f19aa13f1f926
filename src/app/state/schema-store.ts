import { create } from 'zustand';
import type { ColumnSchema, Schema } from '../../core/table/types';
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

/** Replaces column `index`; any edit by the user is a declaration that the column's domain is public. */
export function updateColumn(index: number, column: ColumnSchema): void {
  updateColumns((columns) =>
    columns.map((current, i) => (i === index ? { ...column, source: 'declared' } : current)),
  );
}

/** Replaces column `index` with values read from the data: the column becomes "inferred". */
export function replaceColumnAsInferred(index: number, column: ColumnSchema): void {
  updateColumns((columns) =>
    columns.map((current, i) => (i === index ? { ...column, source: 'inferred' } : current)),
  );
}

/** "I declare these public": keeps the column's values and marks them declared. */
export function declareColumn(index: number): void {
  updateColumns((columns) =>
    columns.map((current, i) => (i === index ? { ...current, source: 'declared' } : current)),
  );
}

export function declareAllColumns(): void {
  updateColumns((columns) => columns.map((current) => ({ ...current, source: 'declared' })));
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

/** Columns whose domain (bounds or categories) was read from the data rather than declared. */
export function selectInferredColumnNames(state: SchemaState): string[] {
  return (state.schema?.columns ?? [])
    .filter((column) => column.source === 'inferred')
    .map((column) => column.name);
}
