import { describe, expect, it } from 'vitest';
import { detectDelimiter } from './csv-delimiter';
import { lineNumberOfRecord } from './csv-line-numbers';

describe('detectDelimiter', () => {
  it('finds each candidate', () => {
    expect(detectDelimiter('a,b\n1,2')).toBe(',');
    expect(detectDelimiter('a;b\n1;2')).toBe(';');
    expect(detectDelimiter('a\tb\n1\t2')).toBe('\t');
    expect(detectDelimiter('a|b\n1|2')).toBe('|');
  });

  it('falls back to the comma when nothing splits the header', () => {
    expect(detectDelimiter('value\n1\n2')).toBe(',');
  });

  it('prefers consistency over field count, then more fields, then the listed order', () => {
    // Semicolons give 2 fields on every line; commas split the header in 3 but the rows in 2 or 4.
    expect(detectDelimiter('a,b;c,d\n1;2,5,6\n3;4\n')).toBe(';');
    // Both consistent with two fields: the comma comes first.
    expect(detectDelimiter('a,b;c\n1,2;3\n')).toBe(',');
  });

  it('ignores delimiters inside quoted fields', () => {
    expect(detectDelimiter('"a;x";b\n"1;2;3";4\n')).toBe(';');
    expect(detectDelimiter('"a;x",b\n"1;2;3",4\n')).toBe(',');
  });
});

describe('lineNumberOfRecord', () => {
  it('counts lines inside quoted fields and escaped quotes', () => {
    const text = 'h1,h2\n"a ""q""\nb",1\n"x\n\ny",2\nlast,3';
    expect(lineNumberOfRecord(text, 0, ',', '\n')).toBe(1);
    expect(lineNumberOfRecord(text, 1, ',', '\n')).toBe(2);
    expect(lineNumberOfRecord(text, 2, ',', '\n')).toBe(4);
    expect(lineNumberOfRecord(text, 3, ',', '\n')).toBe(7);
  });

  it('treats a quote inside an unquoted field as a literal character', () => {
    expect(lineNumberOfRecord('a,b\n5" pipe,1\nnext,2', 2, ',', '\n')).toBe(3);
  });

  it('handles CRLF and lone CR line ends', () => {
    expect(lineNumberOfRecord('a\r\n"x\r\ny"\r\nz', 2, ',', '\r\n')).toBe(4);
    expect(lineNumberOfRecord('a\r"x\ry"\rz', 2, ',', '\r')).toBe(4);
  });
});
