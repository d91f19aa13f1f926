import { describe, expect, it } from 'vitest';
import { confidenceIntervalOverlap } from './confidence-interval-overlap';

describe('confidenceIntervalOverlap (Karr et al. 2006)', () => {
  it('is 1 for identical intervals and ½ for half-shifted equal widths', () => {
    expect(confidenceIntervalOverlap(0, 2, 0, 2)).toBe(1);
    expect(confidenceIntervalOverlap(0, 2, 1, 3)).toBe(0.5);
  });

  it('averages the two shares when widths differ', () => {
    // Overlap [1, 2] of [0, 2] and [1, 5]: ½ (1/2 + 1/4) = 0.375
    expect(confidenceIntervalOverlap(0, 2, 1, 5)).toBe(0.375);
  });

  it('is negative for disjoint intervals and null for degenerate ones', () => {
    // Gap of 1 between [0, 1] and [2, 3]: ½ (−1/1 − 1/1) = −1
    expect(confidenceIntervalOverlap(0, 1, 2, 3)).toBe(-1);
    expect(confidenceIntervalOverlap(0, 0, 0, 1)).toBeNull();
    expect(confidenceIntervalOverlap(0, NaN, 0, 1)).toBeNull();
  });
});
