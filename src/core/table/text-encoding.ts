/**
 * The text encodings a CSV file may be read in: UTF-8 (the default) and Windows-1252, the encoding
 * spreadsheet programs on Windows write as "CSV" (Latin-1 plus curly quotes, €, … in 0x80–0x9F).
 * Invalid UTF-8 is never replaced silently: it is found with a fatal TextDecoder, located byte by
 * byte, and either read as Windows-1252 (when everything before it is ASCII, so both readings agree
 * on it) with a note saying so, or refused with the line of the first bad byte.
 */
import { inputErrorAt } from './errors';

export type CsvEncoding = 'utf-8' | 'windows-1252';
/** What the user asked for: a named encoding, or `auto` (UTF-8, Windows-1252 when it is not). */
export type CsvEncodingChoice = CsvEncoding | 'auto';

export const CSV_ENCODING_CHOICES: readonly CsvEncodingChoice[] = ['auto', 'utf-8', 'windows-1252'];

/**
 * What a picker of encodings offers, with the name it shows. Windows-1252 is also how ISO-8859-1
 * (Latin-1) files are read, as browsers read them (WHATWG Encoding Standard: the label "iso-8859-1"
 * names windows-1252): the two differ only in bytes 0x80–0x9F, control characters in Latin-1.
 */
export const CSV_ENCODING_NAMES: Readonly<Record<CsvEncodingChoice, string>> = {
  auto: 'Detect (UTF-8, or Windows-1252 when not UTF-8)',
  'utf-8': 'UTF-8',
  'windows-1252': 'Windows-1252 (ISO-8859-1, Latin-1)',
};

/**
 * The sentence saying which encoding a file was read in and why: `used` is what the reader used,
 * `choice` what was asked for (with `auto`, Windows-1252 means the file was found not to be UTF-8).
 */
export function encodingUsedSentence(used: CsvEncoding, choice: CsvEncodingChoice): string {
  const name = used === 'utf-8' ? 'UTF-8' : 'Windows-1252';
  if (choice !== 'auto') return `Read as ${name}, as chosen.`;
  return used === 'utf-8'
    ? 'Read as UTF-8 (detected).'
    : 'Read as Windows-1252 (detected: the file is not valid UTF-8).';
}

/** Reads an encoding name as a user may type it ("utf8", "cp1252", "latin1" …); undefined when unknown. */
export function parseEncodingChoice(name: string): CsvEncodingChoice | undefined {
  const key = name.trim().toLowerCase().replace(/[\s_]/g, '-');
  if (key === 'auto') return 'auto';
  if (key === 'utf-8' || key === 'utf8') return 'utf-8';
  if (['windows-1252', 'cp1252', 'win-1252', 'latin1', 'latin-1', 'iso-8859-1'].includes(key))
    return 'windows-1252';
  return undefined;
}

/**
 * Code points of Windows-1252 bytes 0x80–0x9F (WHATWG Encoding Standard, index-windows-1252; the five
 * unassigned bytes map to the C1 control of the same number, as browsers decode them). Bytes 0xA0–0xFF
 * are U+00A0–U+00FF.
 */
const HIGH_CONTROLS = [
  0x20ac, 0x81, 0x201a, 0x192, 0x201e, 0x2026, 0x2020, 0x2021, 0x2c6, 0x2030, 0x160, 0x2039, 0x152, 0x8d,
  0x17d, 0x8f, 0x90, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x2dc, 0x2122, 0x161, 0x203a,
  0x153, 0x9d, 0x17e, 0x178,
];

/** The code point of one Windows-1252 byte. */
export function windows1252CodePoint(byte: number): number {
  return byte >= 0x80 && byte < 0xa0 ? HIGH_CONTROLS[byte - 0x80]! : byte;
}

/** Windows-1252 bytes as UTF-8 bytes (each byte becomes 1 to 3 bytes). */
export function windows1252ToUtf8(bytes: Uint8Array): Uint8Array {
  let extra = 0;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (b >= 0x80) extra += windows1252CodePoint(b) >= 0x800 ? 2 : 1;
  }
  if (extra === 0) return bytes;
  const out = new Uint8Array(bytes.length + extra);
  let o = 0;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (b < 0x80) {
      out[o++] = b;
      continue;
    }
    const c = windows1252CodePoint(b);
    if (c < 0x800) {
      out[o++] = 0xc0 | (c >> 6);
      out[o++] = 0x80 | (c & 0x3f);
    } else {
      out[o++] = 0xe0 | (c >> 12);
      out[o++] = 0x80 | ((c >> 6) & 0x3f);
      out[o++] = 0x80 | (c & 0x3f);
    }
  }
  return out;
}

/**
 * Index of the first byte of `bytes` that cannot be part of well-formed UTF-8 (RFC 3629: no
 * overlong forms, no surrogates, nothing above U+10FFFF), or of a sequence cut short by the end when
 * `complete`; -1 when there is none. A sequence cut short by the end of a chunk is not an error
 * when more bytes follow.
 */
export function firstInvalidUtf8(bytes: Uint8Array, complete: boolean): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    if (b < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let low = 0x80;
    let high = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) need = 1;
    else if (b >= 0xe0 && b <= 0xef) {
      need = 2;
      if (b === 0xe0) low = 0xa0;
      if (b === 0xed) high = 0x9f;
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3;
      if (b === 0xf0) low = 0x90;
      if (b === 0xf4) high = 0x8f;
    } else return i;
    for (let k = 1; k <= need; k++) {
      if (i + k >= bytes.length) return complete ? i : -1;
      const c = bytes[i + k]!;
      if (c < (k === 1 ? low : 0x80) || c > (k === 1 ? high : 0xbf)) return i;
    }
    i += need + 1;
  }
  return -1;
}

interface FatalDecoder {
  decode(bytes?: Uint8Array, options?: { stream: boolean }): string;
}
type FatalDecoderConstructor = new (
  label: string,
  options: { fatal: boolean; ignoreBOM: boolean },
) => FatalDecoder;

function fatalUtf8Decoder(): FatalDecoder {
  const Constructor = (globalThis as unknown as { TextDecoder?: FatalDecoderConstructor }).TextDecoder;
  if (Constructor === undefined) throw new Error('TextDecoder is not available in this environment.');
  return new Constructor('utf-8', { fatal: true, ignoreBOM: true });
}

function countNewlines(bytes: Uint8Array, end: number): number {
  let lines = 0;
  for (let i = bytes.indexOf(0x0a); i !== -1 && i < end; i = bytes.indexOf(0x0a, i + 1)) lines++;
  return lines;
}

/**
 * Turns the chunks of a file into UTF-8 chunks, in order, for the CSV scanner: UTF-8 chunks are checked
 * and passed on, Windows-1252 chunks converted. With `auto`, a file whose first invalid UTF-8 byte comes
 * before any other non-ASCII byte is read as Windows-1252 from the start, and `note` says so; invalid
 * UTF-8 after valid multi-byte UTF-8, or with `utf-8` chosen, is refused naming the line.
 */
export class CsvTextDecoder {
  private mode: CsvEncoding | 'auto';
  private readonly decoder = fatalUtf8Decoder();
  /** Bytes ≥ 0x80 were seen and accepted as UTF-8 (so Windows-1252 can no longer be assumed). */
  private sawUtf8 = false;
  /** Up to 3 bytes of a sequence cut by the end of the previous chunk. */
  private carry: Uint8Array = new Uint8Array(0);
  private newlines = 0;
  /** Set when the file was read as Windows-1252 without being asked to. */
  note: string | undefined;

  constructor(
    choice: CsvEncodingChoice,
    private readonly fileName: string,
  ) {
    this.mode = choice;
  }

  get encoding(): CsvEncoding {
    return this.mode === 'windows-1252' ? 'windows-1252' : 'utf-8';
  }

  /** The chunk as UTF-8 bytes; throws InputError at invalid UTF-8 that cannot be read as Windows-1252. */
  push(chunk: Uint8Array): Uint8Array {
    if (this.mode === 'windows-1252') return this.counted(windows1252ToUtf8(chunk), chunk);
    let text: string;
    try {
      text = this.decoder.decode(chunk, { stream: true });
    } catch {
      return this.invalid(chunk);
    }
    // Fewer UTF-16 units than bytes: some bytes were non-ASCII UTF-8 (or held as an incomplete sequence).
    if (text.length !== chunk.length + this.carry.length) this.sawUtf8 = true;
    const cut = chunk.length - Math.min(3, chunk.length);
    const tail = chunk.subarray(cut);
    const pending = firstInvalidUtf8(tail, false) === -1 ? trailingIncomplete(tail) : 0;
    this.carry = pending > 0 ? tail.slice(tail.length - pending) : new Uint8Array(0);
    return this.counted(chunk, chunk);
  }

  /** Checks that the file did not end inside a UTF-8 sequence. */
  finish(): void {
    if (this.mode === 'windows-1252') return;
    try {
      this.decoder.decode();
    } catch {
      this.refuse(this.carry[0] ?? 0, this.newlines + 1);
    }
  }

  private counted(out: Uint8Array, read: Uint8Array): Uint8Array {
    this.newlines += countNewlines(read, read.length);
    return out;
  }

  private invalid(chunk: Uint8Array): Uint8Array {
    const joined = new Uint8Array(this.carry.length + chunk.length);
    joined.set(this.carry);
    joined.set(chunk, this.carry.length);
    const at = Math.max(0, firstInvalidUtf8(joined, false));
    const offset = Math.max(0, at - this.carry.length);
    const line = this.newlines + countNewlines(chunk, offset) + 1;
    const byte = joined[at] ?? 0;
    // Valid UTF-8 beyond ASCII before the bad byte, in this chunk: the file mixes encodings.
    for (let i = 0; i < at && !this.sawUtf8; i++) if (joined[i]! >= 0x80) this.sawUtf8 = true;
    if (this.mode === 'auto' && !this.sawUtf8) {
      // Everything before the bad byte was ASCII, which Windows-1252 reads the same way.
      this.mode = 'windows-1252';
      this.note =
        `${this.fileName} is not valid UTF-8 (byte 0x${hex(byte)} on line ${line} is the first that is not) ` +
        'and was read as Windows-1252, the encoding of "CSV" files from spreadsheet programs on Windows. ' +
        'If its accented letters look wrong, save it as "CSV UTF-8" or choose its encoding.';
      return this.counted(windows1252ToUtf8(chunk), chunk);
    }
    return this.refuse(byte, line);
  }

  private refuse(byte: number, line: number): never {
    const hint =
      this.mode === 'utf-8'
        ? 'It was read as UTF-8 as asked; choose its encoding (e.g. windows-1252) or save it as "CSV UTF-8".'
        : 'Earlier lines hold UTF-8 text, so the file mixes encodings; save it as "CSV UTF-8" and try again.';
    throw inputErrorAt({ file: this.fileName, line }, `byte 0x${hex(byte)} is not valid UTF-8. ${hint}`);
  }
}

const hex = (byte: number) => byte.toString(16).toUpperCase().padStart(2, '0');

/** Bytes at the end of `tail` that start a UTF-8 sequence not yet complete (0 when none). */
function trailingIncomplete(tail: Uint8Array): number {
  for (let k = 1; k <= Math.min(3, tail.length); k++) {
    const b = tail[tail.length - k]!;
    if (b < 0x80) return 0;
    if (b >= 0xc0) {
      const length = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : 2;
      return length > k ? k : 0;
    }
  }
  return 0;
}
