import type { Column, Table } from '../table/types';
import type { Release, ReleaseInBlocks, SyntheticRows } from './types';

/**
 * Releases handed out in row blocks (Mechanism.runInBlocks): blocks of a whole table, and the whole
 * table from blocks. No sampling here.
 */

/** Rows per block of a release handed out in blocks, unless the caller asks for another size. */
export const RELEASE_BLOCK_ROWS = 65_536;

/** Checks a requested block size: a whole number ≥ 1 (RELEASE_BLOCK_ROWS when absent). */
export function blockRowsOf(options: { blockRows?: number } | undefined): number {
  const rows = options?.blockRows ?? RELEASE_BLOCK_ROWS;
  if (!Number.isInteger(rows) || rows < 1)
    throw new RangeError(`blockRows must be a whole number ≥ 1; got ${rows}.`);
  return rows;
}

/** Rows [start, end) of a column, as views on its arrays (no copy). */
export function columnRows(column: Column, start: number, end: number): Column {
  const missing = column.missing.subarray(start, end);
  return column.kind === 'numeric'
    ? { kind: 'numeric', name: column.name, values: column.values.subarray(start, end), missing }
    : {
        kind: 'categorical',
        name: column.name,
        codes: column.codes.subarray(start, end),
        dictionary: column.dictionary,
        missing,
      };
}

/**
 * SyntheticRows whose block b is made by `block(b, start, end)` for rows [start, end), called once
 * per block in order; readable once.
 */
export function syntheticRows(
  nRows: number,
  blockRows: number,
  block: (b: number, start: number, end: number) => Table,
): SyntheticRows {
  let read = false;
  return {
    nRows,
    blockRows,
    blocks() {
      if (read) throw new Error('the rows of a release in blocks can be read once.');
      read = true;
      return (function* () {
        const count = Math.max(1, Math.ceil(nRows / blockRows));
        for (let b = 0; b < count; b++) {
          const start = b * blockRows;
          yield block(b, start, Math.min(nRows, start + blockRows));
        }
      })();
    },
  };
}

/** A whole table as SyntheticRows: each block is a view on the table's rows (nothing copied). */
export function rowsOfTable(table: Table, blockRows: number = RELEASE_BLOCK_ROWS): SyntheticRows {
  return syntheticRows(table.nRows, blockRows, (_, start, end) => ({
    nRows: end - start,
    columns: table.columns.map((column) => columnRows(column, start, end)),
  }));
}

/** The blocks joined into one table (column names, kinds and dictionaries from the first block). */
export function tableOfRows(rows: SyntheticRows): Table {
  const blocks = Array.from(rows.blocks());
  const first = blocks[0]!;
  const nRows = blocks.reduce((sum, block) => sum + block.nRows, 0);
  const columns = first.columns.map((head, j): Column => {
    const missing = new Uint8Array(nRows);
    let at = 0;
    for (const block of blocks) {
      missing.set(block.columns[j]!.missing, at);
      at += block.nRows;
    }
    at = 0;
    if (head.kind === 'numeric') {
      const values = new Float64Array(nRows);
      for (const block of blocks) {
        values.set((block.columns[j] as typeof head).values, at);
        at += block.nRows;
      }
      return { kind: 'numeric', name: head.name, values, missing };
    }
    const codes = new Uint32Array(nRows);
    for (const block of blocks) {
      codes.set((block.columns[j] as typeof head).codes, at);
      at += block.nRows;
    }
    return { kind: 'categorical', name: head.name, codes, dictionary: head.dictionary, missing };
  });
  return { nRows, columns };
}

/** A release in blocks with every dataset joined into a table: what `run` returns. */
export function releaseOfBlocks(release: ReleaseInBlocks): Release {
  return { ...release, datasets: release.datasets.map(tableOfRows) };
}
