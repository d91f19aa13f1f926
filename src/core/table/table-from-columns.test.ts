import { describe, expect, it } from 'vitest';
import { emptyLikeTable } from './empty-like-table';
import { parseSchemaJson } from './schema-json';
import { tableFromColumns } from './table-from-columns';
import type { CategoricalColumn, NumericColumn } from './types';

describe('tableFromColumns', () => {
  it('builds typed columns with masks; null and NaN are missing', () => {
    const table = tableFromColumns([
      { name: 'x', kind: 'numeric', values: [1, null, NaN, 4] },
      { name: 'g', kind: 'categorical', values: ['b', null, 'a', 'b'] },
    ]);
    expect(table.nRows).toBe(4);
    const x = table.columns[0] as NumericColumn;
    expect(Array.from(x.values)).toEqual([1, NaN, NaN, 4]);
    expect(Array.from(x.missing)).toEqual([0, 1, 1, 0]);
    const g = table.columns[1] as CategoricalColumn;
    expect(g.dictionary).toEqual(['a', 'b']);
    expect(Array.from(g.codes)).toEqual([1, 0, 0, 1]);
    expect(Array.from(g.missing)).toEqual([0, 1, 0, 0]);
  });

  it('uses a given dictionary, levels without rows included', () => {
    const table = tableFromColumns([
      { name: 'g', kind: 'categorical', values: ['M'], dictionary: ['M', 'F', 'X'] },
    ]);
    expect((table.columns[0] as CategoricalColumn).dictionary).toEqual(['M', 'F', 'X']);
  });

  it('throws on unequal lengths and on values outside the dictionary', () => {
    expect(() =>
      tableFromColumns([
        { name: 'x', kind: 'numeric', values: [1, 2] },
        { name: 'y', kind: 'numeric', values: [1] },
      ]),
    ).toThrow('column y has 1 values, expected 2');
    expect(() =>
      tableFromColumns([{ name: 'g', kind: 'categorical', values: ['z'], dictionary: ['a'] }]),
    ).toThrow('"z" is not in the dictionary of column g');
  });
});

describe('emptyLikeTable', () => {
  it('allocates zeroed columns in schema order with the declared categories', () => {
    const schema = parseSchemaJson(
      JSON.stringify({
        version: 1,
        columns: [
          { name: 'age', type: 'numeric', bounds: [0, 99] },
          { name: 'sex', type: 'categorical', categories: ['F', 'M'] },
          { name: 'free', type: 'categorical' },
        ],
      }),
    );
    const table = emptyLikeTable(schema, 3);
    expect(table.nRows).toBe(3);
    expect(table.columns.map((column) => [column.name, column.kind])).toEqual([
      ['age', 'numeric'],
      ['sex', 'categorical'],
      ['free', 'categorical'],
    ]);
    expect(Array.from((table.columns[0] as NumericColumn).values)).toEqual([0, 0, 0]);
    expect((table.columns[1] as CategoricalColumn).dictionary).toEqual(['F', 'M']);
    expect((table.columns[2] as CategoricalColumn).dictionary).toEqual([]);
    for (const column of table.columns) expect(Array.from(column.missing)).toEqual([0, 0, 0]);
  });

  it('copies the category list so that the output cannot change the schema', () => {
    const schema = parseSchemaJson(
      JSON.stringify({ version: 1, columns: [{ name: 'g', type: 'categorical', categories: ['a'] }] }),
    );
    (emptyLikeTable(schema, 1).columns[0] as CategoricalColumn).dictionary.push('b');
    expect(schema.columns[0]).toMatchObject({ categories: ['a'] });
  });

  it('rejects a negative or fractional row count', () => {
    const schema = parseSchemaJson(JSON.stringify({ version: 1, columns: [{ name: 'x', type: 'numeric' }] }));
    expect(() => emptyLikeTable(schema, -1)).toThrow();
    expect(() => emptyLikeTable(schema, 1.5)).toThrow();
  });
});
