import { describe, expect, it } from 'vitest';
import { parseRational, Rational } from '../rng/rational';
import { formatRational } from './format-rational';

describe('formatRational', () => {
  it('writes terminating decimals exactly', () => {
    expect(formatRational(Rational.of(1, 8))).toBe('0.125');
    expect(formatRational(parseRational('0.1'))).toBe('0.1');
    expect(formatRational(parseRational('5e-7'))).toBe('0.0000005');
    expect(formatRational(Rational.of(3))).toBe('3');
    expect(formatRational(parseRational('-2.5'))).toBe('-2.5');
    expect(formatRational(Rational.ZERO)).toBe('0');
    expect(formatRational(parseRational('-0.05'))).toBe('-0.05');
  });

  it('writes up to 20 decimal places in full, then a fraction', () => {
    expect(formatRational(parseRational('1e-20'))).toBe('0.00000000000000000001');
    expect(formatRational(parseRational('1e-21'))).toBe('1/1000000000000000000000 (≈ 1e-21)');
  });

  it('writes other values as a fraction with the value rounded up', () => {
    expect(formatRational(Rational.of(1, 3))).toBe('1/3 (≈ 0.333334)');
    expect(formatRational(Rational.of(1, 2 ** 30))).toBe('1/1073741824 (≈ 9.31323e-10)');
  });
});
