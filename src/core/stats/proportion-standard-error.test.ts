import { describe, expect, it } from 'vitest';
import { largestProportionStandardError, proportionStandardError } from './proportion-standard-error';

describe('standard error of a proportion', () => {
  it('is √(p(1 − p)/n), largest at p = 1/2', () => {
    expect(proportionStandardError(0.5, 2500)).toBeCloseTo(0.01, 15);
    expect(proportionStandardError(0.9, 100)).toBeCloseTo(0.03, 15);
    expect(largestProportionStandardError(2500)).toBeCloseTo(0.01, 15);
    expect(proportionStandardError(0.7, 1000)).toBeLessThan(largestProportionStandardError(1000));
    expect(proportionStandardError(0.5, 0)).toBeNaN();
  });
});
