import Papa from 'papaparse';
import type { AbortSignalLike } from '../mechanisms/types';
import { createAbortError, throwIfAborted } from '../abort';
import { detectDelimiter } from './csv-delimiter';
import { lineNumberOfRecord } from './csv-line-numbers';
import { isNumericToken, parseNumericToken } from './numeric-token';
import { inputErrorAt } from './errors';
import { assertLooksLikeText } from './text-sanity';

export { decodeCsvBytes } from './decode-csv-bytes';

/** A CSV file as tokens: one string array per column, in header order. Nothing is typed yet. */
export interface RawTable {
  fileName: string;
  header: string[];
  /** columns[j][i] is the token of data row i in column j (rows after the header, blank lines skipped). */
  columns: string[][];
  nRows: number;
  delimiter: string;
}

export interface ParseCsvOptions {
  /** Used in error messages; default "input". */
  fileName?: string;
  /** Called once per chunk with the fraction of the text read so far, and with 1 at the end. */
  onProgress?: (fraction: number) => void;
  /** Checked once per chunk; when set, parseCsv throws an Error named AbortError. */
  signal?: AbortSignalLike;
}

/** The file's last line break ends the last record; it does not start an empty one. */
function withoutFinalLineBreak(text: string): string {
  if (text.endsWith('\r\n')) return text.slice(0, -2);
  if (text.endsWith('\n') || text.endsWith('\r')) return text.slice(0, -1);
  return text;
}

/** PapaParse hands over the text in pieces of this many characters: the grain of progress and cancellation. */
const CHUNK_CHARACTERS = 1 << 20;

/** Throws when header names are empty or repeated: columns are addressed by name everywhere else. */
function checkHeaderNames(header: string[], fileName: string): void {
  const seen = new Map<string, number>();
  header.forEach((name, index) => {
    if (name.trim() === '') {
      throw inputErrorAt(
        { file: fileName, line: 1 },
        `column ${index + 1} of the header has no name. Give every column a name in the first line.`,
      );
    }
    const earlier = seen.get(name);
    if (earlier !== undefined) {
      throw inputErrorAt(
        { file: fileName, line: 1, column: name },
        `columns ${earlier + 1} and ${index + 1} are both named \`${name}\`. Column names must be unique; rename one of them.`,
      );
    }
    seen.set(name, index);
  });
}

function describeQuoteProblem(code: string): string {
  return code === 'InvalidQuotes'
    ? 'a quoted field is followed by other characters before the next delimiter. Inside a quoted field, write a quote as two quotes ("").'
    : 'a quoted field that starts here is never closed. Add the missing closing quote (") or remove the stray one.';
}

/**
 * A record PapaParse produced from an empty line. In files with two or more columns it is skipped, as
 * pandas' read_csv does (the reference scripts read with it). In a one-column file an empty line is an
 * empty token (a missing value), so that writing and re-reading such a file loses no row.
 */
function isBlankRecord(row: string[]): boolean {
  return row.length === 1 && row[0] === '';
}

const EMPTY_FILE_MESSAGE = 'the file is empty. Choose a CSV file with a header line and data rows.';

/**
 * True for a number in the normative syntax whose value is beyond the largest double, e.g. "1e999"
 * (Number() would give ±Infinity, which no bound, bin or model can hold). Only a token with an
 * exponent or more than 308 characters can overflow, so other tokens skip the pattern test.
 */
function overflowsDouble(token: string): boolean {
  if (token.length <= 308 && !token.includes('e') && !token.includes('E')) return false;
  return isNumericToken(token) && !Number.isFinite(parseNumericToken(token));
}

/** A token as quoted in a message, cut to 40 characters. */
function shorten(token: string): string {
  return JSON.stringify(token.length > 40 ? `${token.slice(0, 37)}...` : token);
}

/**
 * Receives PapaParse's records in order and keeps them as column tokens: the first non-blank record
 * is the header, later ones must have as many fields. `lineOf` turns a record index into a file line.
 */
class RecordCollector {
  header: string[] | undefined;
  columns: string[][] = [];
  nRows = 0;
  /** Records (blank ones included) handed over so far: the index of the next record. */
  recordsSeen = 0;

  constructor(
    private readonly fileName: string,
    private readonly lineOf: (recordIndex: number) => number,
  ) {}

  /** Takes rows[0..end) of the current chunk; the caller then calls finishChunk(rows.length). */
  accept(rows: string[][], end: number): void {
    for (let r = 0; r < end; r++) {
      const row = rows[r]!;
      const header = this.header;
      if (header === undefined) {
        if (!isBlankRecord(row)) this.takeHeader(row);
        continue;
      }
      if (header.length > 1 && isBlankRecord(row)) continue;
      if (row.length !== header.length) {
        throw inputErrorAt(
          { file: this.fileName, line: this.lineOf(this.recordsSeen + r) },
          `expected ${header.length} fields (as in the header) but found ${row.length}. ` +
            'Check for an unquoted delimiter or a missing quote.',
        );
      }
      for (let j = 0; j < row.length; j++) {
        const token = row[j]!;
        if (overflowsDouble(token)) {
          throw inputErrorAt(
            { file: this.fileName, line: this.lineOf(this.recordsSeen + r), column: header[j]! },
            `column "${header[j]}" holds ${shorten(token)}, a number too large for this program ` +
              '(beyond ±1.8e308). Correct the value, or replace it with a missing-value token.',
          );
        }
        this.columns[j]!.push(token);
      }
      this.nRows++;
    }
  }

  finishChunk(recordCount: number): void {
    this.recordsSeen += recordCount;
  }

  private takeHeader(row: string[]): void {
    checkHeaderNames(row, this.fileName);
    this.header = row;
    this.columns = row.map(() => []);
  }
}

/**
 * Reads CSV text into column token arrays with PapaParse (RFC 4180 quoting, quoted line breaks).
 * A UTF-8 byte-order mark is dropped; the delimiter is detected among `,` `;` tab `|`; the first
 * non-blank record is the header; a final line break is fine; blank lines are skipped when the file
 * has two or more columns (in a one-column file they are empty tokens).
 * Throws InputError (with file and 1-based line, header = line 1) for: an empty file, a header without
 * data rows, text that is not text, empty or repeated header names, a record with a different number
 * of fields than the header, malformed quoting, and a number too large for a double ("1e999"). Throws an AbortError when `signal` is aborted.
 * O(characters); one pass, no per-row objects beyond PapaParse's own row arrays.
 */
export function parseCsv(text: string, opts: ParseCsvOptions = {}): RawTable {
  const fileName = opts.fileName ?? 'input';
  throwIfAborted(opts.signal);
  const body = withoutFinalLineBreak(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  assertLooksLikeText(body, fileName);
  if (body.trim() === '') throw inputErrorAt({ file: fileName }, EMPTY_FILE_MESSAGE);
  const delimiter = detectDelimiter(body);
  let linebreak = '\n';
  const collector = new RecordCollector(fileName, (recordIndex) =>
    lineNumberOfRecord(body, recordIndex, delimiter, linebreak),
  );
  let failure: Error | undefined;

  const takeChunk = (results: Papa.ParseResult<string[]>): void => {
    throwIfAborted(opts.signal);
    linebreak = results.meta.linebreak || linebreak;
    const rows = results.data;
    // PapaParse numbers error rows within the chunk; rows before a quote error are still checked first.
    const quoteError = results.errors.find((error) => error.type === 'Quotes');
    const quoteRow = Math.min(quoteError?.row ?? rows.length, rows.length);
    collector.accept(rows, quoteRow);
    if (quoteError !== undefined) {
      throw inputErrorAt(
        {
          file: fileName,
          line: lineNumberOfRecord(body, collector.recordsSeen + quoteRow, delimiter, linebreak),
        },
        describeQuoteProblem(quoteError.code),
      );
    }
    collector.finishChunk(rows.length);
    opts.onProgress?.(Math.min(1, results.meta.cursor / body.length));
  };

  Papa.parse<string[]>(body, {
    delimiter,
    header: false,
    skipEmptyLines: false,
    chunkSize: CHUNK_CHARACTERS,
    chunk: (results: Papa.ParseResult<string[]>, parser: Papa.Parser) => {
      try {
        takeChunk(results);
      } catch (error) {
        failure = error instanceof Error ? error : new Error(String(error));
        parser.abort();
      }
    },
    // On a string input PapaParse runs synchronously: every chunk has been handled when parse returns.
    complete: () => undefined,
  });

  if (failure !== undefined) throw failure;
  if (opts.signal?.aborted) throw createAbortError();
  const header = collector.header;
  if (header === undefined) throw inputErrorAt({ file: fileName }, EMPTY_FILE_MESSAGE);
  if (collector.nRows === 0) {
    throw inputErrorAt(
      { file: fileName },
      'the file has a header line but no data rows. Add at least one row of data below the header.',
    );
  }
  opts.onProgress?.(1);
  return { fileName, header, columns: collector.columns, nRows: collector.nRows, delimiter };
}
