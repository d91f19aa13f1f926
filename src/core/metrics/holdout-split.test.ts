import { describe, expect, it } from 'vitest';
import { SeededRng } from '../rng/seeded-rng';
import { testTable } from './testing/test-table';
import { splitHoldout } from './holdout-split';

describe('splitHoldout', () => {
  const table = testTable({
    id: Array.from({ length: 10 }, (_, i) => i),
    c: Array.from({ length: 10 }, (_, i) => `r${i}`),
  });

  it('partitions the rows with the requested share and keeps row order', () => {
    const split = splitHoldout(table, 0.3, new SeededRng(5));
    expect(split.holdout.nRows).toBe(3);
    expect(split.train.nRows).toBe(7);
    const all = [...split.trainRows, ...split.holdoutRows].sort((a, b) => a - b);
    expect(all).toEqual(Array.from({ length: 10 }, (_, i) => i));
    const ids = split.holdout.columns[0]!;
    if (ids.kind !== 'numeric') throw new Error('id column is numeric');
    expect(Array.from(ids.values)).toEqual(Array.from(split.holdoutRows));
  });

  it('draws every row into the holdout equally often', () => {
    // 4,000 splits of 10 rows with 3 held out: each row is held out with probability 0.3, count
    // ~ Binomial(4000, 0.3): sd = √(4000 · 0.3 · 0.7) ≈ 29; allow 5 sd = 145 around 1200.
    const rng = new SeededRng(6);
    const counts = new Array<number>(10).fill(0);
    for (let r = 0; r < 4000; r++) for (const i of splitHoldout(table, 0.3, rng).holdoutRows) counts[i]!++;
    for (const count of counts) expect(Math.abs(count - 1200)).toBeLessThan(145);
  });

  it('rejects shares that leave a part empty', () => {
    expect(() => splitHoldout(table, 0.01, new SeededRng(1))).toThrow(RangeError);
    expect(() => splitHoldout(table, 1, new SeededRng(1))).toThrow(RangeError);
  });
});
