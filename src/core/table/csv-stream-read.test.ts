import { describe, expect, it } from 'vitest';
import { buildTable } from './build-table';
import { parseCsv } from './csv-read';
import { CsvTableReader, readCsvStream, type StoredTable } from './csv-stream-read';
import { InputError } from './errors';
import { inferSchema } from './infer';
import { DICTIONARY_LIMIT, columnTokens } from './stored-column';
import type { NumericColumn } from './types';

const encoder = new TextEncoder();

/** Reads `text` pushed in chunks cut at the given byte offsets. */
function readInPieces(text: string, cuts: number[], fileName = 'f.csv'): StoredTable {
  const bytes = encoder.encode(text);
  const reader = new CsvTableReader({ fileName });
  let from = 0;
  for (const cut of [...cuts, bytes.length]) {
    reader.push(bytes.subarray(from, cut));
    from = cut;
  }
  return reader.finish();
}

function tokensOf(table: StoredTable): string[][] {
  return table.columns.map(columnTokens);
}

function errorOf(fn: () => unknown): InputError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(InputError);
    return error as InputError;
  }
  throw new Error('expected an InputError');
}

describe('readCsvStream: records split across chunks', () => {
  const text = 'name,note,n\r\n"Smith, J","said ""hi""\r\nthen left",1\r\nDoe,plain,2\r\n"",x,3\r\n';
  const whole = parseCsv(text).columns;

  it('gives the same tokens for every place a chunk can end, CRLF and quotes included', () => {
    expect(whole).toEqual([
      ['Smith, J', 'Doe', ''],
      ['said "hi"\r\nthen left', 'plain', 'x'],
      ['1', '2', '3'],
    ]);
    const length = encoder.encode(text).length;
    for (let cut = 1; cut < length; cut++) {
      // A chunk boundary at every byte: inside quotes, between "" , between \r and \n, mid-row.
      expect(tokensOf(readInPieces(text, [cut]))).toEqual(whole);
    }
  });

  it('reads a file fed one byte at a time', () => {
    const cuts = Array.from({ length: encoder.encode(text).length - 1 }, (_, k) => k + 1);
    expect(tokensOf(readInPieces(text, cuts))).toEqual(whole);
  });

  it('keeps multi-byte characters whole when a chunk ends inside one', () => {
    const accents = 'ville,n\nMontréal,1\nZürich,2\n北京,3\n';
    const bytes = encoder.encode(accents).length;
    for (let cut = 1; cut < bytes; cut++) {
      expect(tokensOf(readInPieces(accents, [cut]))[0]).toEqual(['Montréal', 'Zürich', '北京']);
    }
  });

  it('reads an async stream of chunks', async () => {
    const bytes = encoder.encode(text);
    async function* chunks() {
      for (let k = 0; k < bytes.length; k += 7) yield bytes.subarray(k, k + 7);
    }
    const table = await readCsvStream(chunks(), { fileName: 's.csv', totalBytes: bytes.length });
    expect(table.nRows).toBe(3);
    expect(tokensOf(table)).toEqual(whole);
  });
});

describe('readCsvStream: errors carry the line of the file', () => {
  it('names the line of a ragged record after quoted line breaks, whatever the chunking', () => {
    const text = 'a,b\r\n"x\r\ny",1\r\n\r\n1,2\r\n3,4,5\r\n';
    for (let cut = 1; cut < text.length; cut += 3) {
      const error = errorOf(() => readInPieces(text, [cut], 'r.csv'));
      expect(error.line).toBe(6);
      expect(error.message).toBe(
        'r.csv, line 6: expected 2 fields (as in the header) but found 3. Check for an unquoted delimiter or a missing quote.',
      );
    }
  });

  it('names the line of an unclosed quote and of text after a closing quote', () => {
    for (let cut = 1; cut < 20; cut++) {
      expect(errorOf(() => readInPieces('a,b\n1,2\n"open,3\n4,5\n', [cut])).line).toBe(3);
      expect(errorOf(() => readInPieces('a,b\n1,2\n"x"y,2\n', [cut])).message).toContain(
        'line 3: a quoted field is followed by other characters',
      );
    }
  });

  it('names line and column of a number beyond a double in a many-valued column', () => {
    const rows = Array.from({ length: DICTIONARY_LIMIT + 100 }, (_, i) => `${i}.5,x`);
    rows.push('1e999,y');
    const error = errorOf(() => parseCsv(`v,w\n${rows.join('\n')}\n`, { fileName: 'o.csv' }));
    expect(error.line).toBe(DICTIONARY_LIMIT + 100 + 2);
    expect(error.column).toBe('v');
  });

  it('rejects a UTF-16 file and NUL bytes in a later chunk', () => {
    const utf16 = new CsvTableReader({ fileName: 'u.csv' });
    utf16.push(new Uint8Array([0xff, 0xfe, 0x61, 0x00]));
    expect(() => utf16.finish()).toThrow('u.csv: is encoded as UTF-16');
    const nul = new CsvTableReader({ fileName: 'n.csv' });
    nul.push(encoder.encode(`a,b\n${'1,2\n'.repeat(300_000)}`)); // past the first MiB
    expect(() => nul.push(new Uint8Array([0x31, 0x00]))).toThrow('it contains NUL bytes');
  });
});

describe('stored columns: many distinct numbers', () => {
  // 10,000 distinct values (beyond the dictionary limit), with missing and non-number tokens.
  const rows = ['x,g'];
  for (let i = 0; i < 10_000; i++) {
    const x = i % 997 === 0 ? 'NA' : i % 1999 === 0 ? '' : (i * 0.25 - 7).toString();
    rows.push(`${x},${i % 3}`);
  }
  const text = `${rows.join('\n')}\n`;
  const raw = parseCsv(text);

  it('keeps values and non-number tokens, and infers and builds as token by token', () => {
    const expected = rows.slice(1).map((row) => row.split(',')[0]);
    expect(raw.columns[0]).toEqual(expected);
    const schema = inferSchema(raw);
    expect(schema.columns[0]).toMatchObject({ type: 'numeric', bounds: [-6.75, 2492.75], integer: false });
    const { table, report } = buildTable(raw, schema);
    const x = table.columns[0] as NumericColumn;
    expect(report.columns[0]!.missing).toBe(expected.filter((t) => t === 'NA' || t === '').length);
    expect(x.values[5]).toBe(5 * 0.25 - 7);
    expect(x.missing[0]).toBe(1); // row 0 holds NA
  });

  it('turns a number column with a stray word into a categorical one', () => {
    const withWord = text.replace('\n13,', '\nthirteen,');
    const schema = inferSchema(parseCsv(withWord), { maxCategories: 5 });
    // The column holds NA and blank cells, so inference marks it as one that can be missing.
    expect(schema.columns[0]).toEqual({
      name: 'x',
      type: 'categorical',
      source: 'inferred',
      canBeMissing: true,
    });
  });
});
