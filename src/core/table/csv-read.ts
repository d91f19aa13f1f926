import type { AbortSignalLike } from '../abort';
import { CsvTableReader } from './csv-stream-read';
import { columnTokens } from './stored-column';
import { createUtf8Encoder } from './utf8';

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

/** The text is handed to the reader in pieces of this many bytes: the grain of progress and cancellation. */
const CHUNK_BYTES = 1 << 20;

/**
 * Reads CSV text into column token arrays, with the streaming reader (csv-stream-read.ts) fed the
 * text's UTF-8 bytes in 1 MiB chunks: RFC 4180 quoting, quoted line breaks. A UTF-8 byte-order mark
 * is dropped; the delimiter is detected among `,` `;` tab `|`; the first non-blank record is the
 * header; a final line break is fine; blank lines are skipped when the file has two or more columns
 * (in a one-column file they are empty tokens).
 * Throws InputError (with file and 1-based line, header = line 1) for: an empty file, a header without
 * data rows, text that is not text, empty or repeated header names, a record with a different number
 * of fields than the header, malformed quoting, and a number too large for a double ("1e999"). Throws
 * an AbortError when `signal` is aborted. O(characters). For large files read the bytes as a stream
 * (readCsvStream) and keep the StoredTable: these string arrays cost a pointer per cell.
 */
export function parseCsv(text: string, opts: ParseCsvOptions = {}): RawTable {
  const bytes = createUtf8Encoder().encode(text);
  const reader = new CsvTableReader({
    fileName: opts.fileName ?? 'input',
    totalBytes: bytes.length,
    ...(opts.onProgress === undefined ? {} : { onProgress: opts.onProgress }),
    ...(opts.signal === undefined ? {} : { signal: opts.signal }),
  });
  for (let start = 0; start < bytes.length; start += CHUNK_BYTES) {
    reader.push(bytes.subarray(start, Math.min(bytes.length, start + CHUNK_BYTES)));
  }
  const stored = reader.finish();
  return {
    fileName: stored.fileName,
    header: stored.header,
    columns: stored.columns.map(columnTokens),
    nRows: stored.nRows,
    delimiter: stored.delimiter,
  };
}
