import { describe, expect, it } from 'vitest';
import { ksTwoSampleStatisticSorted } from './ks-two-sample';
import { meanAndSampleSdIgnoringMissing } from './sample-moments';
import { wassersteinOneSorted } from './wasserstein-one';

describe('ksTwoSampleStatisticSorted', () => {
  it('handles ties across samples', () => {
    // scipy 1.10: ks_2samp([1,2,2,3,5], [2,2,4]).statistic = 0.2
    expect(ksTwoSampleStatisticSorted([1, 2, 2, 3, 5], [2, 2, 4])).toBe(0.2);
    // Gaps 1/3 at x = 1 and 2/3 − 1/3 at x = 2 (one rounding: 0.33333333333333337).
    expect(ksTwoSampleStatisticSorted([1, 2, 3], [2, 3, 4])).toBeCloseTo(1 / 3, 15);
    expect(ksTwoSampleStatisticSorted([1, 2], [5, 6])).toBe(1);
  });

  it('rejects an empty sample', () => {
    expect(() => ksTwoSampleStatisticSorted([], [1])).toThrow(RangeError);
  });
});

describe('wassersteinOneSorted', () => {
  it('matches scipy.stats.wasserstein_distance', () => {
    // scipy 1.10: wasserstein_distance([1,2,2,3,5], [2,2,4]) = 0.6000000000000001
    expect(wassersteinOneSorted([1, 2, 2, 3, 5], [2, 2, 4])).toBeCloseTo(0.6, 15);
    // A shift by c moves every quantile by c: W₁ = c.
    expect(wassersteinOneSorted([0, 1], [1, 2])).toBe(1);
    expect(wassersteinOneSorted([3, 3], [3])).toBe(0);
  });
});

describe('meanAndSampleSdIgnoringMissing', () => {
  it('skips missing positions and uses the n − 1 divisor', () => {
    expect(meanAndSampleSdIgnoringMissing([1, 2, NaN, 3], [0, 0, 1, 0])).toEqual({
      count: 3,
      mean: 2,
      sd: 1,
    });
    expect(meanAndSampleSdIgnoringMissing([5], [0])).toEqual({ count: 1, mean: 5, sd: null });
    expect(meanAndSampleSdIgnoringMissing([NaN], [1])).toEqual({ count: 0, mean: null, sd: null });
  });
});
