import { describe, expect, it } from 'vitest';
import { decodeCsvBytes } from './decode-csv-bytes';

describe('decodeCsvBytes', () => {
  it('decodes UTF-8 and drops the byte-order mark', () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode('név,n\nJosé,1\n')]);
    expect(decodeCsvBytes(bytes, 'u.csv')).toBe('név,n\nJosé,1\n');
  });

  it('rejects UTF-16 with a byte-order mark, saying how to fix it', () => {
    const bytes = new Uint8Array([0xff, 0xfe, 0x61, 0x00, 0x2c, 0x00]);
    expect(() => decodeCsvBytes(bytes, 'w.csv')).toThrow(
      'w.csv: is encoded as UTF-16; dpsynth reads UTF-8. Save it as "CSV UTF-8" and try again.',
    );
  });

  it('rejects binary content (a ZIP-based spreadsheet starts with PK\\x03\\x04 and holds NUL bytes)', () => {
    const bytes = new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x06, 0x00, 0x08, 0x00]);
    expect(() => decodeCsvBytes(bytes, 'book.xlsx')).toThrow(
      /^book\.xlsx: does not look like a text CSV file/,
    );
  });

  it('rejects Latin-1 text full of bytes that are not UTF-8', () => {
    // "é" is the single byte 0xE9 in Latin-1: invalid as UTF-8, decoded to U+FFFD.
    const latin1 = new Uint8Array(Array.from({ length: 200 }, (_, i) => (i % 4 === 0 ? 0xe9 : 0x61)));
    expect(() => decodeCsvBytes(latin1, 'l.csv')).toThrow(/not valid UTF-8/);
  });
});
