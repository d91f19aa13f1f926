import { describe, expect, it } from 'vitest';
import { roundHalfAwayFromZero } from './round-half-away-from-zero';

describe('roundHalfAwayFromZero', () => {
  it('rounds halves away from zero on both sides', () => {
    expect(roundHalfAwayFromZero(2.5)).toBe(3);
    expect(roundHalfAwayFromZero(-2.5)).toBe(-3);
    expect(roundHalfAwayFromZero(0.49)).toBe(0);
    expect(roundHalfAwayFromZero(-0.51)).toBe(-1);
    expect(roundHalfAwayFromZero(7)).toBe(7);
  });
});
