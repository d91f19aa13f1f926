import { create } from 'zustand';
import { DEFAULT_DOMAIN_DELTA, DEFAULT_DOMAIN_EPSILON } from '../../core/domain/domain-defaults';
import { columnParts, dpPartsOf, inferredPartsOf, withPartSources } from '../../core/table/schema-facts';
import type { ColumnSchema, Schema, SchemaPart } from '../../core/table/types';
import type { SchemaValidation } from '../../worker/protocol';

interface SchemaState {
  /** The schema the next run uses; starts as the inferred schema of the loaded file. */
  schema: Schema | null;
  /** Values outside the declared domain under `schema`, counted by the data worker. */
  validation: SchemaValidation | null;
  /** Why the last schema file could not be imported. */
  importError: string | null;
  /** The budget the "Learn privately" buttons spend, as typed. */
  learnBudget: { epsilon: string; delta: string };
  /** Learning in progress, its last failure, and the warnings of the last learning. */
  learning: { busy: boolean; error: string | null; warnings: string[] };
}

/** Default budget for learning a domain: a small share next to a typical run's ε = 1. */
export const DEFAULT_LEARN_BUDGET = { epsilon: DEFAULT_DOMAIN_EPSILON, delta: DEFAULT_DOMAIN_DELTA } as const;

const initialSchemaState: SchemaState = {
  schema: null,
  validation: null,
  importError: null,
  learnBudget: { ...DEFAULT_LEARN_BUDGET },
  learning: { busy: false, error: null, warnings: [] },
};

/** The schema slice: the user's schema and the counts that validate it against the data. */
export const useSchemaStore = create<SchemaState>(() => initialSchemaState);

export function resetSchemaStore(): void {
  useSchemaStore.setState(initialSchemaState, true);
}

export function replaceSchema(schema: Schema | null): void {
  useSchemaStore.setState({ schema, validation: null, importError: null });
}

export function setLearnBudget(field: 'epsilon' | 'delta', value: string): void {
  useSchemaStore.setState((state) => ({ learnBudget: { ...state.learnBudget, [field]: value } }));
}

export function setLearning(learning: SchemaState['learning']): void {
  useSchemaStore.setState({ learning });
}

/**
 * Replaces column `index` after the user typed the values `edited` (e.g. ["upper"] for one bound
 * end): those become declared; the column's other values keep their source, so the other end of an
 * inferred range stays inferred. Pass [] for an edit that declares nothing (a line changed in an
 * inferred category list).
 */
export function updateColumn(index: number, column: ColumnSchema, edited: readonly SchemaPart[]): void {
  updateColumns((columns) =>
    columns.map((current, i) => (i === index ? withPartSources(column, edited, 'declared') : current)),
  );
}

/** Replaces column `index` after the values `read` were read from the data: those become inferred. */
export function replaceFactsAsInferred(
  index: number,
  column: ColumnSchema,
  read: readonly SchemaPart[],
): void {
  updateColumns((columns) =>
    columns.map((current, i) => (i === index ? withPartSources(column, read, 'inferred') : current)),
  );
}

/** "I declare these public": keeps the column's values and marks all of them declared. */
export function declareColumn(index: number): void {
  declareParts(index, null);
}

/** Marks some values of column `index` declared without changing them (e.g. ["categories"]); null: all. */
export function declareParts(index: number, parts: readonly SchemaPart[] | null): void {
  updateColumns((columns) =>
    columns.map((current, i) =>
      i === index ? withPartSources(current, parts ?? columnParts(current), 'declared') : current,
    ),
  );
}

export function declareAllColumns(): void {
  updateColumns((columns) =>
    columns.map((current) => withPartSources(current, columnParts(current), 'declared')),
  );
}

export function setSchemaImportError(message: string | null): void {
  useSchemaStore.setState({ importError: message });
}

export function setValidation(validation: SchemaValidation | null): void {
  useSchemaStore.setState({ validation });
}

/** Columns with a value learned with DP. */
export function selectDpColumnNames(state: SchemaState): string[] {
  return (state.schema?.columns ?? []).filter((column) => dpPartsOf(column).length > 0).map((c) => c.name);
}

function updateColumns(change: (columns: ColumnSchema[]) => ColumnSchema[]): void {
  const { schema } = useSchemaStore.getState();
  if (schema === null) return;
  useSchemaStore.setState({ schema: { ...schema, columns: change(schema.columns).map(withValidOther) } });
}

/** A learned list's `other` level stays only while the list still holds it (an edit may remove it). */
function withValidOther(column: ColumnSchema): ColumnSchema {
  if (column.type !== 'categorical' || column.other === undefined) return column;
  if (column.categories?.includes(column.other)) return column;
  const { other: _dropped, ...rest } = column;
  return rest;
}

/** Columns with at least one value (type, a bound end, integer flag, categories) read from the data. */
export function selectInferredColumnNames(state: SchemaState): string[] {
  return (state.schema?.columns ?? [])
    .filter((column) => inferredPartsOf(column).length > 0)
    .map((column) => column.name);
}

/** How many values of the schema (each bound end counted) were read from the data rather than declared. */
export function selectInferredFactCount(state: SchemaState): number {
  return (state.schema?.columns ?? []).reduce((sum, column) => sum + inferredPartsOf(column).length, 0);
}
