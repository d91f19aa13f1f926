import { describe, expect, it } from 'vitest';
import { formatCount, formatDecimal } from './number-format';

describe('number formats', () => {
  it('match what toLocaleString("en") printed before (grouping, at most 3 or 6 decimals)', () => {
    for (const value of [0, 7, 1234, 1234567, 5_000_000, 1.23456, -98765.4321]) {
      expect(formatCount(value)).toBe(value.toLocaleString('en'));
      expect(formatDecimal(value)).toBe(value.toLocaleString('en', { maximumFractionDigits: 6 }));
    }
    expect(formatCount(1234567)).toBe('1,234,567');
    expect(formatDecimal(0.12345678)).toBe('0.123457');
  });
});
