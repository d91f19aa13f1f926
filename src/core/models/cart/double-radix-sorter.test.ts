import { describe, expect, it } from 'vitest';
import { SeededRng } from '../../rng/seeded-rng';
import { DoubleRadixSorter } from './double-radix-sorter';

/** Reference: a stable comparison sort of positions by value. */
function referenceOrder(values: Float64Array): number[] {
  return Array.from(values.keys()).sort((a, b) => values[a]! - values[b]! || a - b);
}

describe('DoubleRadixSorter', () => {
  const rng = new SeededRng(5);
  const generators: [string, () => number][] = [
    ['uniform on [-1, 1)', () => 2 * rng.nextFloat() - 1],
    ['wide magnitudes', () => (rng.nextFloat() - 0.5) * 10 ** Math.floor(rng.nextFloat() * 40 - 20)],
    ['few distinct values (ties keep input order)', () => Math.floor(rng.nextFloat() * 6)],
    // Values agreeing to ~6 significant digits share the high word: long runs sorted on the low word.
    ['large values close together', () => 1.7e9 + rng.nextFloat() * 1000],
    ['tiny negatives', () => -rng.nextFloat() * 1e-300],
  ];

  it.each(generators)('sorts %s like a stable comparison sort', (_name, draw) => {
    const sorter = new DoubleRadixSorter();
    for (const n of [1, 2, 31, 5000]) {
      const values = Float64Array.from({ length: n }, draw);
      const order = new Int32Array(n);
      const sorted = new Float64Array(n);
      sorter.sort(values, n, order, sorted);
      expect(Array.from(order)).toEqual(referenceOrder(values));
      expect(Array.from(sorted)).toEqual(Array.from(order, (i) => values[i]!));
    }
  });

  it('puts -0 next to +0 and reuses its buffers for smaller inputs', () => {
    const sorter = new DoubleRadixSorter();
    const values = Float64Array.from([0, -0, 1, -1, -0, 0]);
    const order = new Int32Array(6);
    sorter.sort(values, 6, order);
    expect(Array.from(order, (i) => values[i]!)).toEqual([-1, -0, -0, 0, 0, 1]);
    const small = Float64Array.from([3, 2, 1]);
    sorter.sort(small, 3, order);
    expect(Array.from(order.subarray(0, 3))).toEqual([2, 1, 0]);
  });
});
