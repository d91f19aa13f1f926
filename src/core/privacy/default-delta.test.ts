import { describe, expect, it } from 'vitest';
import { parseRational, Rational } from '../rng/rational';
import { defaultDelta, DEFAULT_DELTA_CAP } from './default-delta';

describe('defaultDelta', () => {
  it('is 1e-9 up to n = 31,622 (n² ≤ 10⁹) and when n is not public', () => {
    expect(defaultDelta(1000).delta).toBe(DEFAULT_DELTA_CAP);
    expect(defaultDelta(31_622).delta).toBe('1e-9');
    expect(defaultDelta().delta).toBe('1e-9');
    expect(defaultDelta().reason).toContain('not public');
  });

  it('is 1/n² rounded down to one digit beyond: n = 48,842 → 4e-10 (n² = 2,385,540,964)', () => {
    expect(defaultDelta(48_842).delta).toBe('4e-10');
    expect(defaultDelta(31_623).delta).toBe('9e-10'); // n² = 1,000,014,129
    expect(defaultDelta(1_000_000).delta).toBe('1e-12');
    expect(defaultDelta(48_842).reason).toContain('n = 48,842');
  });

  it('never exceeds 1/n² nor 1e-9, and stays within a factor 10 of the smaller', () => {
    for (const n of [2, 999, 31_622, 31_623, 48_842, 99_999, 123_457, 10_000_000]) {
      const delta = parseRational(defaultDelta(n).delta);
      const cap = parseRational('1e-9');
      const inverseSquare = Rational.of(1n, BigInt(n) * BigInt(n));
      const bound = cap.compare(inverseSquare) <= 0 ? cap : inverseSquare;
      expect(delta.compare(bound)).toBeLessThanOrEqual(0);
      expect(delta.mul(Rational.of(10)).compare(bound)).toBeGreaterThan(0);
    }
  });
});
