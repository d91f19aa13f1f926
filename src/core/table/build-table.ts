import type { AbortSignalLike } from '../abort';
import type { Column, Schema, Table } from './types';
import type { TableSource } from './table-source';
import type { ColumnValidation, ValidationReport } from './validation-report';
import { throwIfAborted } from '../abort';
import { buildCategoricalColumn } from './build-categorical-column';
import { buildNumericColumn } from './build-numeric-column';
import { dropIncompleteRows } from './drop-incomplete-rows';
import { checkSchemaMatchesHeader } from './schema-json';
import { describeValidation } from './validation-report';
import { storedColumnsOf } from './table-source';

export type { ColumnValidation, ValidationReport } from './validation-report';
export { tableFromColumns } from './table-from-columns';
export type { ColumnValuesSpec } from './table-from-columns';
export { emptyLikeTable } from './empty-like-table';

export interface BuildTableOptions {
  /** Remove rows with any missing value (after rejection of bad values) and count them. */
  dropIncompleteRows?: boolean;
  /** Fraction of the work done, in [0, 1]. */
  onProgress?: (fraction: number) => void;
  /** Checked every few ten thousand rows; when set, buildTable throws an Error named AbortError. */
  signal?: AbortSignalLike;
}

/**
 * Types a file as read (string tokens or stored columns) with a schema, into the columnar Table (columns in SCHEMA order) and a report
 * of everything that was changed or rejected: nothing disappears silently (DESIGN.md §2).
 * The header must name exactly the schema's columns (InputError otherwise). Numeric: missing tokens →
 * missing, non-numbers → counted and missing, out-of-bounds → clamped and counted, non-whole in integer
 * columns → rounded and counted. Categorical: tokens outside declared categories → counted and missing
 * (row kept). Missing values stay missing unless dropIncompleteRows. O(rows × columns).
 */
export function buildTable(
  raw: TableSource,
  schema: Schema,
  opts: BuildTableOptions = {},
): { table: Table; report: ValidationReport } {
  checkSchemaMatchesHeader(schema, raw.header, raw.fileName);
  throwIfAborted(opts.signal);
  const missingTokens = new Set(schema.missing);
  const totalWork = Math.max(1, raw.nRows * schema.columns.length);
  const stored = storedColumnsOf(raw);
  const columns: Column[] = [];
  const validations: ColumnValidation[] = [];
  schema.columns.forEach((columnSchema, columnIndex) => {
    const tokens = stored[raw.header.indexOf(columnSchema.name)]!;
    const checkpoint = (rowsDone: number): void => {
      throwIfAborted(opts.signal);
      opts.onProgress?.((columnIndex * raw.nRows + rowsDone) / totalWork);
    };
    const built =
      columnSchema.type === 'numeric'
        ? buildNumericColumn(tokens, columnSchema, missingTokens, checkpoint)
        : buildCategoricalColumn(tokens, columnSchema, missingTokens, checkpoint);
    columns.push(built.column);
    validations.push(built.validation);
  });
  let table: Table = { nRows: raw.nRows, columns };
  let droppedIncompleteRows = 0;
  if (opts.dropIncompleteRows === true) {
    const result = dropIncompleteRows(table);
    table = result.table;
    droppedIncompleteRows = result.dropped;
  }
  opts.onProgress?.(1);
  return {
    table,
    report: {
      columns: validations,
      droppedIncompleteRows,
      messages: describeValidation(validations, droppedIncompleteRows),
    },
  };
}
