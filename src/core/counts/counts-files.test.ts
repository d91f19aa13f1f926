import { describe, expect, it } from 'vitest';
import { planColumnCodings } from '../mechanisms/common/coding/column-coding';
import type { Schema } from '../table/types';
import { countQueries } from './count-queries';
import { plannedCounts } from './count-source';
import { parseCountsCsv, parseCountsFolderPlan } from './counts-files';
import { assembleCounts } from './sql-count-source';

const schema: Schema = {
  version: 1,
  missing: [''],
  columns: [
    { name: 'a', type: 'categorical', categories: ['x', 'y'], source: 'declared' },
    { name: 'b', type: 'numeric', bounds: [0, 10], source: 'declared' },
  ],
};
const { codings } = planColumnCodings(
  schema,
  { rule: 'fixed', fixedBins: 2, perColumn: {}, problems: [] },
  10,
);

describe('counts files', () => {
  it('reads result CSVs and names the file and line of a bad one', () => {
    expect(parseCountsCsv('cell,count\n0,3\r\n"5",2\n', 'f.csv', 'marginal')).toEqual([
      [0, 3],
      [5, 2],
    ]);
    expect(parseCountsCsv('COUNT\n7\n', 'rows.csv', 'rows')).toEqual([[7]]);
    expect(() => parseCountsCsv('cell,n\n0,3\n', 'f.csv', 'cells')).toThrow(
      /f\.csv, line 1: the header must be `cell,count`/,
    );
    expect(() => parseCountsCsv('cell,count\n0,-3\n', 'f.csv', 'cells')).toThrow(
      /f\.csv, line 2: expected 2 whole numbers/,
    );
    expect(() => parseCountsFolderPlan('{"format":"other"}', 'plan.json')).toThrow(
      /plan\.json: not a dpsynth counts plan/,
    );
  });

  it('assembles results into the arrays a mechanism reads, and refuses inconsistent ones', () => {
    const plan = { codings, cells: true, marginals: [[1], [0, 1]] };
    const queries = countQueries(schema, plan, {
      dialect: 'ansi',
      from: 't',
      storage: (name) => (name === 'b' ? 'number' : 'text'),
    });
    expect(() => countQueries(schema, plan, { dialect: 'ansi', from: 't', storage: () => 'text' })).toThrow(
      /stored as text needs the duckdb dialect/,
    );
    const results: Record<string, number[][]> = {
      cells: [
        [4, 2],
        [0, 1],
        [8, 3],
      ],
      'marginal-1': [
        [0, 3],
        [1, 2],
        [2, 1],
      ],
      'marginal-2': [
        [0, 1],
        [4, 2],
        [8, 3],
      ],
    };
    const counts = assembleCounts(plan, queries, 6, (name) => results[name]!);
    expect(Array.from(counts.cells!.cells)).toEqual([0, 4, 8]);
    expect(Array.from(counts.cells!.counts)).toEqual([1, 2, 3]);
    expect(Array.from(counts.marginal([1]))).toEqual([3, 2, 1]);
    expect(() => counts.marginal([0])).toThrow(/not in the run's count plan/);
    expect(() => assembleCounts(plan, queries, 7, (name) => results[name]!)).toThrow(
      /sum to 6, not to the row count 7/,
    );
    expect(() =>
      assembleCounts(plan, queries, 6, (name) => (name === 'cells' ? [[9, 6]] : results[name]!)),
    ).toThrow(/cell 9 is outside the 9 cells/);
    expect(() =>
      assembleCounts(plan, queries, 6, (name) =>
        name === 'marginal-1'
          ? [
              [0, 3],
              [0, 3],
            ]
          : results[name]!,
      ),
    ).toThrow(/cell 0 appears twice/);
  });

  it('plans the same queries for any data: they are a function of the schema, the codings and the relation', () => {
    const plan = { codings, cells: false, marginals: [[0], [1], [0, 1]] };
    const once = countQueries(schema, plan, { dialect: 'duckdb', from: 'data', storage: () => 'number' });
    const again = countQueries(schema, plan, { dialect: 'duckdb', from: 'data', storage: () => 'number' });
    expect(again).toEqual(once);
    expect(once.map((q) => q.name)).toEqual(['rows', 'marginal-1', 'marginal-2', 'marginal-3']);
    expect(plannedCounts(0, new Map()).cells).toBeUndefined();
  });
});
