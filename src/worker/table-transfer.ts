import type { Column, Table } from '../core/table/types';

/**
 * The ArrayBuffers behind a table's typed arrays, for postMessage's transfer list.
 * Transferring moves a buffer to the receiving thread in O(1) instead of copying it
 * (DESIGN.md §6); the sender's arrays become empty afterwards.
 */
export function tableBuffers(table: Table): ArrayBuffer[] {
  const buffers = new Set<ArrayBuffer>();
  for (const column of table.columns) {
    for (const array of columnArrays(column)) {
      if (array.buffer instanceof ArrayBuffer) buffers.add(array.buffer);
    }
  }
  return [...buffers];
}

/** A copy with fresh typed arrays, so the copy can be transferred while the original stays. */
export function copyTable(table: Table): Table {
  return {
    nRows: table.nRows,
    columns: table.columns.map((column): Column => {
      if (column.kind === 'numeric') {
        return {
          kind: 'numeric',
          name: column.name,
          values: column.values.slice(),
          missing: column.missing.slice(),
        };
      }
      return {
        kind: 'categorical',
        name: column.name,
        codes: column.codes.slice(),
        dictionary: column.dictionary.slice(),
        missing: column.missing.slice(),
      };
    }),
  };
}

function columnArrays(column: Column): ArrayBufferView[] {
  return column.kind === 'numeric' ? [column.values, column.missing] : [column.codes, column.missing];
}
