import { describe, expect, it } from 'vitest';
import type { Schema } from '../table/types';
import { categoricalColumn, mixedTable, numericColumn } from './common/testing/fixtures';
import {
  addRemoveAssumptions,
  binningRows,
  parseNeighbouring,
  publicRows,
  relationProblems,
} from './neighbouring';
import {
  blockRowsOf,
  RELEASE_BLOCK_ROWS,
  releaseOfBlocks,
  rowsOfTable,
  syntheticRows,
  tableOfRows,
} from './release-blocks';
import { releasesWithin } from './release-limits';

// Quick tests of the small top-level modules every mechanism's run goes through: row blocks, the
// release limit and the neighbouring relation's sentences.

describe('row blocks', () => {
  it('takes a whole block size of at least one row, 65,536 when none is asked for', () => {
    expect(blockRowsOf(undefined)).toBe(RELEASE_BLOCK_ROWS);
    expect(blockRowsOf({})).toBe(65_536);
    expect(blockRowsOf({ blockRows: 1 })).toBe(1);
    expect(() => blockRowsOf({ blockRows: 0 })).toThrow('blockRows must be a whole number ≥ 1; got 0.');
    expect(() => blockRowsOf({ blockRows: 2.5 })).toThrow(RangeError);
  });

  it('cuts 5 rows into blocks of 2, 2 and 1, in order, readable once', () => {
    const calls: number[][] = [];
    const rows = syntheticRows(5, 2, (b, start, end) => {
      calls.push([b, start, end]);
      return { nRows: end - start, columns: [] };
    });
    expect(rows.nRows).toBe(5);
    expect(rows.blockRows).toBe(2);
    expect(Array.from(rows.blocks()).map((block) => block.nRows)).toEqual([2, 2, 1]);
    expect(calls).toEqual([
      [0, 0, 2],
      [1, 2, 4],
      [2, 4, 5],
    ]);
    expect(() => rows.blocks()).toThrow('the rows of a release in blocks can be read once.');
    // No rows: one empty block, so the columns' names and kinds still come through.
    expect(
      Array.from(syntheticRows(0, 2, (_, start, end) => ({ nRows: end - start, columns: [] })).blocks()),
    ).toEqual([{ nRows: 0, columns: [] }]);
  });

  it('joins the blocks of a table back into the same table, numeric and categorical', () => {
    const table = {
      nRows: 5,
      columns: [numericColumn('x', [1, null, 3, 4, 5]), categoricalColumn('c', ['a', 'b', null, 'a', 'c'])],
    };
    const blocks = Array.from(rowsOfTable(table, 2).blocks());
    expect(blocks.map((block) => block.nRows)).toEqual([2, 2, 1]);
    expect(blocks[1]!.columns[1]).toEqual({
      kind: 'categorical',
      name: 'c',
      // Rows 2 and 3: a missing value (code 0, flagged) and 'a' (code 0).
      codes: Uint32Array.of(0, 0),
      dictionary: ['a', 'b', 'c'],
      missing: Uint8Array.of(1, 0),
    });
    expect(tableOfRows(rowsOfTable(table, 2))).toEqual(table);
    expect(rowsOfTable(table).blockRows).toBe(RELEASE_BLOCK_ROWS);
    const release = releaseOfBlocks({
      datasets: [rowsOfTable(table, 3)],
      claim: {} as never,
      diagnostics: { kept: 1 },
      dataHolderDiagnostics: {},
    });
    expect(release.datasets).toEqual([table]);
    expect(release.diagnostics).toEqual({ kept: 1 });
  });
});

describe('release limit', () => {
  it('allows 1 to the limit, whole numbers only', () => {
    expect([0, 1, 100, 101, 1.5].map((m) => releasesWithin(m, 100))).toEqual([
      false,
      true,
      true,
      false,
      false,
    ]);
  });
});

describe('neighbouring relation', () => {
  const { schema } = mixedTable(4);
  const categorical: Schema = { ...schema, columns: [schema.columns[2]!] };

  it('reads a relation from its name only', () => {
    expect(parseNeighbouring('add-remove')).toBe('add-remove');
    expect(parseNeighbouring('replace-one')).toBe('replace-one');
    expect(parseNeighbouring('add')).toBeUndefined();
  });

  it('gives a plan n under replace-one only, and 1,000 rows for the binning under add/remove', () => {
    expect(publicRows(undefined)).toBeUndefined();
    expect(binningRows(undefined)).toBeUndefined();
    expect(binningRows({ n: 77 })).toBe(77);
  });

  it('refuses add/remove for a mechanism without it, and a schema learned with DP, in sentences', () => {
    const only = { id: 'toy' };
    expect(relationProblems(only, schema, { neighbouring: 'replace-one' })).toEqual([]);
    expect(relationProblems(only, schema)).toEqual([]);
    expect(relationProblems(only, schema, { neighbouring: 'add-remove' })).toEqual([
      'toy runs only with replace-one neighbours (n public): its sensitivities, budget split or row count are ' +
        'derived for that relation only. Choose replace-one, or mst, aim, dp-marginals or laplace-histogram for add/remove.',
    ]);
    const both = { id: 'toy', supportsNeighbouring: ['replace-one', 'add-remove'] as const };
    expect(relationProblems(both, schema, { neighbouring: 'add-remove' })).toEqual([]);
    const learned = { ...schema, domainBudget: { steps: [{}] } } as unknown as Schema;
    expect(relationProblems(both, learned, { neighbouring: 'add-remove' })).toEqual([
      'the schema has facts learned with DP under replace-one neighbours (n public): declare them, or run with replace-one.',
    ]);
    expect(
      relationProblems(both, { ...schema, domainBudget: { steps: [] } } as unknown as Schema, {
        neighbouring: 'add-remove',
      }),
    ).toEqual([]);
  });

  it('adds the row count’s sentence under add/remove, and the binning’s when a column is numeric', () => {
    expect(addRemoveAssumptions({ schema }, 'read nowhere')).toEqual([]);
    expect(addRemoveAssumptions({ schema, neighbouring: 'add-remove' }, 'read nowhere')).toEqual([
      'The number of rows n is private (add/remove neighbours): read nowhere; nothing else reads n, and no public ' +
        'fact (domain, bins, defaults) depends on it.',
      "Numeric columns under the default binning (bins = 0) follow Scott's rule at a fixed 1,000 rows (18 bins), not at n.",
    ]);
    expect(
      addRemoveAssumptions({ schema: categorical, neighbouring: 'add-remove' }, 'read nowhere'),
    ).toHaveLength(1);
  });
});
