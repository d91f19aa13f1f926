import { describe, expect, it } from 'vitest';
import { combineSyntheticReleases } from './combining-rules';

describe('combineSyntheticReleases (DIPS eqs. 9–11)', () => {
  it('computes the worked example of the doc comment', () => {
    const result = combineSyntheticReleases([1, 2, 3], [1, 1, 1]);
    expect(result.estimate).toBe(2);
    expect(result.betweenVariance).toBe(1);
    expect(result.withinVariance).toBe(1);
    expect(result.totalVariance).toBeCloseTo(4 / 3, 15);
    expect(result.degreesOfFreedom).toBe(32);
    // R: qt(0.975, 32) = 2.0369333434601016
    expect(result.ciUpper - result.estimate).toBeCloseTo(2.0369333434601016 * Math.sqrt(4 / 3), 12);
  });

  it('uses the normal quantile when the releases agree exactly', () => {
    const result = combineSyntheticReleases([5, 5], [0.5, 0.5]);
    expect(result.degreesOfFreedom).toBe(Infinity);
    // qnorm(0.975) · 0.5
    expect(result.ciUpper - 5).toBeCloseTo(1.959963984540054 * 0.5, 14);
  });

  it('rejects a single release and non-finite input', () => {
    expect(() => combineSyntheticReleases([1], [1])).toThrow(RangeError);
    expect(() => combineSyntheticReleases([1, NaN], [1, 1])).toThrow(RangeError);
  });
});
