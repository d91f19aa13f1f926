import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { columnTokens } from './stored-column';
import { CsvTableReader } from './csv-stream-read';
import {
  CSV_ENCODING_CHOICES,
  CSV_ENCODING_NAMES,
  encodingUsedSentence,
  firstInvalidUtf8,
  parseEncodingChoice,
  windows1252ToUtf8,
} from './text-encoding';
import type { CsvEncodingChoice } from './text-encoding';

// A two-row CSV saved as Windows-1252 by a spreadsheet: "José" is the bytes 4A 6F 73 E9.
const LATIN = new Uint8Array(
  readFileSync(new URL('../../../e2e/fixtures/windows-1252.csv', import.meta.url)),
);
const utf8 = (text: string) => new TextEncoder().encode(text);

/** Reads `bytes` pushed in chunks of `size` bytes (all at once when undefined). */
function read(bytes: Uint8Array, encoding?: CsvEncodingChoice, size?: number) {
  const reader = new CsvTableReader({ fileName: 'people.csv', ...(encoding ? { encoding } : {}) });
  const step = size ?? bytes.length;
  for (let i = 0; i < bytes.length; i += step) reader.push(bytes.slice(i, i + step));
  return reader.finish();
}

describe('CSV text encodings', () => {
  it('the fixture holds byte 0xE9 on line 2 and is not UTF-8', () => {
    expect(Array.from(LATIN.subarray(9, 14))).toEqual([0x4a, 0x6f, 0x73, 0xe9, 0x2c]);
    expect(firstInvalidUtf8(LATIN, true)).toBe(12);
  });

  for (const size of [undefined, 1, 5]) {
    it(`reads a Windows-1252 file as such, and says so (chunks of ${size ?? 'all'} bytes)`, () => {
      const table = read(LATIN, undefined, size);
      expect(columnTokens(table.columns[0]!)).toEqual(['José', 'Ana']);
      expect(table.encoding).toBe('windows-1252');
      expect(table.encodingNote).toContain('people.csv is not valid UTF-8 (byte 0xE9 on line 2');
      expect(table.encodingNote).toContain('read as Windows-1252');
    });
  }

  it('refuses invalid UTF-8 with the line of the first bad byte when UTF-8 is chosen', () => {
    expect(() => read(LATIN, 'utf-8')).toThrow(/people\.csv, line 2.*byte 0xE9 is not valid UTF-8/);
    expect(() => read(LATIN, 'utf-8', 1)).toThrow(/line 2/);
  });

  it('reads it as Windows-1252 without a note when that is chosen', () => {
    const table = read(LATIN, 'windows-1252');
    expect(columnTokens(table.columns[0]!)).toEqual(['José', 'Ana']);
    expect(table.encodingNote).toBeUndefined();
  });

  it('refuses a file that mixes UTF-8 and other bytes, naming the line', () => {
    const mixed = new Uint8Array([...utf8('name,age\nZoë,3\nx,4\n'), ...LATIN.subarray(9)]);
    for (const size of [undefined, 2]) {
      expect(() => read(mixed, undefined, size)).toThrow(
        /line 4.*byte 0xE9 is not valid UTF-8.*mixes encodings/,
      );
    }
  });

  it('reads valid UTF-8 split anywhere as UTF-8, with no note; a sequence cut by the end is refused', () => {
    const text = utf8('name,city\nZoë,Kraków\n€,日本\n😀,x\n');
    for (const size of [undefined, 1, 2, 3, 7]) {
      const table = read(text, undefined, size);
      expect(columnTokens(table.columns[1]!)).toEqual(['Kraków', '日本', 'x']);
      expect(table.encoding).toBe('utf-8');
      expect(table.encodingNote).toBeUndefined();
    }
    const cut = new Uint8Array([...utf8('name\nZo\n'), 0xe6, 0x97]);
    expect(() => read(cut, 'utf-8')).toThrow(/line 3.*not valid UTF-8/);
  });

  it('maps the Windows-1252 bytes of 0x80–0x9F as the Encoding Standard does', () => {
    const decoded = new TextDecoder().decode(
      windows1252ToUtf8(new Uint8Array([0x80, 0x81, 0x93, 0x94, 0x9f, 0xa0, 0xe9, 0xff, 0x41])),
    );
    expect(Array.from(decoded, (c) => c.codePointAt(0))).toEqual([
      0x20ac, 0x81, 0x201c, 0x201d, 0x178, 0xa0, 0xe9, 0xff, 0x41,
    ]);
  });

  it('finds overlong forms, surrogates and bytes past U+10FFFF (RFC 3629)', () => {
    expect(firstInvalidUtf8(new Uint8Array([0x41, 0xc0, 0x80]), true)).toBe(1);
    expect(firstInvalidUtf8(new Uint8Array([0xe0, 0x80, 0x80]), true)).toBe(0);
    expect(firstInvalidUtf8(new Uint8Array([0xed, 0xa0, 0x80]), true)).toBe(0);
    expect(firstInvalidUtf8(new Uint8Array([0xf4, 0x90, 0x80, 0x80]), true)).toBe(0);
    expect(firstInvalidUtf8(new Uint8Array([0xf0, 0x9f, 0x98, 0x80]), true)).toBe(-1);
    expect(firstInvalidUtf8(new Uint8Array([0x41, 0xe6, 0x97]), false)).toBe(-1);
    expect(firstInvalidUtf8(new Uint8Array([0x41, 0xe6, 0x97]), true)).toBe(1);
  });

  it('reads encoding names as users type them', () => {
    expect(parseEncodingChoice('UTF8')).toBe('utf-8');
    expect(parseEncodingChoice('cp1252')).toBe('windows-1252');
    expect(parseEncodingChoice('Latin1')).toBe('windows-1252');
    expect(parseEncodingChoice('auto')).toBe('auto');
    expect(parseEncodingChoice('shift_jis')).toBeUndefined();
  });
});

describe('naming the encoding a file was read in', () => {
  it('says which encoding was used and whether it was chosen or detected', () => {
    expect(encodingUsedSentence('utf-8', 'auto')).toBe('Read as UTF-8 (detected).');
    expect(encodingUsedSentence('windows-1252', 'auto')).toBe(
      'Read as Windows-1252 (detected: the file is not valid UTF-8).',
    );
    expect(encodingUsedSentence('windows-1252', 'windows-1252')).toBe('Read as Windows-1252, as chosen.');
    expect(encodingUsedSentence('utf-8', 'utf-8')).toBe('Read as UTF-8, as chosen.');
  });

  it('names every choice the reader accepts, and each name reads back as its choice', () => {
    expect(Object.keys(CSV_ENCODING_NAMES).sort()).toEqual([...CSV_ENCODING_CHOICES].sort());
    expect(parseEncodingChoice('ISO-8859-1')).toBe('windows-1252');
    expect(CSV_ENCODING_NAMES['windows-1252']).toMatch(/ISO-8859-1/);
    // The reader's own reading of the fixture agrees with the sentence for each choice it accepts.
    expect(encodingUsedSentence(read(LATIN).encoding!, 'auto')).toMatch(/Windows-1252 \(detected/);
    expect(encodingUsedSentence(read(LATIN, 'windows-1252').encoding!, 'windows-1252')).toMatch(/chosen/);
    expect(read(utf8('name\nJosé\n'), 'auto').encoding).toBe('utf-8');
  });
});
