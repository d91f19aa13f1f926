import { describe, expect, it } from 'vitest';
import { quantileSorted } from './quantile-sorted';

describe('quantileSorted (Hyndman–Fan type 7)', () => {
  it('matches R quantile(c(1, 2, 3, 4), c(0, 0.05, 0.5, 1))', () => {
    // R: quantile(1:4, c(0, 0.05, 0.5, 1)) = 1, 1.15, 2.5, 4
    expect(quantileSorted([1, 2, 3, 4], 0)).toBe(1);
    expect(quantileSorted([1, 2, 3, 4], 0.05)).toBeCloseTo(1.15, 15);
    expect(quantileSorted([1, 2, 3, 4], 0.5)).toBe(2.5);
    expect(quantileSorted([1, 2, 3, 4], 1)).toBe(4);
    expect(quantileSorted([7], 0.3)).toBe(7);
  });

  it('rejects an empty sample', () => {
    expect(() => quantileSorted([], 0.5)).toThrow(RangeError);
  });
});
