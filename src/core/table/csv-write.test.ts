import { describe, expect, it } from 'vitest';
import { SeededRng } from '../rng/seeded-rng';
import { buildTable } from './build-table';
import { parseCsv } from './csv-read';
import { CSV_ROWS_PER_PIECE, csvChunks, csvChunksOfBlocks, writeCsv } from './csv-write';
import { inferSchema } from './infer';
import { tableFromColumns } from './table-from-columns';
import type { CategoricalColumn, NumericColumn, Table } from './types';

/** A finite double with uniformly random bits: covers subnormals, huge and tiny magnitudes, both signs. */
function randomFiniteDouble(rng: SeededRng, view: DataView): number {
  for (;;) {
    view.setUint32(0, rng.nextUint32());
    view.setUint32(4, rng.nextUint32());
    const value = view.getFloat64(0);
    if (Number.isFinite(value) && !Object.is(value, -0)) return value;
  }
}

describe('writeCsv', () => {
  it('writes a header and rows, integers without a decimal point, missing as empty', () => {
    const table = tableFromColumns([
      { name: 'n', kind: 'numeric', values: [1, 2.5, null, -3, 1e21, 0.1] },
      { name: 'g', kind: 'categorical', values: ['a', 'b', 'a', null, 'b', 'a'] },
    ]);
    expect(writeCsv(table)).toBe('n,g\n1,a\n2.5,b\n,a\n-3,\n1e+21,b\n0.1,a\n');
  });

  it('quotes fields holding the delimiter, quotes or line breaks (RFC 4180)', () => {
    const table = tableFromColumns([
      { name: 'a,b', kind: 'categorical', values: ['x,y', 'say "hi"', 'two\nlines', 'cr\rhere', 'plain'] },
    ]);
    expect(writeCsv(table)).toBe('"a,b"\n"x,y"\n"say ""hi"""\n"two\nlines"\n"cr\rhere"\nplain\n');
    expect(writeCsv(table, { delimiter: ';' })).toBe(
      'a,b\nx,y\n"say ""hi"""\n"two\nlines"\n"cr\rhere"\nplain\n',
    );
  });

  it('writes the chosen missing token and delimiter', () => {
    const table = tableFromColumns([
      { name: 'x', kind: 'numeric', values: [null, 1] },
      { name: 'g', kind: 'categorical', values: ['a', null] },
    ]);
    expect(writeCsv(table, { missingToken: 'NA', delimiter: '\t' })).toBe('x\tg\nNA\ta\n1\tNA\n');
  });

  it('rejects a delimiter that cannot work', () => {
    const table = tableFromColumns([{ name: 'x', kind: 'numeric', values: [1] }]);
    expect(() => writeCsv(table, { delimiter: '"' })).toThrow('the delimiter must be one character');
    expect(() => writeCsv(table, { delimiter: ',,' })).toThrow('the delimiter must be one character');
  });

  it('escapes formula-like text cells but never numbers (OWASP CSV injection)', () => {
    const table = tableFromColumns([
      { name: 'n', kind: 'numeric', values: [-3.5, 2] },
      { name: 'g', kind: 'categorical', values: ['-x', '=SUM(A1)'] },
      { name: 'h', kind: 'categorical', values: ['+1', '@cmd'] },
      { name: 'k', kind: 'categorical', values: ['\tTab', 'safe-'] },
    ]);
    expect(writeCsv(table, { escapeFormulas: true })).toBe(
      "n,g,h,k\n-3.5,'-x,'+1,'\tTab\n2,'=SUM(A1),'@cmd,safe-\n",
    );
    expect(writeCsv(table)).toBe('n,g,h,k\n-3.5,-x,+1,\tTab\n2,=SUM(A1),@cmd,safe-\n');
  });

  it('escapes a formula-like header cell too', () => {
    const table = tableFromColumns([{ name: '=cmd', kind: 'numeric', values: [1] }]);
    expect(writeCsv(table, { escapeFormulas: true })).toBe("'=cmd\n1\n");
  });

  it('writes an empty table as its header line', () => {
    const table = tableFromColumns([{ name: 'x', kind: 'numeric', values: [] }]);
    expect(writeCsv(table)).toBe('x\n');
  });
});

describe('writeCsv ∘ parseCsv ∘ buildTable', () => {
  function roundTrip(table: Table): Table {
    const raw = parseCsv(writeCsv(table), { fileName: 'round.csv' });
    return buildTable(raw, inferSchema(raw)).table;
  }

  it('gives back every double exactly (5,000 random bit patterns, seed 7)', () => {
    const rng = new SeededRng(7);
    const view = new DataView(new ArrayBuffer(8));
    const values = Array.from({ length: 5000 }, () => randomFiniteDouble(rng, view));
    values.push(Number.MAX_VALUE, -Number.MIN_VALUE, 5e-324, 0.1 + 0.2, 123456789012345680000, 1e-7);
    const back = roundTrip(tableFromColumns([{ name: 'v', kind: 'numeric', values }]))
      .columns[0] as NumericColumn;
    expect(back.values.length).toBe(values.length);
    for (let i = 0; i < values.length; i++) {
      if (back.values[i] !== values[i])
        throw new Error(`row ${i}: wrote ${values[i]}, read ${back.values[i]}`);
    }
  });

  it('gives back text with delimiters, quotes, line breaks, formula signs and non-ASCII', () => {
    const levels = ['a,b', 'say "x"', 'multi\nline', '=1+1', 'é ü', '\u{1F600}', ' padded '];
    const values = [...levels, null, ...levels];
    const table = tableFromColumns([
      { name: 'text', kind: 'categorical', values },
      { name: 'n', kind: 'numeric', values: values.map((_, i) => (i === 3 ? null : i / 3)) },
    ]);
    const back = roundTrip(table);
    const text = back.columns[0] as CategoricalColumn;
    const decoded = Array.from(text.codes, (code, i) =>
      text.missing[i] === 1 ? null : text.dictionary[code],
    );
    expect(decoded).toEqual(values);
    expect(Array.from((back.columns[1] as NumericColumn).values)).toEqual(
      values.map((_, i) => (i === 3 ? NaN : i / 3)),
    );
  });

  it('keeps every row of a one-column table with missing values', () => {
    const table = tableFromColumns([{ name: 'x', kind: 'numeric', values: [1, null, null, 4] }]);
    const back = roundTrip(table);
    expect(back.nRows).toBe(4);
    expect(Array.from(back.columns[0]!.missing)).toEqual([0, 1, 1, 0]);
  });

  it('gives the same text in pieces of 32,768 rows, each ending a line', () => {
    const n = 2 * CSV_ROWS_PER_PIECE + 5;
    const table = tableFromColumns([
      {
        name: 'x',
        kind: 'numeric',
        values: Array.from({ length: n }, (_, i) => (i % 7 === 0 ? null : i / 4)),
      },
      {
        name: 'g',
        kind: 'categorical',
        values: Array.from({ length: n }, (_, i) => (i % 3 ? 'a, b' : '=c')),
      },
    ]);
    const pieces = Array.from(csvChunks(table, { escapeFormulas: true }));
    expect(pieces.length).toBe(1 + 3); // the header, then two full pieces and five rows
    expect(pieces.every((piece) => piece.endsWith('\n'))).toBe(true);
    expect(pieces.join('')).toBe(writeCsv(table, { escapeFormulas: true }));
    expect(pieces[3]!.split('\n').length - 1).toBe(5);
  });

  it('writes a table given in row blocks as the text of the whole table, the header once', () => {
    const values = (from: number, to: number) =>
      Array.from({ length: to - from }, (_, k) => ((from + k) % 5 === 0 ? null : (from + k) / 8));
    const labels = (from: number, to: number) =>
      Array.from({ length: to - from }, (_, k) => ((from + k) % 2 ? 'x, "y"' : '@z'));
    const rows = (from: number, to: number) =>
      tableFromColumns([
        { name: 'v', kind: 'numeric', values: values(from, to) },
        { name: 'l', kind: 'categorical', values: labels(from, to), dictionary: ['@z', 'x, "y"'] },
      ]);
    const blocks = [rows(0, 3), rows(3, 10), rows(10, 10), rows(10, 11)];
    const text = Array.from(csvChunksOfBlocks(blocks, { escapeFormulas: true })).join('');
    expect(text).toBe(writeCsv(rows(0, 11), { escapeFormulas: true }));
    expect(text.split('\n')[0]).toBe('v,l');
    const other = { delimiter: ';', missingToken: 'NA' };
    expect(Array.from(csvChunksOfBlocks(blocks, other)).join('')).toBe(writeCsv(rows(0, 11), other));
  });
});
