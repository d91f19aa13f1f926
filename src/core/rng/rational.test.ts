import { describe, expect, it } from 'vitest';
import { parseRational, Rational } from './rational';
import { SeededRng } from './seeded-rng';

/** The exact value of a finite double as a Rational, read from its IEEE 754 bits. */
function exactValueOf(x: number): Rational {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const bits = view.getBigUint64(0);
  const negative = bits >> 63n === 1n;
  const exponentBits = Number((bits >> 52n) & 0x7ffn);
  const fraction = bits & ((1n << 52n) - 1n);
  const significand = exponentBits === 0 ? fraction : fraction | (1n << 52n);
  const exponent = (exponentBits === 0 ? 1 : exponentBits) - 1075;
  const magnitude =
    exponent >= 0
      ? Rational.of(significand << BigInt(exponent))
      : Rational.of(significand, 1n << BigInt(-exponent));
  return negative ? magnitude.neg() : magnitude;
}

/** The next double above x (x finite). */
function nextUp(x: number): number {
  if (x === 0) return Number.MIN_VALUE;
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const bits = view.getBigUint64(0);
  view.setBigUint64(0, x > 0 ? bits + 1n : bits - 1n);
  return view.getFloat64(0);
}

/** Asserts toNumberDown/Up bracket the exact value with no double strictly between them and it. */
function expectTightBracket(value: Rational): void {
  const down = value.toNumberDown();
  const up = value.toNumberUp();
  const label = value.toString().slice(0, 60);
  if (Number.isFinite(down)) expect(exactValueOf(down).compare(value), label).toBeLessThanOrEqual(0);
  if (Number.isFinite(up)) expect(exactValueOf(up).compare(value), label).toBeGreaterThanOrEqual(0);
  if (down === up) {
    expect(exactValueOf(down).equals(value), label).toBe(true);
  } else if (Number.isFinite(down) && down !== Number.MAX_VALUE) {
    expect(up, label).toBe(nextUp(down));
  }
  // Nearest is one of the two.
  expect([down, up], label).toContain(value.toNumber());
}

describe('Rational arithmetic', () => {
  it('keeps fractions reduced with a positive denominator', () => {
    const r = Rational.of(6, -4);
    expect([r.num, r.den]).toEqual([-3n, 2n]);
    expect(Rational.of(0, -5).equals(Rational.ZERO)).toBe(true);
    expect(Rational.of(10n ** 30n, 10n ** 28n).toString()).toBe('100');
    expect(Rational.of(-7, 21).toString()).toBe('-1/3');
  });

  it('adds, subtracts, multiplies and divides exactly', () => {
    const third = Rational.of(1, 3);
    const sixth = Rational.of(1, 6);
    expect(third.add(sixth).toString()).toBe('1/2');
    expect(third.sub(sixth).toString()).toBe('1/6');
    expect(third.mul(sixth).toString()).toBe('1/18');
    expect(third.div(sixth).toString()).toBe('2');
    expect(third.neg().toString()).toBe('-1/3');
    expect(third.neg().abs().equals(third)).toBe(true);
    expect(Rational.of(-2, 3).inverse().toString()).toBe('-3/2');
    // Ten times 0.1 is exactly 1: no floating drift.
    let sum = Rational.ZERO;
    for (let i = 0; i < 10; i++) sum = sum.add(parseRational('0.1'));
    expect(sum.equals(Rational.ONE)).toBe(true);
    expect(() => third.div(Rational.ZERO)).toThrow(/division of 1\/3 by zero/);
    expect(() => Rational.ZERO.inverse()).toThrow(RangeError);
  });

  it('compares, tests signs, and rounds to integers', () => {
    expect(Rational.of(1, 3).compare(Rational.of(2, 6))).toBe(0);
    expect(Rational.of(1, 3).compare(Rational.of(1, 2))).toBe(-1);
    expect(Rational.of(-1, 3).compare(Rational.of(-1, 2))).toBe(1);
    expect([Rational.ZERO.isZero(), Rational.of(1, 9).isPositive(), Rational.of(-1, 9).isNegative()]).toEqual(
      [true, true, true],
    );
    expect(Rational.of(1, 9).isNegative()).toBe(false);
    expect([Rational.of(7, 2).floor(), Rational.of(7, 2).ceil()]).toEqual([3n, 4n]);
    expect([Rational.of(-7, 2).floor(), Rational.of(-7, 2).ceil()]).toEqual([-4n, -3n]);
    expect([Rational.of(-6, 2).floor(), Rational.of(-6, 2).ceil()]).toEqual([-3n, -3n]);
  });

  it('rejects non-integer numbers and zero denominators', () => {
    expect(() => Rational.of(0.5)).toThrow(/must be an integer/);
    expect(() => Rational.of(1, 0)).toThrow(/zero denominator/);
    expect(() => Rational.of(NaN)).toThrow(RangeError);
  });
});

describe('parseRational', () => {
  it('parses decimals, exponents and fractions exactly', () => {
    const cases: [string | number, string][] = [
      ['0.1', '1/10'],
      ['1e-3', '1/1000'],
      ['2.5E+2', '250'],
      ['-3', '-3'],
      ['1/3', '1/3'],
      [' -4/6 ', '-2/3'],
      ['.5', '1/2'],
      ['5.', '5'],
      ['+0.000', '0'],
      ['00012.50', '25/2'],
      ['1e-400', `1/1${'0'.repeat(400)}`],
      [0.1, '1/10'],
      [1e21, '1000000000000000000000'],
      [-2.5e-7, '-1/4000000'],
      [5e-324, `1/2${'0'.repeat(323)}`],
    ];
    for (const [input, expected] of cases)
      expect(parseRational(input).toString(), String(input)).toBe(expected);
  });

  it('rejects malformed input with a message quoting it', () => {
    for (const bad of [
      '',
      '  ',
      'abc',
      '1/0',
      '.',
      'e5',
      '1e',
      '1.2.3',
      '0x10',
      '1/2/3',
      'NaN',
      'Infinity',
      '1 000',
    ]) {
      expect(() => parseRational(bad), bad).toThrow(RangeError);
      expect(() => parseRational(bad), bad).toThrow(`"${bad}"`);
    }
    for (const bad of [NaN, Infinity, -Infinity])
      expect(() => parseRational(bad)).toThrow(/not a finite number/);
    expect(() => parseRational('1e999999')).toThrow(/exponent out of range/);
  });

  it('agrees with JavaScript number parsing, which rounds correctly to nearest', () => {
    const rng = new SeededRng('decimals');
    for (let i = 0; i < 3000; i++) {
      const digits = String(rng.nextUint32()) + String(rng.nextUint32());
      const exponent = (rng.nextUint32() % 660) - 340;
      const text = `${digits.slice(0, 1)}.${digits.slice(1)}e${exponent}`;
      expect(parseRational(text).toNumber(), text).toBe(Number(text));
    }
  });
});

describe('Rational to double', () => {
  it('rounds 1/3 and 1/10 down and up to adjacent doubles', () => {
    expect(Rational.of(1, 3).toNumberDown()).toBe(0.3333333333333333);
    expect(Rational.of(1, 3).toNumberUp()).toBe(0.33333333333333337);
    expect(Rational.of(1, 10).toNumberDown()).toBe(0.09999999999999999);
    expect(Rational.of(1, 10).toNumberUp()).toBe(0.1);
    expect(Rational.of(-1, 10).toNumberDown()).toBe(-0.1);
    expect(Rational.of(-1, 10).toNumberUp()).toBe(-0.09999999999999999);
    expect(Rational.of(3, 4).toNumberUp()).toBe(0.75);
    expect(Rational.of(3, 4).toNumberDown()).toBe(0.75);
  });

  it('brackets exactly at the extremes: subnormals, underflow and overflow', () => {
    const tiny = Rational.of(1n, 1n << 1075n); // half of the smallest subnormal
    expect([tiny.toNumberDown(), tiny.toNumberUp(), tiny.toNumber()]).toEqual([0, Number.MIN_VALUE, 0]);
    const justAboveHalf = Rational.of((1n << 1000n) + 1n, 1n << 2075n);
    expect(justAboveHalf.toNumber()).toBe(Number.MIN_VALUE);
    const huge = Rational.of(10n ** 400n);
    expect([huge.toNumberDown(), huge.toNumberUp(), huge.toNumber()]).toEqual([
      Number.MAX_VALUE,
      Infinity,
      Infinity,
    ]);
    expect([huge.neg().toNumberDown(), huge.neg().toNumberUp()]).toEqual([-Infinity, -Number.MAX_VALUE]);
    // Ties round to even: 2^53 + 1 lies halfway between 2^53 and 2^53 + 2.
    expect(Rational.of(2n ** 53n + 1n).toNumber()).toBe(2 ** 53);
    expect(Rational.of(2n ** 53n + 3n).toNumber()).toBe(2 ** 53 + 4);
    for (const value of [
      tiny,
      justAboveHalf,
      huge,
      Rational.of(1n, 3n << 1030n),
      Rational.of((1n << 1024n) - 1n),
    ]) {
      expectTightBracket(value);
    }
  });

  it('brackets random rationals tightly (no double between the bounds and the value)', () => {
    const rng = new SeededRng('bracket');
    const randomBig = (words: number) => {
      let x = 0n;
      for (let i = 0; i < words; i++) x = (x << 32n) | BigInt(rng.nextUint32());
      return x;
    };
    for (let i = 0; i < 400; i++) {
      const num = randomBig(1 + (rng.nextUint32() % 6)) * (rng.nextUint32() % 2 === 0 ? 1n : -1n);
      const den = randomBig(1 + (rng.nextUint32() % 6)) + 1n;
      expectTightBracket(Rational.of(num, den));
    }
    for (const exact of [0.1, 1 / 3, 123456.789, 5e-324, 2.2250738585072014e-308, Number.MAX_VALUE]) {
      expect(exactValueOf(exact).toNumberDown()).toBe(exact);
      expect(exactValueOf(exact).toNumberUp()).toBe(exact);
      expect(exactValueOf(exact).toNumber()).toBe(exact);
    }
  });
});

describe('Rational arithmetic, known values', () => {
  it('multiplies, compares for equality and tests for zero exactly', () => {
    expect(Rational.of(2, 3).mul(Rational.of(3, 4)).toString()).toBe('1/2');
    expect(Rational.of(-2, 5).mul(Rational.of(5, 7)).toString()).toBe('-2/7');
    expect(Rational.of(1, 2).equals(Rational.of(2, 4))).toBe(true);
    expect(Rational.of(1, 2).equals(Rational.of(1, 3))).toBe(false);
    expect(Rational.of(1, 3).equals(Rational.of(2, 3))).toBe(false);
    expect(Rational.of(1).isZero()).toBe(false);
    expect(Rational.of(0, 5).isZero()).toBe(true);
    // A decimal without integer digits, and one with leading zeros.
    expect(parseRational('.5').toString()).toBe('1/2');
    expect(parseRational('-007.25').toString()).toBe('-29/4');
  });

  it('floors toward −∞ and takes absolute values', () => {
    expect(Rational.of(7, 2).floor()).toBe(3n);
    expect(Rational.of(-7, 2).floor()).toBe(-4n);
    expect(Rational.of(-6, 2).floor()).toBe(-3n);
    expect(Rational.of(-3, 4).abs().toString()).toBe('3/4');
    expect(Rational.of(3, 4).abs().toString()).toBe('3/4');
  });
});
