import { describe, expect, it } from 'vitest';
import {
  addBroadcast,
  addExpanded,
  addProjected,
  cellCount,
  countCells,
  divideProjected,
  indexMap,
  maxProjected,
  projection,
  sumOnto,
  sumProjected,
} from './factor-index';

// Small tables written out by hand (last attribute fastest), so each expectation can be read off.
describe('tables over attributes, by hand', () => {
  const sizes = [2, 3, 2];

  it('count cells as the product of the level counts', () => {
    expect(cellCount([], sizes)).toBe(1);
    expect(cellCount([1], sizes)).toBe(3);
    expect(cellCount([0, 1, 2], sizes)).toBe(12);
  });

  it('map a clique onto a subset with the last attribute fastest', () => {
    // [0,1] onto [1]: cell (x0, x1) → x1; onto [0]: → x0.
    expect(Array.from(indexMap([0, 1], [1], sizes))).toEqual([0, 1, 2, 0, 1, 2]);
    expect(Array.from(indexMap([0, 1], [0], sizes))).toEqual([0, 0, 0, 1, 1, 1]);
    expect(Array.from(indexMap([0, 1, 2], [0, 2], sizes))).toEqual([0, 1, 0, 1, 0, 1, 2, 3, 2, 3, 2, 3]);
    expect(Array.from(indexMap([0, 1], [], sizes))).toEqual([0, 0, 0, 0, 0, 0]);
    expect(() => indexMap([0, 1], [2], sizes)).toThrow('attribute 2 is not in the clique [0, 1]');
  });

  it('merge neighbouring attributes that move the marginal together', () => {
    // [0,1,2] onto [1,2]: attributes 1 and 2 are adjacent in both, one inner run of 6.
    expect(projection([0, 1, 2], [1, 2], sizes)).toEqual({
      radix: [2, 6],
      stride: [0, 1],
      cells: 12,
      subCells: 6,
    });
    // onto [0]: 1 and 2 are both summed out, one run of 6 with step 0.
    expect(projection([0, 1, 2], [0], sizes)).toEqual({
      radix: [2, 6],
      stride: [1, 0],
      cells: 12,
      subCells: 2,
    });
    // [0,1] onto itself or onto nothing: both attributes merge into the first dimension.
    expect(projection([0, 1], [0, 1], sizes)).toEqual({ radix: [6], stride: [1], cells: 6, subCells: 6 });
    expect(projection([0, 1], [], sizes)).toEqual({ radix: [6], stride: [0], cells: 6, subCells: 1 });
    // onto [0, 2]: nothing merges.
    expect(projection([0, 1, 2], [0, 2], sizes)).toEqual({
      radix: [2, 3, 2],
      stride: [2, 0, 1],
      cells: 12,
      subCells: 4,
    });
    expect(projection([], [], sizes)).toEqual({ radix: [1], stride: [0], cells: 1, subCells: 1 });
    expect(() => projection([0, 1], [2], sizes)).toThrow('attribute 2 is not in the clique [0, 1]');
    expect(() => addBroadcast(new Float64Array(6), [0, 1], [2], new Float64Array(2), sizes)).toThrow(
      'attribute 2 is not in the clique [0, 1]',
    );
  });

  it('sum, broadcast and take maxima along a projection', () => {
    const values = Float64Array.of(1, 2, 3, 4, 5, 6); // over [0,1]
    expect(Array.from(sumProjected(values, projection([0, 1], [1], sizes), new Float64Array(3)))).toEqual([
      5, 7, 9,
    ]);
    expect(
      Array.from(sumProjected(values, projection([0, 1], [0], sizes), new Float64Array(2).fill(9))),
    ).toEqual([6, 15]);
    expect(Array.from(sumOnto(values, indexMap([0, 1], [0], sizes), new Float64Array(2).fill(9)))).toEqual([
      6, 15,
    ]);
    expect(Array.from(maxProjected(values, projection([0, 1], [1], sizes), new Float64Array(3)))).toEqual([
      4, 5, 6,
    ]);
    expect(Array.from(maxProjected(values, projection([0, 1], [0], sizes), new Float64Array(2)))).toEqual([
      3, 6,
    ]);
    // [0,1,2] onto [0,2]: runs of x2 inside each (x0, x1); the maxima of the x0 = 1 cells (all small)
    // must not see the large x0 = 0 cells that follow a run.
    const mixed = Float64Array.of(90, 91, 92, 93, 94, 95, 1, 2, 3, 4, 5, 6);
    expect(
      Array.from(maxProjected(mixed, projection([0, 1, 2], [0, 2], sizes), new Float64Array(4))),
    ).toEqual([94, 95, 5, 6]);
    const added = Float64Array.from(values);
    addProjected(added, projection([0, 1], [0], sizes), Float64Array.of(10, 20), 2);
    expect(Array.from(added)).toEqual([21, 22, 23, 44, 45, 46]);
    const broadcast = Float64Array.from(values);
    addBroadcast(broadcast, [0, 1], [1], Float64Array.of(10, 20, 30), sizes);
    expect(Array.from(broadcast)).toEqual([11, 22, 33, 14, 25, 36]);
    const expanded = Float64Array.from(values);
    addExpanded(expanded, indexMap([0, 1], [1], sizes), Float64Array.of(10, 20, 30));
    expect(Array.from(expanded)).toEqual([11, 22, 33, 14, 25, 36]);
  });

  it('divide by a table on a subset, giving 0 where the divisor is 0', () => {
    const values = Float64Array.of(1, 2, 3, 4, 5, 6); // over [0,1]
    const target = new Float64Array(6).fill(-1);
    divideProjected(values, projection([0, 1], [1], sizes), Float64Array.of(2, 0, 4), target);
    expect(Array.from(target)).toEqual([0.5, 0, 0.75, 2, 0, 1.5]);
    divideProjected(values, projection([0, 1], [0], sizes), Float64Array.of(0.5, 5), target);
    expect(Array.from(target)).toEqual([2, 4, 6, 0.8, 1, 1.2]);
  });

  it('count rows per cell, and count every row on no attributes', () => {
    const levels = [Uint32Array.of(1, 0, 1), Uint32Array.of(2, 2, 0), Uint32Array.of(1, 1, 0)];
    // Rows (1,2,1), (0,2,1), (1,0,0) on [1, 2]: cells 2·2+1 = 5 twice, 0 once.
    expect(Array.from(countCells(levels, [1, 2], sizes))).toEqual([1, 0, 0, 0, 0, 2]);
    expect(Array.from(countCells(levels, [0, 2], sizes))).toEqual([0, 1, 1, 1]);
    expect(Array.from(countCells(levels, [], sizes))).toEqual([3]);
    expect(Array.from(countCells([], [], sizes))).toEqual([0]);
  });
});
