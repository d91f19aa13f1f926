import { inputErrorAt } from './errors';

/** The record separator of a file, as PapaParse detects it (csv-linebreak.ts). */
export type Linebreak = '\n' | '\r\n' | '\r';

const QUOTE = 0x22;
const LF = 0x0a;
const CR = 0x0d;
const SPACE = 0x20;

/**
 * Receives complete records. Field k is bytes[starts[k], ends[k]) of `bytes` (quotes of a quoted
 * field excluded); escaped[k] = 1 when that quoted field holds doubled quotes ("") still to be
 * undone. `line` is the 1-based line of the file on which the record starts. The arrays are reused
 * for the next record: read them before returning.
 */
export interface RecordSink {
  record(
    bytes: Uint8Array,
    starts: Int32Array,
    ends: Int32Array,
    escaped: Uint8Array,
    count: number,
    line: number,
  ): void;
}

/**
 * An RFC 4180 scanner over UTF-8 bytes that arrive in chunks (a Node read stream, File.stream()).
 *
 * Why not PapaParse's chunk mode: PapaParse works on strings, so every chunk would be decoded and
 * every cell become a string and every row an array before a column sees it. This scanner finds
 * field boundaries on the bytes and lets the column builders hash the bytes of a cell (a string is
 * made once per distinct token) or read a number straight from them; the large-table bench
 * measures it at several times PapaParse's own streaming speed on the same file.
 *
 * It reads as PapaParse does with a fixed delimiter and line break: a quote opens a quoted field
 * only as the field's first character, `""` inside one is a quote, a closing quote may be followed
 * by spaces before the delimiter or line break, anything else after it is an error; a quote inside
 * an unquoted field is a character. A record that is not complete at the end of a chunk is kept
 * and scanned again with the next chunk, so records may be split anywhere (inside a quoted field,
 * between \r and \n). Lines are counted as lineNumberOfRecord counts them: line breaks between
 * records and the physical line breaks inside quoted fields. O(bytes), plus the length of a record
 * for every chunk boundary it spans.
 */
export class CsvScanner {
  private carry: Uint8Array | undefined;
  private line = 1;
  private starts = new Int32Array(64);
  private ends = new Int32Array(64);
  private escaped = new Uint8Array(64);
  private readonly delimiter: number;
  /** The byte that ends an unquoted field besides the delimiter: \n, or \r for \r and \r\n files. */
  private readonly breakByte: number;
  private readonly crlf: boolean;
  /** The byte counted as a line inside quoted fields (\n, or \r in \r files). */
  private readonly physicalBreak: number;

  constructor(
    delimiter: string,
    linebreak: Linebreak,
    private readonly sink: RecordSink,
    private readonly fileName: string,
  ) {
    this.delimiter = delimiter.charCodeAt(0);
    this.crlf = linebreak === '\r\n';
    this.breakByte = linebreak === '\n' ? LF : CR;
    this.physicalBreak = linebreak === '\r' ? CR : LF;
  }

  /** Scans a chunk; the scanner keeps what it needs of it (a record cut by the chunk's end). */
  push(chunk: Uint8Array): void {
    this.scan(chunk, false);
  }

  /** Scans what is left: the last record may lack a final line break. */
  finish(): void {
    this.scan(new Uint8Array(0), true);
  }

  private scan(chunk: Uint8Array, isLast: boolean): void {
    let bytes = chunk;
    if (this.carry !== undefined) {
      bytes = new Uint8Array(this.carry.length + chunk.length);
      bytes.set(this.carry);
      bytes.set(chunk, this.carry.length);
      this.carry = undefined;
    }
    const n = bytes.length;
    let position = 0;
    while (position < n) {
      const next = this.scanRecord(bytes, position, isLast);
      if (next < 0) {
        this.carry = bytes.slice(position);
        return;
      }
      position = next;
    }
  }

  /**
   * Scans the record starting at `start`, hands it to the sink and returns where the next one
   * starts, or -1 when the bytes end before the record does (and more may come).
   */
  private scanRecord(bytes: Uint8Array, start: number, isLast: boolean): number {
    const n = bytes.length;
    const delimiter = this.delimiter;
    const breakByte = this.breakByte;
    const recordLine = this.line;
    let count = 0;
    let i = start;
    for (;;) {
      if (count === this.starts.length) this.growFields();
      let fieldStart = i;
      let fieldEnd: number;
      let escaped = 0;
      if (i < n && bytes[i] === QUOTE) {
        // Quoted field: up to a quote that is not doubled.
        fieldStart = i + 1;
        let j = fieldStart;
        let linesInside = 0;
        for (;;) {
          const quote = bytes.indexOf(QUOTE, j);
          const stop = quote < 0 ? n : quote;
          for (let k = j; k < stop; k++) if (bytes[k] === this.physicalBreak) linesInside++;
          if (quote < 0) {
            if (!isLast) return this.incomplete(recordLine);
            throw this.quoteError(recordLine, false);
          }
          if (quote + 1 >= n && !isLast) return this.incomplete(recordLine);
          if (bytes[quote + 1] === QUOTE) {
            escaped = 1;
            j = quote + 2;
            continue;
          }
          fieldEnd = quote;
          i = quote + 1;
          break;
        }
        this.line += linesInside;
        while (i < n && bytes[i] === SPACE) i++;
        if (i >= n && !isLast) return this.incomplete(recordLine);
        if (i < n && bytes[i] !== delimiter && !this.isBreakAt(bytes, i)) {
          if (i + 1 >= n && !isLast && bytes[i] === CR) return this.incomplete(recordLine);
          throw this.quoteError(recordLine, true);
        }
      } else {
        for (;;) {
          while (i < n) {
            const c = bytes[i]!;
            if (c === delimiter || c === breakByte) break;
            i++;
          }
          if (i < n && this.crlf && bytes[i] === CR) {
            if (i + 1 >= n) {
              if (!isLast) return this.incomplete(recordLine);
            } else if (bytes[i + 1] !== LF) {
              i++;
              continue;
            }
          }
          break;
        }
        if (i >= n && !isLast) return this.incomplete(recordLine);
        fieldEnd = i;
      }
      this.starts[count] = fieldStart;
      this.ends[count] = fieldEnd;
      this.escaped[count] = escaped;
      count++;
      if (i < n && bytes[i] === delimiter) {
        i++;
        continue;
      }
      // A line break or the end of the input ends the record.
      if (i < n) {
        i += this.crlf ? 2 : 1;
        this.line++;
      }
      this.sink.record(bytes, this.starts, this.ends, this.escaped, count, recordLine);
      return i;
    }
  }

  /** True when a record separator starts at i (a lone \r in a \r\n file is not one). */
  private isBreakAt(bytes: Uint8Array, i: number): boolean {
    const c = bytes[i];
    if (c !== this.breakByte) return false;
    if (!this.crlf) return true;
    // At the end of the input a lone \r is the file's last character, not a separator.
    return i + 1 < bytes.length && bytes[i + 1] === LF;
  }

  private incomplete(recordLine: number): number {
    this.line = recordLine;
    return -1;
  }

  private quoteError(line: number, followedByText: boolean) {
    return inputErrorAt(
      { file: this.fileName, line },
      followedByText
        ? 'a quoted field is followed by other characters before the next delimiter. Inside a quoted field, write a quote as two quotes ("").'
        : 'a quoted field that starts here is never closed. Add the missing closing quote (") or remove the stray one.',
    );
  }

  private growFields(): void {
    const size = this.starts.length * 2;
    const starts = new Int32Array(size);
    const ends = new Int32Array(size);
    const escaped = new Uint8Array(size);
    starts.set(this.starts);
    ends.set(this.ends);
    escaped.set(this.escaped);
    this.starts = starts;
    this.ends = ends;
    this.escaped = escaped;
  }
}

/** The field's text bytes with doubled quotes undone, written into `into` from 0; returns the length. */
export function unescapeQuotes(bytes: Uint8Array, start: number, end: number, into: Uint8Array): number {
  let length = 0;
  for (let i = start; i < end; i++) {
    into[length++] = bytes[i]!;
    if (bytes[i] === QUOTE) i++;
  }
  return length;
}
