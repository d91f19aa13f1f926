import type { RawTable } from './csv-read';
import type { StoredTable } from './csv-stream-read';
import { StoredColumnBuilder, columnTokens, type StoredColumn } from './stored-column';
import { createUtf8Encoder } from './utf8';

/** A file as read: string tokens (parseCsv, small files, tests) or stored columns (readCsvStream). */
export type TableSource = RawTable | StoredTable;

function isStoredColumn(column: string[] | StoredColumn): column is StoredColumn {
  return !Array.isArray(column);
}

/** The stored columns of a file as read; string tokens are encoded once (O(cells)). */
export function storedColumnsOf(source: TableSource): StoredColumn[] {
  return source.columns.map((column: string[] | StoredColumn, j) => {
    if (isStoredColumn(column)) return column;
    return storeTokens(source.header[j]!, column, source.fileName);
  });
}

/** The string tokens of column `name` of a file as read, or undefined when it has no such column. */
export function tokensOfColumn(source: TableSource, name: string): string[] | undefined {
  const index = source.header.indexOf(name);
  if (index < 0) return undefined;
  const column: string[] | StoredColumn = source.columns[index]!;
  return isStoredColumn(column) ? columnTokens(column) : column;
}

/** A StoredColumn holding `tokens` (row i on line i + 2 for messages: a header, no blank lines). */
export function storeTokens(name: string, tokens: readonly string[], fileName: string): StoredColumn {
  const encoder = createUtf8Encoder();
  const builder = new StoredColumnBuilder(name, fileName);
  let scratch = new Uint8Array(256);
  tokens.forEach((token, i) => {
    if (scratch.length < 3 * token.length) scratch = new Uint8Array(6 * token.length);
    const { written } = encoder.encodeInto(token, scratch);
    builder.append(scratch, 0, written, i + 2);
  });
  return builder.finish();
}
