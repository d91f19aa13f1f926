import { describe, expect, it } from 'vitest';
import { buildTable } from './build-table';
import { parseCsv } from './csv-read';
import { InputError } from './errors';
import { inferSchema } from './infer';
import { parseSchemaJson } from './schema-json';
import type { CategoricalColumn, NumericColumn, Schema } from './types';

function schemaOf(columns: unknown[], missing?: string[]): Schema {
  return parseSchemaJson(JSON.stringify({ version: 1, columns, ...(missing ? { missing } : {}) }), 's.json');
}

describe('buildTable: numeric columns', () => {
  const raw = parseCsv('age\n30\n-5\n120\nNA\nabc\n41.6\n17.5\n', { fileName: 'd.csv' });
  const schema = schemaOf([{ name: 'age', type: 'numeric', bounds: [0, 100], integer: true }]);
  const { table, report } = buildTable(raw, schema);
  const age = table.columns[0] as NumericColumn;

  it('stores values in a Float64Array with NaN and a mask where missing', () => {
    expect(age.kind).toBe('numeric');
    expect(Array.from(age.missing)).toEqual([0, 0, 0, 1, 1, 0, 0]);
    // 30 kept; -5 clamped to 0; 120 clamped to 100; NA missing; abc rejected; 41.6 → 42; 17.5 → 18 (half away from zero).
    expect(Array.from(age.values)).toEqual([30, 0, 100, NaN, NaN, 42, 18]);
  });

  it('counts every change and rejection, and says it in sentences', () => {
    expect(report.columns[0]).toEqual({
      name: 'age',
      missing: 1,
      clampedBelow: 1,
      clampedAbove: 1,
      nonNumeric: 1,
      undeclared: [],
      roundedToInteger: 2,
    });
    expect(report.messages).toEqual([
      '`age`: 1 missing value, kept as missing.',
      '`age`: 1 value that is not a number, treated as missing.',
      '`age`: 1 value below the lower bound, raised to the bound.',
      '`age`: 1 value above the upper bound, lowered to the bound.',
      '`age`: 2 non-whole values in an integer column, rounded to the nearest integer.',
    ]);
    expect(report.droppedIncompleteRows).toBe(0);
  });

  it('clamps before rounding: 100.4 above [0, 100] is clamped, not rounded', () => {
    const result = buildTable(parseCsv('age\n100.4\n'), schema);
    expect((result.table.columns[0] as NumericColumn).values[0]).toBe(100);
    expect(result.report.columns[0]).toMatchObject({ clampedAbove: 1, roundedToInteger: 0 });
  });

  it('keeps rounded values inside the integers within non-integer bounds', () => {
    const halfBounds = schemaOf([{ name: 'x', type: 'numeric', bounds: [0.5, 9.5], integer: true }]);
    const { table } = buildTable(parseCsv('x\n0.6\n9.4\n'), halfBounds);
    expect(Array.from((table.columns[0] as NumericColumn).values)).toEqual([1, 9]);
  });

  it('leaves values alone without bounds or integer flag', () => {
    const free = schemaOf([{ name: 'x', type: 'numeric' }]);
    const { table, report } = buildTable(parseCsv('x\n-1e300\n0.1\n2.5\n'), free);
    expect(Array.from((table.columns[0] as NumericColumn).values)).toEqual([-1e300, 0.1, 2.5]);
    expect(report.messages).toEqual([]);
  });
});

describe('buildTable: categorical columns', () => {
  it('uses the declared categories in declared order and rejects others with counts', () => {
    const raw = parseCsv('g\nM\nF\nX\nM\nX\nNA\nY\n');
    const schema = schemaOf([{ name: 'g', type: 'categorical', categories: ['M', 'F'] }]);
    const { table, report } = buildTable(raw, schema);
    const g = table.columns[0] as CategoricalColumn;
    expect(table.nRows).toBe(7);
    expect(g.dictionary).toEqual(['M', 'F']);
    expect(Array.from(g.missing)).toEqual([0, 0, 1, 0, 1, 1, 1]);
    expect(Array.from(g.codes).filter((_, i) => g.missing[i] === 0)).toEqual([0, 1, 0]);
    expect(report.columns[0]!.undeclared).toEqual([
      { value: 'X', count: 2 },
      { value: 'Y', count: 1 },
    ]);
    expect(report.columns[0]!.missing).toBe(1);
    expect(report.messages).toContain(
      '`g`: 3 values outside the declared categories, treated as missing: "X" (2), "Y" (1).',
    );
  });

  it('uses the sorted distinct tokens when no categories are declared', () => {
    const raw = parseCsv('g\nb\nB\na\n\nb\n');
    const { table } = buildTable(raw, schemaOf([{ name: 'g', type: 'categorical' }]));
    const g = table.columns[0] as CategoricalColumn;
    expect(g.dictionary).toEqual(['B', 'a', 'b']);
    expect(Array.from(g.codes)).toEqual([2, 0, 1, 0, 2]);
    expect(Array.from(g.missing)).toEqual([0, 0, 0, 1, 0]);
  });

  it('honours the schema missing tokens', () => {
    const raw = parseCsv('g\nNA\n-\n');
    const { table } = buildTable(raw, schemaOf([{ name: 'g', type: 'categorical' }], ['-']));
    const g = table.columns[0] as CategoricalColumn;
    expect(g.dictionary).toEqual(['NA']);
    expect(Array.from(g.missing)).toEqual([0, 1]);
  });
});

describe('buildTable: table shape', () => {
  it('orders columns as the schema does, whatever the file order', () => {
    const raw = parseCsv('b,a\nx,1\n');
    const schema = schemaOf([
      { name: 'a', type: 'numeric' },
      { name: 'b', type: 'categorical' },
    ]);
    expect(buildTable(raw, schema).table.columns.map((column) => column.name)).toEqual(['a', 'b']);
  });

  it('rejects a file whose columns differ from the schema', () => {
    const raw = parseCsv('a,c\n1,2\n', { fileName: 'data.csv' });
    const schema = schemaOf([
      { name: 'a', type: 'numeric' },
      { name: 'b', type: 'numeric' },
    ]);
    expect(() => buildTable(raw, schema)).toThrow(InputError);
    expect(() => buildTable(raw, schema)).toThrow('The schema declares column `b`, which data.csv lacks.');
  });

  it('drops incomplete rows on request and counts them', () => {
    const raw = parseCsv('x,g\n1,a\n,b\n3,zz\n4,b\n');
    const schema = schemaOf([
      { name: 'x', type: 'numeric' },
      { name: 'g', type: 'categorical', categories: ['a', 'b'] },
    ]);
    const { table, report } = buildTable(raw, schema, { dropIncompleteRows: true });
    expect(table.nRows).toBe(2);
    expect(Array.from((table.columns[0] as NumericColumn).values)).toEqual([1, 4]);
    expect(Array.from((table.columns[1] as CategoricalColumn).codes)).toEqual([0, 1]);
    expect(Array.from(table.columns[1]!.missing)).toEqual([0, 0]);
    expect(report.droppedIncompleteRows).toBe(2);
    expect(report.messages.at(-1)).toBe('2 rows with a missing value removed, as requested.');
  });

  it('keeps missing values by default (missingness is data)', () => {
    const raw = parseCsv('x,g\n1,a\n,b\n');
    const { table } = buildTable(raw, inferSchema(raw));
    expect(table.nRows).toBe(2);
    expect(Array.from(table.columns[0]!.missing)).toEqual([0, 1]);
  });

  it('reports progress up to 1 and stops with an AbortError', () => {
    const lines = ['x'];
    for (let i = 0; i < 200_000; i++) lines.push(String(i));
    const raw = parseCsv(lines.join('\n'));
    const schema = inferSchema(raw);
    const fractions: number[] = [];
    buildTable(raw, schema, { onProgress: (f) => fractions.push(f) });
    expect(fractions.length).toBeGreaterThan(2);
    expect(fractions.at(-1)).toBe(1);
    const signal = { aborted: false };
    const stopAfterFirst = (): void => {
      signal.aborted = true;
    };
    expect(() => buildTable(raw, schema, { signal, onProgress: stopAfterFirst })).toThrow(
      expect.objectContaining({ name: 'AbortError' }),
    );
  });
});
