import { describe, expect, it } from 'vitest';
import { integersInBounds, scottBinCountFromPublicRange } from './bin-count-rules';

describe("Scott's rule from the public range", () => {
  // By hand: bins = ceil(6·n^(1/3)/3.49).
  it.each([
    [1, 2], // 6/3.49 = 1.719… → 2
    [8, 4], // 12/3.49 = 3.438… → 4
    [1000, 18], // 60/3.49 = 17.19… → 18
    [1_000_000, 172], // 600/3.49 = 171.91… → 172
  ])('n = %i gives %i bins', (n, bins) => {
    expect(scottBinCountFromPublicRange(n)).toBe(bins);
  });

  it('never returns fewer than one bin', () => {
    expect(scottBinCountFromPublicRange(0)).toBe(1);
  });
});

describe('integersInBounds', () => {
  it('counts the whole numbers inside closed bounds', () => {
    expect(integersInBounds(17, 90)).toBe(74);
    expect(integersInBounds(0.5, 1.5)).toBe(1);
    expect(integersInBounds(0.2, 0.8)).toBe(0);
    expect(integersInBounds(-2, 2)).toBe(5);
  });
});
