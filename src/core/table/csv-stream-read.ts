import type { AbortSignalLike } from '../abort';
import { throwIfAborted } from '../abort';
import { detectDelimiter } from './csv-delimiter';
import { guessLinebreak } from './csv-linebreak';
import { CsvScanner, unescapeQuotes, type RecordSink } from './csv-scanner';
import { inputErrorAt } from './errors';
import { StoredColumnBuilder, type StoredColumn } from './stored-column';
import { findBinaryContentReason } from './text-sanity';
import { CsvTextDecoder, type CsvEncoding, type CsvEncodingChoice } from './text-encoding';
import { createUtf8Decoder, decodeUtf8Range } from './utf8';

/**
 * A CSV file as read, before any schema: the header and one StoredColumn per header name (every
 * token can be given back). Built chunk by chunk from the file's bytes, never holding its text.
 */
export interface StoredTable {
  fileName: string;
  header: string[];
  columns: StoredColumn[];
  nRows: number;
  delimiter: string;
  /** The encoding the file was read in. */
  encoding?: CsvEncoding;
  /** Set when the file was not valid UTF-8 and was read as Windows-1252 without being asked: say so. */
  encodingNote?: string;
}

export interface ReadCsvOptions {
  /** Used in error messages; default "input". */
  fileName?: string;
  /** The file's size in bytes, when known: progress is reported as the share read. */
  totalBytes?: number;
  /** Called once per chunk with the share of the bytes read so far, and with 1 at the end. */
  onProgress?: (fraction: number) => void;
  /** Checked once per chunk; when set, reading throws an Error named AbortError. */
  signal?: AbortSignalLike;
  /** The file's encoding; default `auto`: UTF-8, or Windows-1252 when the file is not UTF-8 (text-encoding.ts). */
  encoding?: CsvEncodingChoice;
}

/** Delimiter and line break are detected on the first bytes: up to this many are held back first. */
const SAMPLE_BYTES = 1 << 20;

export const EMPTY_FILE_MESSAGE = 'the file is empty. Choose a CSV file with a header line and data rows.';

/** Throws when header names are empty or repeated: columns are addressed by name everywhere else. */
export function checkHeaderNames(header: string[], fileName: string): void {
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

/**
 * Takes scanned records: the first non-blank one is the header, later ones must have as many
 * fields and go cell by cell into the column builders. Blank records are skipped when there are
 * two or more columns (as pandas' read_csv does); in a one-column file they are empty tokens.
 */
class ColumnSink implements RecordSink {
  header: string[] | undefined;
  builders: StoredColumnBuilder[] = [];
  nRows = 0;
  private scratch = new Uint8Array(256);

  constructor(private readonly fileName: string) {}

  record(
    bytes: Uint8Array,
    starts: Int32Array,
    ends: Int32Array,
    escaped: Uint8Array,
    count: number,
    line: number,
  ): void {
    const blank = count === 1 && starts[0] === ends[0];
    const header = this.header;
    if (header === undefined) {
      if (!blank) this.takeHeader(bytes, starts, ends, escaped, count);
      return;
    }
    if (blank && header.length > 1) return;
    if (count !== header.length) {
      throw inputErrorAt(
        { file: this.fileName, line },
        `expected ${header.length} fields (as in the header) but found ${count}. ` +
          'Check for an unquoted delimiter or a missing quote.',
      );
    }
    const builders = this.builders;
    for (let j = 0; j < count; j++) {
      if (escaped[j] === 0) {
        builders[j]!.append(bytes, starts[j]!, ends[j]!, line);
      } else {
        const length = this.unescape(bytes, starts[j]!, ends[j]!);
        builders[j]!.append(this.scratch, 0, length, line);
      }
    }
    this.nRows++;
  }

  private unescape(bytes: Uint8Array, start: number, end: number): number {
    if (this.scratch.length < end - start) this.scratch = new Uint8Array(2 * (end - start));
    return unescapeQuotes(bytes, start, end, this.scratch);
  }

  private takeHeader(
    bytes: Uint8Array,
    starts: Int32Array,
    ends: Int32Array,
    escaped: Uint8Array,
    count: number,
  ): void {
    const header: string[] = [];
    for (let j = 0; j < count; j++) {
      if (escaped[j] === 0) header.push(decodeUtf8Range(bytes, starts[j]!, ends[j]!));
      else header.push(decodeUtf8Range(this.scratch, 0, this.unescape(bytes, starts[j]!, ends[j]!)));
    }
    checkHeaderNames(header, this.fileName);
    this.header = header;
    this.builders = header.map((name) => new StoredColumnBuilder(name, this.fileName));
  }
}

function startsWithUtf16ByteOrderMark(bytes: Uint8Array): boolean {
  return (
    bytes.length >= 2 &&
    ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff))
  );
}

function startsWithUtf8ByteOrderMark(bytes: Uint8Array): boolean {
  return bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
}

/**
 * Reads a CSV file pushed to it as chunks of bytes into a StoredTable, in one pass, holding at
 * most the first MiB (to detect the delimiter and line break) and the record being read.
 * The rules and the InputErrors (file, line, column, what to do) are parseCsv's: UTF-8 (a
 * byte-order mark dropped; UTF-16 and binary content rejected; invalid UTF-8 read as Windows-1252 or
 * refused, never replaced: text-encoding.ts), delimiter among `,` `;` tab `|`,
 * the first non-blank record is the header, RFC 4180 quoting, ragged records, malformed quotes,
 * empty or repeated header names, a header without rows, numbers beyond a double.
 */
export class CsvTableReader {
  private readonly fileName: string;
  private readonly sink: ColumnSink;
  private scanner: CsvScanner | undefined;
  private held: Uint8Array[] = [];
  private heldBytes = 0;
  private bytesRead = 0;
  private delimiter = ',';
  private readonly text: CsvTextDecoder;

  constructor(private readonly opts: ReadCsvOptions = {}) {
    this.fileName = opts.fileName ?? 'input';
    this.sink = new ColumnSink(this.fileName);
    this.text = new CsvTextDecoder(opts.encoding ?? 'auto', this.fileName);
    throwIfAborted(opts.signal);
  }

  push(chunk: Uint8Array): void {
    throwIfAborted(this.opts.signal);
    this.bytesRead += chunk.length;
    if (this.scanner !== undefined) {
      if (chunk.indexOf(0) !== -1) this.notText('it contains NUL bytes');
      this.scanner.push(this.text.push(chunk));
    } else {
      this.held.push(chunk);
      this.heldBytes += chunk.length;
      if (this.heldBytes >= SAMPLE_BYTES) this.start(false);
    }
    if (this.opts.totalBytes !== undefined && this.opts.totalBytes > 0) {
      this.opts.onProgress?.(Math.min(1, this.bytesRead / this.opts.totalBytes));
    }
  }

  finish(): StoredTable {
    throwIfAborted(this.opts.signal);
    if (this.scanner === undefined) this.start(true);
    this.text.finish();
    this.scanner!.finish();
    const header = this.sink.header;
    if (header === undefined) throw inputErrorAt({ file: this.fileName }, EMPTY_FILE_MESSAGE);
    if (this.sink.nRows === 0) {
      throw inputErrorAt(
        { file: this.fileName },
        'the file has a header line but no data rows. Add at least one row of data below the header.',
      );
    }
    this.opts.onProgress?.(1);
    const columns = this.sink.builders.map((builder) => builder.finish());
    return {
      fileName: this.fileName,
      header,
      columns,
      nRows: this.sink.nRows,
      delimiter: this.delimiter,
      encoding: this.text.encoding,
      ...(this.text.note === undefined ? {} : { encodingNote: this.text.note }),
    };
  }

  /** Looks at the held first bytes, sets up the scanner and hands it those bytes. */
  private start(wholeFile: boolean): void {
    let first = concat(this.held, this.heldBytes);
    this.held = [];
    if (startsWithUtf16ByteOrderMark(first)) {
      throw inputErrorAt(
        { file: this.fileName },
        'is encoded as UTF-16; dpsynth reads UTF-8. Save it as "CSV UTF-8" and try again.',
      );
    }
    if (first.indexOf(0) !== -1) this.notText('it contains NUL bytes');
    if (startsWithUtf8ByteOrderMark(first)) first = first.subarray(3);
    first = this.text.push(first);
    const sample = createUtf8Decoder().decode(first, { stream: !wholeFile });
    const reason = findBinaryContentReason(sample);
    if (reason !== undefined) this.notText(reason);
    if (wholeFile && sample.trim() === '') throw inputErrorAt({ file: this.fileName }, EMPTY_FILE_MESSAGE);
    this.delimiter = detectDelimiter(sample);
    this.scanner = new CsvScanner(this.delimiter, guessLinebreak(sample), this.sink, this.fileName);
    this.scanner.push(first);
  }

  private notText(reason: string): never {
    throw inputErrorAt(
      { file: this.fileName },
      `does not look like a text CSV file (${reason}). Export it from your spreadsheet as "CSV UTF-8" and try again.`,
    );
  }
}

function concat(chunks: Uint8Array[], length: number): Uint8Array {
  if (chunks.length === 1) return chunks[0]!;
  const all = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    all.set(chunk, offset);
    offset += chunk.length;
  }
  return all;
}

/**
 * Reads a CSV file from a stream of byte chunks (a Node read stream, the reader of File.stream())
 * into a StoredTable. See CsvTableReader for the rules. Memory: the columns, the first MiB, one record.
 */
export async function readCsvStream(
  chunks: AsyncIterable<Uint8Array>,
  opts: ReadCsvOptions = {},
): Promise<StoredTable> {
  const reader = new CsvTableReader(opts);
  for await (const chunk of chunks) reader.push(chunk);
  return reader.finish();
}
