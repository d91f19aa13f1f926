import { describe, expect, it } from 'vitest';
import { parseRational, Rational } from '../rng/rational';
import {
  roundDown,
  roundDownRational,
  roundUp,
  roundUpRational,
  roundUpSqrtRational,
  sqrtRationalDown,
} from './round-up';

describe('roundUpRational', () => {
  it('rounds exact rationals up to 6 significant digits by default', () => {
    expect(roundUpRational(Rational.of(1, 3))).toBe(0.333334);
    expect(roundUpRational(Rational.of(2, 3))).toBe(0.666667);
    expect(roundUpRational(Rational.of(3, 10))).toBe(0.3);
    expect(roundUpRational(Rational.of(1))).toBe(1);
    expect(roundUpRational(Rational.ZERO)).toBe(0);
    expect(roundUpRational(Rational.of(1000001, 1000000))).toBe(1.00001);
    expect(roundUpRational(Rational.of(9999999, 1000000))).toBe(10);
    expect(roundUpRational(Rational.of(1, 7), 3)).toBe(0.143);
    expect(roundUpRational(Rational.of(22, 7), 1)).toBe(4);
  });

  it('keeps decimals that already fit and handles large and tiny magnitudes', () => {
    expect(roundUpRational(parseRational('0.1'))).toBe(0.1);
    expect(roundUpRational(parseRational('1e-12'))).toBe(1e-12);
    expect(roundUpRational(parseRational('1234567'))).toBe(1234570);
    expect(roundUpRational(parseRational('1.0000000001e-200'))).toBe(1.00001e-200);
  });

  it('rounds negatives towards zero (upwards) and rounds down symmetrically', () => {
    expect(roundUpRational(Rational.of(-1, 3))).toBe(-0.333333);
    expect(roundDownRational(Rational.of(1, 3))).toBe(0.333333);
    expect(roundDownRational(Rational.of(-1, 3))).toBe(-0.333334);
  });

  it('is never below the exact value: the printed decimal compared exactly', () => {
    for (let den = 1; den <= 200; den++) {
      for (const num of [1, 2, 7, 99, 1000, 123457]) {
        const r = Rational.of(num, den);
        const up = parseRational(String(roundUpRational(r)));
        const down = parseRational(String(roundDownRational(r)));
        expect(up.compare(r), `${r} up`).toBeGreaterThanOrEqual(0);
        expect(down.compare(r), `${r} down`).toBeLessThanOrEqual(0);
      }
    }
  });

  it('rejects digit counts outside 1..15', () => {
    expect(() => roundUpRational(Rational.ONE, 0)).toThrow(RangeError);
    expect(() => roundUpRational(Rational.ONE, 16)).toThrow(RangeError);
    expect(() => roundUpRational(Rational.ONE, 2.5)).toThrow(RangeError);
  });
});

describe('roundUp and roundDown on numbers', () => {
  it('read the number as the decimal it prints as', () => {
    expect(roundUp(1.1)).toBe(1.1);
    expect(roundUp(1 / 3)).toBe(0.333334);
    expect(roundUp(0.1 + 0.2)).toBe(0.300001); // 0.30000000000000004 > 0.3
    expect(roundUp(4.377178095681224)).toBe(4.37718);
    expect(roundUp(123456.5)).toBe(123457);
    expect(roundDown(0.030556595197639567, 12)).toBe(0.0305565951976);
    expect(roundDown(1 / 3)).toBe(0.333333);
  });

  it('passes infinities and zero through and refuses NaN', () => {
    expect(roundUp(Infinity)).toBe(Infinity);
    expect(roundUp(0)).toBe(0);
    expect(() => roundUp(NaN)).toThrow(RangeError);
    expect(() => roundDown(NaN)).toThrow(RangeError);
  });
});

describe('roundUpSqrtRational', () => {
  it('gives the least 6-digit decimal whose square is at least r', () => {
    expect(roundUpSqrtRational(Rational.of(1))).toBe(1);
    expect(roundUpSqrtRational(Rational.of(2))).toBe(1.41422); // √2 = 1.41421356…
    expect(roundUpSqrtRational(parseRational('0.36').add(parseRational('0.64')))).toBe(1);
    expect(roundUpSqrtRational(Rational.of(1, 100))).toBe(0.1);
    expect(roundUpSqrtRational(Rational.of(1, 1000))).toBe(0.0316228); // √0.001 = 0.0316227766…
    expect(roundUpSqrtRational(Rational.of(10 ** 6 + 1))).toBe(1000.01);
    expect(roundUpSqrtRational(Rational.of(2 * 10 ** 14))).toBe(14142200); // √2e14 = 14142135.6…
    expect(roundUpSqrtRational(Rational.ZERO)).toBe(0);
    expect(() => roundUpSqrtRational(Rational.of(-1))).toThrow(RangeError);
  });

  it('is minimal: one unit less in the last digit squares to below r', () => {
    for (let n = 1; n <= 300; n++) {
      const r = Rational.of(n, 7);
      const shown = roundUpSqrtRational(r);
      const up = parseRational(String(shown));
      expect(up.mul(up).compare(r)).toBeGreaterThanOrEqual(0);
      const exponent = Math.floor(Math.log10(shown));
      const below = up.sub(parseRational(`1e${exponent - 5}`));
      expect(below.mul(below).compare(r), `√(${n}/7) shown ${shown}`).toBeLessThan(0);
    }
  });
});

describe('sqrtRationalDown', () => {
  it('gives the largest decimal of the given digits whose square is at most r', () => {
    expect(sqrtRationalDown(Rational.of(2), 3).toString()).toBe('141/100'); // 1.41² = 1.9881 <= 2 < 1.42²
    expect(sqrtRationalDown(Rational.of(2), 1).toString()).toBe('1');
    expect(sqrtRationalDown(Rational.of(4), 6).toString()).toBe('2');
    expect(sqrtRationalDown(Rational.of(1, 1000), 3).toString()).toBe('79/2500'); // √0.001 = 0.0316227…
    expect(sqrtRationalDown(Rational.of(2 * 10 ** 8), 2).toString()).toBe('14000'); // √(2e8) = 14142.1…
    expect(sqrtRationalDown(Rational.of(99), 1).toString()).toBe('9');
    expect(sqrtRationalDown(Rational.ZERO, 4).isZero()).toBe(true);
  });

  it('is maximal: one unit more in the last digit squares to above r', () => {
    for (let n = 1; n <= 300; n++) {
      for (const digits of [1, 3, 6]) {
        const r = Rational.of(n * n * 7 + n, 7 * 10 ** (n % 5));
        const down = sqrtRationalDown(r, digits);
        expect(down.mul(down).compare(r), `√${r} at ${digits} digits`).toBeLessThanOrEqual(0);
        const exponent = Math.floor(Math.log10(down.toNumber()));
        const unit = parseRational(`1e${exponent - digits + 1}`);
        const above = down.add(unit);
        expect(above.mul(above).compare(r), `√${r} at ${digits} digits: ${down}`).toBeGreaterThan(0);
      }
    }
  });
});
