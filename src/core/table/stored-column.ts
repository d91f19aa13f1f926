import { inputErrorAt } from './errors';
import { isNumericToken, parseNumericToken } from './numeric-token';
import { PagedCodes, PagedFloat64, PAGE_SIZE } from './paged-array';
import { decodeUtf8Range } from './utf8';

/**
 * A column of a file as read, before any schema: every token can be given back, and a schema types
 * it without going through per-cell strings (stored-table-build.ts).
 *
 * `dictionary`: the distinct tokens in order of first appearance, a code per row. Used while a
 * column has at most DICTIONARY_LIMIT distinct tokens, and for text columns with more.
 * `numbers`: a column with more distinct tokens, nearly all numbers: the value per row, and a code
 * for the rows whose token is not a number ("", "NA"). Such a row's token is kept; a number's
 * spelling is not ("12.50" reads back as "12.5"), which only the preview and re-typing the column
 * as categorical can show. Bounded memory either way: one code (1–4 bytes) or one double per row.
 */
export type StoredColumn = DictionaryColumn | NumbersColumn;

export interface DictionaryColumn {
  mode: 'dictionary';
  name: string;
  length: number;
  /** Distinct tokens, in order of first appearance. */
  tokens: string[];
  /** counts[k]: how many rows hold tokens[k]. */
  counts: number[];
  /** numbers[k]: the value of tokens[k] when it is a number in the normative syntax, else NaN. */
  numbers: number[];
  /** codes.get(i): the index in `tokens` of row i's token. */
  codes: PagedCodes;
}

export interface NumbersColumn {
  mode: 'numbers';
  name: string;
  length: number;
  /** values.get(i): the number of row i, NaN where the token is not a number. */
  values: PagedFloat64;
  /** otherCodes.get(i): 0 for a number, k + 1 where row i holds otherTokens[k]. */
  otherCodes: PagedCodes;
  otherTokens: string[];
  otherCounts: number[];
  /** Facts of the numbers (all rows with a number token). */
  numberCount: number;
  min: number;
  max: number;
  allWhole: boolean;
}

/** A column keeps its tokens as a dictionary up to this many distinct ones (then see `numbers`). */
export const DICTIONARY_LIMIT = 4096;
/** A column turns to `numbers` only when at most this many of its distinct tokens are not numbers. */
const MAX_OTHER_TOKENS_TO_SWITCH = 255;

const POW10 = Array.from({ length: 16 }, (_, k) => 10 ** k);

/**
 * The value of a plain decimal token (optional sign, digits, optional point), or NaN for any other
 * token. With at most 15 digits it is m / 10^d, m < 2^53 and d ≤ 15: the correctly rounded value of
 * the decimal (both operands are exact doubles and IEEE division rounds once: Clinger's fast path),
 * so it equals Number(token). With 16 to 300 digits (no double overflow possible) it is Number() of
 * the ASCII text, without the pattern test.
 */
function parsePlainDecimal(bytes: Uint8Array, start: number, end: number): number {
  let i = start;
  let negative = false;
  if (i < end && (bytes[i] === 0x2d || bytes[i] === 0x2b)) {
    negative = bytes[i] === 0x2d;
    i++;
  }
  let mantissa = 0;
  let digits = 0;
  let decimals = 0;
  let point = false;
  for (; i < end; i++) {
    const c = bytes[i]!;
    if (c >= 0x30 && c <= 0x39) {
      mantissa = mantissa * 10 + (c - 0x30);
      digits++;
      if (point) decimals++;
    } else if (c === 0x2e && !point) {
      point = true;
    } else {
      return NaN;
    }
  }
  if (digits === 0 || digits > 300) return NaN;
  if (digits > 15) return Number(asciiText(bytes, start, end));
  const value = decimals === 0 ? mantissa : mantissa / POW10[decimals]!;
  return negative ? -value : value;
}

/** bytes[start, end) as text, each byte one character (callers pass ASCII only). */
function asciiText(bytes: Uint8Array, start: number, end: number): string {
  return String.fromCharCode.apply(null, bytes.subarray(start, end) as unknown as number[]);
}

/** FNV-1a over bytes[start, end). */
function hashBytes(bytes: Uint8Array, start: number, end: number): number {
  let hash = 0x811c9dc5;
  for (let i = start; i < end; i++) hash = Math.imul(hash ^ bytes[i]!, 0x01000193);
  return hash >>> 0;
}

/**
 * Appends the tokens of one column as they are read (bytes of one cell at a time) and gives the
 * StoredColumn at the end. Throws an InputError (file, line, column) at the first number beyond
 * the largest double ("1e999"). Per cell: a hash and a compare, or a number read from the bytes;
 * a string is made once per distinct token (or per non-number cell of a `numbers` column).
 */
export class StoredColumnBuilder {
  length = 0;
  private mode: 'dictionary' | 'numbers' = 'dictionary';
  // dictionary mode
  private slots = new Int32Array(256);
  private pool = new Uint8Array(1024);
  private poolLength = 0;
  private entryStart: number[] = [];
  private entryEnd: number[] = [];
  private entryHash: number[] = [];
  private tokens: string[] = [];
  private counts: number[] = [];
  private numbers: number[] = [];
  private nonNumberEntries = 0;
  private codes = new PagedCodes();
  // numbers mode
  private values = new PagedFloat64();
  private otherCodes = new PagedCodes();
  private otherIndex = new Map<string, number>();
  private otherTokens: string[] = [];
  private otherCounts: number[] = [];
  private numberCount = 0;
  private min = Infinity;
  private max = -Infinity;
  private allWhole = true;

  constructor(
    readonly name: string,
    private readonly fileName: string,
  ) {}

  /** Appends the token bytes[start, end) (UTF-8, quotes already undone) of a row on file line `line`. */
  append(bytes: Uint8Array, start: number, end: number, line: number): void {
    if (this.mode === 'numbers') this.appendNumber(bytes, start, end, line);
    else this.appendToDictionary(bytes, start, end, line);
    this.length++;
  }

  /** The column as read. The builder must not be used afterwards. */
  finish(): StoredColumn {
    if (this.mode === 'dictionary') {
      return {
        mode: 'dictionary',
        name: this.name,
        length: this.length,
        tokens: this.tokens,
        counts: this.counts,
        numbers: this.numbers,
        codes: this.codes,
      };
    }
    return {
      mode: 'numbers',
      name: this.name,
      length: this.length,
      values: this.values,
      otherCodes: this.otherCodes,
      otherTokens: this.otherTokens,
      otherCounts: this.otherCounts,
      numberCount: this.numberCount,
      min: this.min,
      max: this.max,
      allWhole: this.allWhole,
    };
  }

  private appendToDictionary(bytes: Uint8Array, start: number, end: number, line: number): void {
    const hash = hashBytes(bytes, start, end);
    const mask = this.slots.length - 1;
    let slot = hash & mask;
    for (;;) {
      const entry = this.slots[slot]! - 1;
      if (entry < 0) break;
      if (this.entryHash[entry] === hash && this.sameBytes(entry, bytes, start, end)) {
        this.counts[entry]!++;
        this.codes.push(entry);
        return;
      }
      slot = (slot + 1) & mask;
    }
    const token = decodeUtf8Range(bytes, start, end);
    const value = this.numberOf(token, line);
    const entry = this.tokens.length;
    this.tokens.push(token);
    this.counts.push(1);
    this.numbers.push(value);
    if (Number.isNaN(value)) this.nonNumberEntries++;
    this.entryHash.push(hash);
    this.storeBytes(bytes, start, end);
    this.slots[slot] = entry + 1;
    this.codes.push(entry);
    if (this.tokens.length * 2 > this.slots.length) this.rehash();
    if (this.tokens.length > DICTIONARY_LIMIT && this.nonNumberEntries <= MAX_OTHER_TOKENS_TO_SWITCH) {
      this.switchToNumbers();
    }
  }

  private appendNumber(bytes: Uint8Array, start: number, end: number, line: number): void {
    let value = parsePlainDecimal(bytes, start, end);
    if (Number.isNaN(value)) {
      const token = decodeUtf8Range(bytes, start, end);
      value = this.numberOf(token, line);
      if (Number.isNaN(value)) {
        let index = this.otherIndex.get(token);
        if (index === undefined) {
          index = this.otherTokens.length;
          this.otherIndex.set(token, index);
          this.otherTokens.push(token);
          this.otherCounts.push(0);
        }
        this.otherCounts[index]!++;
        this.values.push(NaN);
        this.otherCodes.push(index + 1);
        return;
      }
    }
    this.values.push(value);
    this.otherCodes.push(0);
    this.noteNumber(value, 1);
  }

  private noteNumber(value: number, count: number): void {
    this.numberCount += count;
    if (value < this.min) this.min = value;
    if (value > this.max) this.max = value;
    if (this.allWhole && !Number.isInteger(value)) this.allWhole = false;
  }

  /** The token's value when it is a number in the normative syntax, else NaN; "1e999" is an error. */
  private numberOf(token: string, line: number): number {
    if (!isNumericToken(token)) return NaN;
    const value = parseNumericToken(token);
    if (!Number.isFinite(value)) {
      const shown = JSON.stringify(token.length > 40 ? `${token.slice(0, 37)}...` : token);
      throw inputErrorAt(
        { file: this.fileName, line, column: this.name },
        `column "${this.name}" holds ${shown}, a number too large for this program ` +
          '(beyond ±1.8e308). Correct the value, or replace it with a missing-value token.',
      );
    }
    return value;
  }

  private sameBytes(entry: number, bytes: Uint8Array, start: number, end: number): boolean {
    const from = this.entryStart[entry]!;
    if (this.entryEnd[entry]! - from !== end - start) return false;
    const pool = this.pool;
    for (let k = 0; k < end - start; k++) if (pool[from + k] !== bytes[start + k]) return false;
    return true;
  }

  private storeBytes(bytes: Uint8Array, start: number, end: number): void {
    const length = end - start;
    if (this.poolLength + length > this.pool.length) {
      const grown = new Uint8Array(Math.max(this.pool.length * 2, this.poolLength + length));
      grown.set(this.pool.subarray(0, this.poolLength));
      this.pool = grown;
    }
    this.pool.set(bytes.subarray(start, end), this.poolLength);
    this.entryStart.push(this.poolLength);
    this.poolLength += length;
    this.entryEnd.push(this.poolLength);
  }

  private rehash(): void {
    const slots = new Int32Array(this.slots.length * 2);
    const mask = slots.length - 1;
    for (let entry = 0; entry < this.tokens.length; entry++) {
      let slot = this.entryHash[entry]! & mask;
      while (slots[slot] !== 0) slot = (slot + 1) & mask;
      slots[slot] = entry + 1;
    }
    this.slots = slots;
  }

  /** Rewrites the rows read so far as numbers and other-token codes, and drops the dictionary. */
  private switchToNumbers(): void {
    const otherOfEntry = new Int32Array(this.tokens.length);
    this.tokens.forEach((token, entry) => {
      const value = this.numbers[entry]!;
      if (Number.isNaN(value)) {
        otherOfEntry[entry] = this.otherTokens.length + 1;
        this.otherIndex.set(token, this.otherTokens.length);
        this.otherTokens.push(token);
        this.otherCounts.push(this.counts[entry]!);
      } else {
        this.noteNumber(value, this.counts[entry]!);
      }
    });
    for (const page of this.codes.pages) {
      const rows = Math.min(PAGE_SIZE, this.codes.length - this.values.length);
      for (let k = 0; k < rows; k++) {
        const entry = page[k]!;
        this.values.push(this.numbers[entry]!);
        this.otherCodes.push(otherOfEntry[entry]!);
      }
    }
    this.mode = 'numbers';
    this.codes = new PagedCodes();
    this.slots = new Int32Array(0);
    this.pool = new Uint8Array(0);
    this.entryStart = [];
    this.entryEnd = [];
    this.entryHash = [];
    this.tokens = [];
    this.counts = [];
    this.numbers = [];
  }
}

/** Row i's token (a number as JavaScript writes it in a `numbers` column). */
export function tokenAt(column: StoredColumn, i: number): string {
  if (column.mode === 'dictionary') return column.tokens[column.codes.get(i)]!;
  const other = column.otherCodes.get(i);
  return other === 0 ? String(column.values.get(i)) : column.otherTokens[other - 1]!;
}

/** All tokens of the column, in row order (a string array: for small tables and per-column steps). */
export function columnTokens(column: StoredColumn): string[] {
  const tokens = new Array<string>(column.length);
  if (column.mode === 'dictionary') {
    for (let i = 0; i < column.length; i++) tokens[i] = column.tokens[column.codes.get(i)]!;
  } else {
    for (let i = 0; i < column.length; i++) tokens[i] = tokenAt(column, i);
  }
  return tokens;
}
