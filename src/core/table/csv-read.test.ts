import { describe, expect, it } from 'vitest';
import { parseCsv } from './csv-read';
import { InputError } from './errors';

/** Runs fn, expects an InputError, and returns it for further checks. */
function inputErrorOf(fn: () => unknown): InputError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(InputError);
    return error as InputError;
  }
  throw new Error('expected an InputError, but nothing was thrown');
}

describe('parseCsv: reading', () => {
  it('reads header and columns of tokens', () => {
    const raw = parseCsv('a,b,c\n1,x,\n2,y,NA\n', { fileName: 'd.csv' });
    expect(raw).toEqual({
      fileName: 'd.csv',
      header: ['a', 'b', 'c'],
      columns: [
        ['1', '2'],
        ['x', 'y'],
        ['', 'NA'],
      ],
      nRows: 2,
      delimiter: ',',
    });
  });

  it('accepts a file without a final line break and one with CRLF line ends', () => {
    expect(parseCsv('a,b\n1,2').columns).toEqual([['1'], ['2']]);
    expect(parseCsv('a,b\r\n1,2\r\n3,4\r\n').columns).toEqual([
      ['1', '3'],
      ['2', '4'],
    ]);
  });

  it('accepts old Mac line ends (CR only)', () => {
    expect(parseCsv('a,b\r1,2\r3,4\r').columns).toEqual([
      ['1', '3'],
      ['2', '4'],
    ]);
  });

  it('drops a UTF-8 byte-order mark so the first column name is clean', () => {
    const raw = parseCsv('\ufeffage,sex\n30,F\n');
    expect(raw.header).toEqual(['age', 'sex']);
  });

  it('detects semicolon, tab and pipe delimiters', () => {
    expect(parseCsv('a;b\n1,5;2\n').delimiter).toBe(';');
    expect(parseCsv('a;b\n1,5;2\n').columns).toEqual([['1,5'], ['2']]);
    expect(parseCsv('a\tb\n1\t2\n').delimiter).toBe('\t');
    expect(parseCsv('a|b|c\n1|2|3\n').delimiter).toBe('|');
  });

  it('prefers the delimiter that gives every record as many fields as the header', () => {
    // Commas inside a quoted text field, semicolons as the delimiter.
    const raw = parseCsv('name;city\n"Smith, J";Paris\n"Doe, A";Rome\n');
    expect(raw.delimiter).toBe(';');
    expect(raw.columns[0]).toEqual(['Smith, J', 'Doe, A']);
  });

  it('reads a one-column file with the comma delimiter, empty lines being empty tokens', () => {
    const raw = parseCsv('x\n1\n\n3\n');
    expect(raw.delimiter).toBe(',');
    expect(raw.columns).toEqual([['1', '', '3']]);
  });

  it('keeps quoted line breaks, delimiters and doubled quotes inside fields', () => {
    const raw = parseCsv('note,n\n"two\nlines",1\n"a, ""quoted"" word",2\n');
    expect(raw.columns[0]).toEqual(['two\nlines', 'a, "quoted" word']);
    expect(raw.nRows).toBe(2);
  });

  it('skips blank lines in files with several columns, as pandas does', () => {
    const raw = parseCsv('\na,b\n1,2\n\n3,4\n\n\n');
    expect(raw.header).toEqual(['a', 'b']);
    expect(raw.nRows).toBe(2);
  });

  it('keeps spaces around tokens (they are part of the value, as in the reference reader)', () => {
    expect(parseCsv('a,b\n 1,x \n').columns).toEqual([[' 1'], ['x ']]);
  });

  it('reports progress ending at 1 and reads a text larger than one chunk', () => {
    const lines = ['i,s'];
    for (let i = 0; i < 150_000; i++) lines.push(`${i},"v ${i % 7}"`);
    const fractions: number[] = [];
    const raw = parseCsv(lines.join('\n'), { onProgress: (f) => fractions.push(f) });
    expect(raw.nRows).toBe(150_000);
    expect(raw.columns[0]![149_999]).toBe('149999');
    expect(raw.columns[1]![149_999]).toBe(`v ${149_999 % 7}`);
    expect(fractions.length).toBeGreaterThan(2);
    expect(fractions.at(-1)).toBe(1);
    for (let k = 1; k < fractions.length; k++)
      expect(fractions[k]!).toBeGreaterThanOrEqual(fractions[k - 1]!);
  });
});

describe('parseCsv: errors name the file and the line', () => {
  it('rejects an empty file', () => {
    for (const text of ['', '\ufeff', '\n\n  \n']) {
      const error = inputErrorOf(() => parseCsv(text, { fileName: 'empty.csv' }));
      expect(error.message).toBe(
        'empty.csv: the file is empty. Choose a CSV file with a header line and data rows.',
      );
      expect(error.file).toBe('empty.csv');
    }
  });

  it('rejects a header without data rows', () => {
    const error = inputErrorOf(() => parseCsv('a,b\n', { fileName: 'h.csv' }));
    expect(error.message).toBe(
      'h.csv: the file has a header line but no data rows. Add at least one row of data below the header.',
    );
  });

  it('rejects a ragged row with its line number', () => {
    const error = inputErrorOf(() => parseCsv('a,b,c\n1,2,3\n4,5,6,7\n', { fileName: 'data.csv' }));
    expect(error.message).toBe(
      'data.csv, line 3: expected 3 fields (as in the header) but found 4. Check for an unquoted delimiter or a missing quote.',
    );
    expect(error.line).toBe(3);
    expect(inputErrorOf(() => parseCsv('a,b,c\n1,2\n')).line).toBe(2);
  });

  it('rejects a number beyond the largest double with its line and column, and keeps large finite ones', () => {
    const error = inputErrorOf(() => parseCsv('age,income\n30,1000\n41,1e999\n', { fileName: 'data.csv' }));
    expect(error.message).toBe(
      'data.csv, line 3: column "income" holds "1e999", a number too large for this program (beyond ±1.8e308). ' +
        'Correct the value, or replace it with a missing-value token.',
    );
    expect(error.line).toBe(3);
    expect(error.column).toBe('income');
    expect(inputErrorOf(() => parseCsv('x\n-2E+400\n')).line).toBe(2);
    expect(inputErrorOf(() => parseCsv(`x\n${'9'.repeat(400)}\n`)).column).toBe('x');
    // Finite extremes, underflow to 0 and text with an "e" are values, not errors.
    const fine = parseCsv('x,y\n1.7e308,yes\n1e-999,e\n');
    expect(fine.columns[0]).toEqual(['1.7e308', '1e-999']);
    expect(fine.columns[1]).toEqual(['yes', 'e']);
  });

  it('counts quoted line breaks and blank lines when giving the line of a ragged row', () => {
    // Line 1 header, lines 2–4 one record with two quoted line breaks, line 5 blank, line 6 ragged.
    const text = 'a,b\n"x\ny\nz",1\n\n1,2,3\n';
    expect(inputErrorOf(() => parseCsv(text)).line).toBe(6);
    const crlf = 'a,b\r\n"x\r\ny",1\r\n1,2,3\r\n';
    expect(inputErrorOf(() => parseCsv(crlf)).line).toBe(4);
  });

  it('gives the right line for a ragged row far into the file (after several chunks)', () => {
    const lines = ['a,b'];
    for (let i = 0; i < 120_000; i++) lines.push(i % 1000 === 0 ? `"multi\nline ${i}",${i}` : `${i},${i}`);
    lines.push('oops');
    // 120,000 records + 120 extra lines from the quoted line breaks + header → the bad record is on line 120,122.
    const error = inputErrorOf(() => parseCsv(lines.join('\n'), { fileName: 'big.csv' }));
    expect(error.line).toBe(120_122);
    expect(error.message.startsWith('big.csv, line 120122: expected 2 fields')).toBe(true);
  });

  it('rejects an unterminated quote at the line where the field starts', () => {
    const error = inputErrorOf(() => parseCsv('a,b\n1,2\n"open,3\n4,5\n', { fileName: 'q.csv' }));
    expect(error.message).toBe(
      'q.csv, line 3: a quoted field that starts here is never closed. Add the missing closing quote (") or remove the stray one.',
    );
    expect(error.line).toBe(3);
  });

  it('gives the right line for an unterminated quote far into the file', () => {
    const lines = ['a,b'];
    for (let i = 0; i < 150_000; i++) lines.push(`${i},"q ${i}"`);
    lines.push('"never closed,1', '2,3');
    const error = inputErrorOf(() => parseCsv(lines.join('\n'), { fileName: 'big.csv' }));
    expect(error.line).toBe(150_002);
    expect(error.message).toContain('never closed');
  });

  it('rejects characters after the closing quote of a field', () => {
    const error = inputErrorOf(() => parseCsv('a,b\n"x"y,2\n', { fileName: 'q.csv' }));
    expect(error.line).toBe(2);
    expect(error.message).toContain('a quoted field is followed by other characters');
  });

  it('rejects duplicate and empty header names', () => {
    const duplicate = inputErrorOf(() => parseCsv('a,b,a\n1,2,3\n', { fileName: 'd.csv' }));
    expect(duplicate.message).toBe(
      'd.csv, line 1: columns 1 and 3 are both named `a`. Column names must be unique; rename one of them.',
    );
    expect(duplicate.column).toBe('a');
    const empty = inputErrorOf(() => parseCsv('a,,c\n1,2,3\n', { fileName: 'd.csv' }));
    expect(empty.message).toBe(
      'd.csv, line 1: column 2 of the header has no name. Give every column a name in the first line.',
    );
  });

  it('rejects text that is not text', () => {
    const nul = inputErrorOf(() => parseCsv('a,b\n1,\u0000\n', { fileName: 'x.xlsx' }));
    expect(nul.message).toBe(
      'x.xlsx: does not look like a text CSV file (it contains NUL bytes). Export it from your spreadsheet as "CSV UTF-8" and try again.',
    );
    const garbled = 'a,b\n' + '\ufffd\ufffd,1\n'.repeat(20);
    expect(inputErrorOf(() => parseCsv(garbled, { fileName: 'g.csv' })).message).toContain(
      'does not look like a text CSV file',
    );
  });

  it('tolerates a few replacement characters in an otherwise fine file', () => {
    const text = 'name,n\n' + 'Jos\ufffd,1\n' + 'plain,2\n'.repeat(2000);
    expect(parseCsv(text).nRows).toBe(2001);
  });
});

describe('parseCsv: cancellation', () => {
  it('throws an AbortError when the signal is already set', () => {
    expect(() => parseCsv('a\n1\n', { signal: { aborted: true } })).toThrow(
      expect.objectContaining({ name: 'AbortError' }),
    );
  });

  it('stops between chunks once the signal is set', () => {
    const text = 'a,b\n' + '1,2\n'.repeat(300_000); // 1.2 MB: more than one chunk
    const signal = { aborted: false };
    let calls = 0;
    const onProgress = (): void => {
      calls++;
      signal.aborted = true;
    };
    expect(() => parseCsv(text, { signal, onProgress })).toThrow(
      expect.objectContaining({ name: 'AbortError' }),
    );
    expect(calls).toBe(1);
  });
});
