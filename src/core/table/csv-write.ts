import type { Column, Table } from './types';

export interface WriteCsvOptions {
  /** Prefix text cells that a spreadsheet would run as a formula with an apostrophe (default false). */
  escapeFormulas?: boolean;
  /** Written for missing values (default ''). */
  missingToken?: string;
  /** Field separator, one character (default ','). */
  delimiter?: string;
}

/** First characters that make spreadsheets evaluate a cell (OWASP, "CSV Injection"). */
const FORMULA_TRIGGERS = new Set(['=', '+', '-', '@', '\t', '\r']);

/** Rows per piece of csvChunks: keeps intermediate arrays and strings small for a million rows. */
export const CSV_ROWS_PER_PIECE = 1 << 15;

function checkDelimiter(delimiter: string): void {
  if (delimiter.length !== 1 || delimiter === '"' || delimiter === '\n' || delimiter === '\r') {
    throw new Error(
      `writeCsv: the delimiter must be one character other than a quote or a line break, got ${JSON.stringify(delimiter)}.`,
    );
  }
}

/** RFC 4180: a field holding the delimiter, a quote or a line break is quoted, inner quotes doubled. */
function quoteIfNeeded(text: string, delimiter: string): string {
  const needsQuotes =
    text.includes(delimiter) || text.includes('"') || text.includes('\n') || text.includes('\r');
  return needsQuotes ? `"${text.replaceAll('"', '""')}"` : text;
}

/** A text cell as written: formula-escaped when asked, then quoted when needed. */
function textCell(text: string, delimiter: string, escapeFormulas: boolean): string {
  const escaped = escapeFormulas && text.length > 0 && FORMULA_TRIGGERS.has(text[0]!) ? `'${text}` : text;
  return quoteIfNeeded(escaped, delimiter);
}

/** Returns a function giving the written cell of row i of one column. */
function cellWriter(
  column: Column,
  missingCell: string,
  delimiter: string,
  escapeFormulas: boolean,
): (i: number) => string {
  const missing = column.missing;
  if (column.kind === 'numeric') {
    // Numbers are never formula-escaped: "-3.5" must stay a number. String(x) is the shortest
    // round-trip form, so parsing the file gives back the identical double.
    const values = column.values;
    return (i) => (missing[i] === 1 ? missingCell : String(values[i]));
  }
  const codes = column.codes;
  const cells = column.dictionary.map((level) => textCell(level, delimiter, escapeFormulas));
  return (i) => (missing[i] === 1 ? missingCell : cells[codes[i]!]!);
}

/**
 * A Table as CSV text in pieces: the header line, then one piece per block of 32,768 rows, each
 * ending with '\n'. Joined, the pieces are writeCsv's text; written one at a time (a file, a
 * download stream), a table of any size never becomes one string. Options and format as writeCsv.
 */
export function* csvChunks(table: Table, opts: WriteCsvOptions = {}): Generator<string, void, undefined> {
  const delimiter = opts.delimiter ?? ',';
  checkDelimiter(delimiter);
  const escapeFormulas = opts.escapeFormulas === true;
  const missingCell = quoteIfNeeded(opts.missingToken ?? '', delimiter);
  const header = table.columns
    .map((column) => textCell(column.name, delimiter, escapeFormulas))
    .join(delimiter);
  const writers = table.columns.map((column) => cellWriter(column, missingCell, delimiter, escapeFormulas));
  yield `${header}\n`;
  const lines: string[] = [];
  for (let start = 0; start < table.nRows; start += CSV_ROWS_PER_PIECE) {
    const end = Math.min(table.nRows, start + CSV_ROWS_PER_PIECE);
    lines.length = 0;
    for (let i = start; i < end; i++) {
      let line = writers.length > 0 ? writers[0]!(i) : '';
      for (let j = 1; j < writers.length; j++) line += delimiter + writers[j]!(i);
      lines.push(line);
    }
    yield `${lines.join('\n')}\n`;
  }
}

/**
 * A table given in row blocks (tables with the same columns, in row order) as CSV text in pieces:
 * the header line from the first block, then each block's rows in pieces of at most 32,768 rows.
 * Joined, the pieces are writeCsv's text of the blocks' concatenation; only one block is held at a
 * time. Cells as csvChunks writes them; the rows are formatted by one loop shared by every block
 * (rowsOfColumns): writers made afresh for each block cost about a sixth more processor time in all
 * (measured on 2,000,000 rows in blocks of 65,536).
 */
export function* csvChunksOfBlocks(
  blocks: Iterable<Table>,
  opts: WriteCsvOptions = {},
): Generator<string, void, undefined> {
  const delimiter = opts.delimiter ?? ',';
  checkDelimiter(delimiter);
  const escapeFormulas = opts.escapeFormulas === true;
  const missingCell = quoteIfNeeded(opts.missingToken ?? '', delimiter);
  const lines: string[] = [];
  let first = true;
  for (const block of blocks) {
    if (first) {
      yield `${block.columns.map((column) => textCell(column.name, delimiter, escapeFormulas)).join(delimiter)}\n`;
      first = false;
    }
    const texts = block.columns.map((column) =>
      column.kind === 'numeric'
        ? []
        : column.dictionary.map((level) => textCell(level, delimiter, escapeFormulas)),
    );
    for (let start = 0; start < block.nRows; start += CSV_ROWS_PER_PIECE) {
      const end = Math.min(block.nRows, start + CSV_ROWS_PER_PIECE);
      yield rowsOfColumns(block.columns, texts, missingCell, delimiter, start, end, lines);
    }
  }
}

/** Rows [start, end) of the columns as CSV lines, each ending with '\n' (cells as cellWriter writes them). */
function rowsOfColumns(
  columns: Column[],
  texts: string[][],
  missingCell: string,
  delimiter: string,
  start: number,
  end: number,
  lines: string[],
): string {
  lines.length = 0;
  const m = columns.length;
  for (let i = start; i < end; i++) {
    let line = '';
    for (let j = 0; j < m; j++) {
      const column = columns[j]!;
      const cell =
        column.missing[i] === 1
          ? missingCell
          : column.kind === 'numeric'
            ? String(column.values[i])
            : texts[j]![column.codes[i]!]!;
      line = j === 0 ? cell : line + delimiter + cell;
    }
    lines.push(line);
  }
  return `${lines.join('\n')}\n`;
}

/**
 * Writes a Table as CSV text: header, then one line per row, '\n' line ends, RFC 4180 quoting where
 * needed. Numbers in String(x) form (integers without a decimal point, other doubles in the shortest
 * form that reads back to the same double). With escapeFormulas, header and categorical cells starting
 * with = + - @ tab or CR get a leading apostrophe (OWASP CSV injection advice); numeric cells never do.
 * O(rows × columns); strings are built per block of rows (csvChunks) and joined once. For large
 * tables write csvChunks' pieces one at a time instead.
 * Written by hand rather than with PapaParse's unparse, which reads rows (an array or object per row):
 * here the columns are typed arrays, each categorical level is quoted and escaped once, not per
 * cell, and formula escaping depends on the column's type, which unparse cannot tell.
 */
export function writeCsv(table: Table, opts: WriteCsvOptions = {}): string {
  return Array.from(csvChunks(table, opts)).join('');
}
