import { describe, expect, it } from 'vitest';
import { GrowableCellWeights } from './growable-cells';

describe('GrowableCellWeights', () => {
  it('keeps every pair in order as it grows past its first capacity', () => {
    const list = new GrowableCellWeights(2);
    for (let i = 0; i < 9; i++) list.push(10 * i, i / 2);
    expect(list.length).toBe(9);
    const { cells, weights } = list.toArrays();
    expect(Array.from(cells)).toEqual([0, 10, 20, 30, 40, 50, 60, 70, 80]);
    expect(Array.from(weights)).toEqual([0, 0.5, 1, 1.5, 2, 2.5, 3, 3.5, 4]);
  });

  it('starts with room for one pair when asked for none', () => {
    const list = new GrowableCellWeights(0);
    list.push(7, 1.5);
    expect(Array.from(list.toArrays().cells)).toEqual([7]);
    expect(new GrowableCellWeights().length).toBe(0);
  });

  it('hands out views of nearly full buffers and trimmed copies of sparse ones', () => {
    // 7 of 8 slots used: at least 7/8 full, so views of the 8-slot buffers (no copy).
    const full = new GrowableCellWeights(8);
    for (let i = 0; i < 7; i++) full.push(i, 1);
    const views = full.toArrays();
    expect(views.cells.buffer.byteLength).toBe(8 * 4);
    expect(views.weights.buffer.byteLength).toBe(8 * 8);
    // 6 of 8: below 7/8, so copies of exactly 6 pairs.
    const sparse = new GrowableCellWeights(8);
    for (let i = 0; i < 6; i++) sparse.push(i, 1);
    const copies = sparse.toArrays();
    expect(copies.cells.buffer.byteLength).toBe(6 * 4);
    expect(copies.weights.buffer.byteLength).toBe(6 * 8);
    expect(Array.from(copies.cells)).toEqual([0, 1, 2, 3, 4, 5]);
  });
});
