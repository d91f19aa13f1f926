import { InputError } from './errors';
import type { Schema, Table } from './types';

/**
 * The error for a table whose columns declared complete (`canBeMissing: false`) hold missing values,
 * or undefined when none does. It names each such column with its count (for the data holder: the
 * count is read from the data and never released) and says what to do. Cost O(rows · complete columns).
 */
export function incompleteColumnsError(table: Table, schema: Schema): InputError | undefined {
  const byName = new Map(table.columns.map((column) => [column.name, column]));
  const found: string[] = [];
  const names: string[] = [];
  for (const column of schema.columns) {
    if (column.canBeMissing !== false) continue;
    const data = byName.get(column.name);
    if (data === undefined) continue;
    let count = 0;
    for (let i = 0; i < data.missing.length; i++) count += data.missing[i]!;
    if (count > 0) {
      names.push(column.name);
      found.push(`\`${column.name}\` (${count} ${count === 1 ? 'row' : 'rows'})`);
    }
  }
  if (found.length === 0) return undefined;
  return new InputError(
    `the schema says ${found.length === 1 ? 'column' : 'columns'} ${found.join(', ')} cannot be missing ` +
      '("canBeMissing": false), but the data has missing values there (or categories outside the list). ' +
      'Mark the column as one that can be missing ("canBeMissing": true, or "Can be missing" on the Schema ' +
      'step) to synthesize missing values as a level of their own, or drop the incomplete rows ' +
      '(--drop-incomplete-rows).',
    { column: names[0]! },
  );
}

/** Throws incompleteColumnsError(table, schema) when there is one. */
export function checkCompleteColumns(table: Table, schema: Schema): void {
  const error = incompleteColumnsError(table, schema);
  if (error !== undefined) throw error;
}
