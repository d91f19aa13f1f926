import { parseRational, Rational } from '../rng/rational';

/** Significant digits of every privacy value shown or exported (privacy rule 7). */
export const DEFAULT_SIGNIFICANT_DIGITS = 6;

/** Largest digit count: decimals of up to 15 digits survive the trip to a double and back. */
const MAX_SIGNIFICANT_DIGITS = 15;

function checkDigits(significantDigits: number): void {
  if (
    !Number.isInteger(significantDigits) ||
    significantDigits < 1 ||
    significantDigits > MAX_SIGNIFICANT_DIGITS
  ) {
    throw new RangeError(
      `significant digits must be a whole number from 1 to ${MAX_SIGNIFICANT_DIGITS}; got ${significantDigits}`,
    );
  }
}

/** Largest e with 10^e <= p/q, for p, q > 0. */
function decimalExponent(p: bigint, q: bigint): number {
  let e = p.toString().length - q.toString().length;
  const atLeast = (k: number): boolean => (k >= 0 ? p >= q * 10n ** BigInt(k) : p * 10n ** BigInt(-k) >= q);
  while (!atLeast(e)) e -= 1;
  while (atLeast(e + 1)) e += 1;
  return e;
}

/** The decimal m·10^exponent as the double nearest to it (exact digits, read back by the JS parser). */
function decimalToNumber(m: bigint, exponent: number): number {
  return Number(`${m}e${exponent}`);
}

/**
 * Rounds a positive p/q to `digits` significant decimal digits, away from zero (up) or towards it.
 * With 10^e <= p/q < 10^(e+1) and k = digits − 1 − e, the result is ceil or floor of (p/q)·10^k, times
 * 10^(−k), all in integers.
 */
function roundPositiveRational(p: bigint, q: bigint, digits: number, up: boolean): number {
  const k = digits - 1 - decimalExponent(p, q);
  const numerator = k >= 0 ? p * 10n ** BigInt(k) : p;
  const denominator = k >= 0 ? q : q * 10n ** BigInt(-k);
  const floor = numerator / denominator;
  const m = up && floor * denominator !== numerator ? floor + 1n : floor;
  return decimalToNumber(m, -k);
}

/**
 * The smallest decimal with `significantDigits` significant digits that is >= the exact rational r,
 * as a double (which prints as that decimal). Exact: no floating-point step before the rounding, so
 * 3/10 shows 0.3 and 1/3 shows 0.333334. (Rounding `r.toNumberUp()` instead would turn 3/10 into
 * 0.30000000000000004 and then 0.300001.) Throws RangeError for a digit count outside 1..15.
 */
export function roundUpRational(r: Rational, significantDigits: number = DEFAULT_SIGNIFICANT_DIGITS): number {
  checkDigits(significantDigits);
  if (r.isZero()) return 0;
  if (r.isNegative()) return -roundPositiveRational(-r.num, r.den, significantDigits, false);
  return roundPositiveRational(r.num, r.den, significantDigits, true);
}

/** The largest decimal with `significantDigits` significant digits that is <= r; see {@link roundUpRational}. */
export function roundDownRational(
  r: Rational,
  significantDigits: number = DEFAULT_SIGNIFICANT_DIGITS,
): number {
  checkDigits(significantDigits);
  if (r.isZero()) return 0;
  if (r.isNegative()) return -roundPositiveRational(-r.num, r.den, significantDigits, true);
  return roundPositiveRational(r.num, r.den, significantDigits, false);
}

/**
 * The smallest number with `significantDigits` significant digits (default 6) that is >= x, where x
 * is read as the decimal it prints as (`String(x)`), the same convention as `parseRational`:
 * roundUp(1.1) = 1.1, roundUp(1/3) = 0.333334, roundUp(0.1 + 0.2) = 0.300001 (0.30000000000000004 > 0.3).
 * ±Infinity is returned unchanged; NaN throws RangeError, since a privacy value must never be NaN.
 */
export function roundUp(x: number, significantDigits: number = DEFAULT_SIGNIFICANT_DIGITS): number {
  if (Number.isNaN(x)) throw new RangeError('roundUp: NaN is not a privacy value');
  if (!Number.isFinite(x)) return x;
  return roundUpRational(parseRational(x), significantDigits);
}

/** The largest number with `significantDigits` significant digits that is <= x; see {@link roundUp}. */
export function roundDown(x: number, significantDigits: number = DEFAULT_SIGNIFICANT_DIGITS): number {
  if (Number.isNaN(x)) throw new RangeError('roundDown: NaN is not a privacy value');
  if (!Number.isFinite(x)) return x;
  return roundDownRational(parseRational(x), significantDigits);
}

/** floor(√n) for n >= 0, by Newton's iteration on bigints. */
function integerSquareRoot(n: bigint): bigint {
  if (n < 2n) return n;
  let x = 1n << BigInt(Math.ceil(n.toString(2).length / 2)); // >= √n
  for (;;) {
    const next = (x + n / x) >> 1n;
    if (next >= x) return x;
    x = next;
  }
}

/**
 * The smallest decimal with `significantDigits` significant digits that is >= √r, computed exactly
 * (used to show a composed Gaussian-DP μ = √(Σ μᵢ²) without rounding it down). Throws RangeError for
 * negative r. With 10^(2e) <= r < 10^(2e+2) and k = digits − 1 − e, the result is m·10^(−k) where m is
 * the least integer with m² >= r·10^(2k).
 */
export function roundUpSqrtRational(
  r: Rational,
  significantDigits: number = DEFAULT_SIGNIFICANT_DIGITS,
): number {
  checkDigits(significantDigits);
  if (r.isNegative()) throw new RangeError(`roundUpSqrtRational: negative argument ${r.toString()}`);
  if (r.isZero()) return 0;
  const e = Math.floor(decimalExponent(r.num, r.den) / 2);
  const k = significantDigits - 1 - e;
  const scale = Rational.of(10n ** BigInt(Math.abs(2 * k)));
  const scaled = k >= 0 ? r.mul(scale) : r.div(scale);
  let m = integerSquareRoot(scaled.floor());
  while (Rational.of(m * m).compare(scaled) < 0) m += 1n;
  return decimalToNumber(m, -k);
}

/**
 * The largest decimal with `significantDigits` significant digits whose square is <= r, as an exact
 * Rational (a noise or selection parameter that must not exceed √r, e.g. an exponential mechanism's
 * ε = √(8ρ) for a ρ share). With 10^(2e) <= r < 10^(2e+2) and k = digits − 1 − e, the result is
 * m·10^(−k) with m = ⌊√(r·10^(2k))⌋, checked exactly. Throws RangeError for negative r.
 * Example: sqrtRationalDown(2, 3) = 1.41 (1.41² = 1.9881 <= 2 < 1.42²).
 */
export function sqrtRationalDown(r: Rational, significantDigits: number): Rational {
  checkDigits(significantDigits);
  if (r.isNegative()) throw new RangeError(`sqrtRationalDown: negative argument ${r.toString()}`);
  if (r.isZero()) return Rational.ZERO;
  const e = Math.floor(decimalExponent(r.num, r.den) / 2);
  const k = significantDigits - 1 - e;
  const scale = Rational.of(10n ** BigInt(Math.abs(2 * k)));
  const scaled = k >= 0 ? r.mul(scale) : r.div(scale);
  let m = integerSquareRoot(scaled.floor());
  while (m > 0n && Rational.of(m * m).compare(scaled) > 0) m -= 1n;
  const power = Rational.of(10n ** BigInt(Math.abs(k)));
  return k >= 0 ? Rational.of(m).div(power) : Rational.of(m).mul(power);
}
