import { describe, expect, it } from 'vitest';
import { SeededRng } from '../../../rng/seeded-rng';
import type { Rng } from '../../../rng/types';
import { tableOfRows } from '../../release-blocks';
import type { ColumnCoding } from '../coding/column-coding';
import { datasetFromCells, rowBlocks, WHOLE_TABLES } from './dataset-form';
import { levelsOfColumn } from '../coding/encode-rows';

const CODINGS: ColumnCoding[] = [
  { kind: 'real', name: 'income', lo: 0, hi: 100, bins: 4, levels: 5 },
  { kind: 'categorical', name: 'sex', categories: ['F', 'M'], levels: 3 },
  { kind: 'integer', name: 'age', first: 17, count: 74, bins: 5, levels: 6 },
];
const DOMAIN = 5 * 3 * 6;

/** 1,000 cells drawn uniformly over the 90-cell domain (the fitted model's cells, for these tests). */
function someCells(): Uint32Array {
  const rng = new SeededRng('cells');
  return Uint32Array.from({ length: 1000 }, () => rng.nextUint32() % DOMAIN);
}

function withoutCopy(rng: SeededRng): Rng {
  return { seeded: true, nextUint32: () => rng.nextUint32(), nextFloat: () => rng.nextFloat() };
}

describe('datasets in row blocks', () => {
  it('with a generator that copies: the blocks join into the whole table, and the generator ends where the whole decoding leaves it', () => {
    const cells = someCells();
    const wholeRng = new SeededRng('decode');
    const whole = datasetFromCells(WHOLE_TABLES, wholeRng, cells, CODINGS);
    const blockRng = new SeededRng('decode');
    const rows = datasetFromCells(rowBlocks(64), blockRng, cells, CODINGS);
    // The run goes on from the same state: the next draw is the same.
    expect(blockRng.nextUint32()).toBe(wholeRng.nextUint32());
    expect(rows.nRows).toBe(1000);
    expect(tableOfRows(rows)).toEqual(whole);
  });

  it('with a generator that cannot be copied: draws nothing until read, then keeps every row in its cell', () => {
    const cells = someCells();
    const source = new SeededRng('fresh');
    const before = source.copy();
    const rows = datasetFromCells(rowBlocks(100), withoutCopy(source), cells, CODINGS);
    expect(source.nextUint32()).toBe(before.nextUint32()); // no draw at creation (one draw made here)
    const table = tableOfRows(rows);
    const whole = datasetFromCells(WHOLE_TABLES, new SeededRng('decode'), cells, CODINGS);
    expect(table).not.toEqual(whole); // other values inside the bins…
    // …but every row's value lies in the cell the model drew for it: re-encoding gives the levels back.
    CODINGS.forEach((coding, j) => {
      expect(Array.from(levelsOfColumn(table.columns[j]!, coding))).toEqual(
        Array.from(levelsOfColumn(whole.columns[j]!, coding)),
      );
    });
  });

  it('levels of up to 256 values are kept one byte a row, and decode as the full array would', () => {
    const rng = new SeededRng('levels');
    const levels = Uint32Array.from({ length: 300 }, () => rng.nextUint32() % 5);
    const coding = CODINGS[0]!;
    const whole = WHOLE_TABLES.columnOfLevels(new SeededRng('d'), coding, levels).whole!;
    const form = rowBlocks(128);
    const rows = form.dataset(300, [form.columnOfLevels(new SeededRng('d'), coding, levels)]);
    expect(tableOfRows(rows).columns[0]).toEqual(whole);
  });

  it('an empty dataset is one empty block', () => {
    const rows = datasetFromCells(rowBlocks(8), new SeededRng('e'), new Uint32Array(0), CODINGS);
    const blocks = Array.from(rows.blocks());
    expect(blocks.map((block) => block.nRows)).toEqual([0]);
    expect(blocks[0]!.columns.map((column) => column.name)).toEqual(['income', 'sex', 'age']);
  });
});
