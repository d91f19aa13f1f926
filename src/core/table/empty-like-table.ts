import type { Column, Schema, Table } from './types';

/**
 * Allocates a Table shaped by the schema for synthetic output: numeric columns are zeros, categorical
 * codes are 0 with dictionary = the schema's categories (empty when the schema lists none; the
 * mechanism must then set it), and no value is marked missing. O(rows × columns).
 */
export function emptyLikeTable(schema: Schema, nRows: number): Table {
  if (!Number.isInteger(nRows) || nRows < 0)
    throw new Error(`emptyLikeTable: nRows must be a whole number ≥ 0, got ${nRows}.`);
  const columns: Column[] = schema.columns.map((column) =>
    column.type === 'numeric'
      ? {
          kind: 'numeric',
          name: column.name,
          values: new Float64Array(nRows),
          missing: new Uint8Array(nRows),
        }
      : {
          kind: 'categorical',
          name: column.name,
          codes: new Uint32Array(nRows),
          dictionary: [...(column.categories ?? [])],
          missing: new Uint8Array(nRows),
        },
  );
  return { nRows, columns };
}
