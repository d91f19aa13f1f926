import type { Column, Table } from './types';

/** The rows of a column where keep[i] === 1, in order. */
function keepRowsOfColumn(column: Column, keep: Uint8Array, kept: number): Column {
  const missing = new Uint8Array(kept);
  if (column.kind === 'numeric') {
    const values = new Float64Array(kept);
    let k = 0;
    for (let i = 0; i < keep.length; i++) if (keep[i] === 1) values[k++] = column.values[i]!;
    return { ...column, values, missing };
  }
  const codes = new Uint32Array(kept);
  let k = 0;
  for (let i = 0; i < keep.length; i++) if (keep[i] === 1) codes[k++] = column.codes[i]!;
  return { ...column, codes, dictionary: [...column.dictionary], missing };
}

/**
 * Removes every row with a missing value in any column (complete-case analysis). Returns the new table,
 * how many rows were removed (the caller reports the count: it changes n) and, for each kept row, its
 * index in the input (ascending). O(rows × columns).
 */
export function dropIncompleteRows(table: Table): { table: Table; dropped: number; keptRows: Uint32Array } {
  const keep = new Uint8Array(table.nRows).fill(1);
  for (const column of table.columns) {
    for (let i = 0; i < table.nRows; i++) if (column.missing[i] === 1) keep[i] = 0;
  }
  let kept = 0;
  for (let i = 0; i < keep.length; i++) kept += keep[i]!;
  const columns = table.columns.map((column) => keepRowsOfColumn(column, keep, kept));
  const keptRows = new Uint32Array(kept);
  for (let i = 0, k = 0; i < keep.length; i++) if (keep[i] === 1) keptRows[k++] = i;
  return { table: { nRows: kept, columns }, dropped: table.nRows - kept, keptRows };
}
