/**
 * Exact rational numbers on bigint, used wherever a privacy parameter (ε, δ, a noise scale) must be
 * handled without rounding (DESIGN.md privacy rule 7) and by the exact samplers of Canonne, Kamath &
 * Steinke (2020), which need exact comparisons and integer arithmetic only.
 *
 * Invariants: `den > 0` and `gcd(|num|, den) = 1`, so equal values have equal fields.
 */
export class Rational {
  readonly num: bigint;
  readonly den: bigint;

  static readonly ZERO: Rational = new Rational(0n, 1n);
  static readonly ONE: Rational = new Rational(1n, 1n);

  /** Use {@link Rational.of}; the constructor trusts its caller to pass a reduced fraction with den > 0. */
  private constructor(num: bigint, den: bigint) {
    this.num = num;
    this.den = den;
  }

  /**
   * The reduced fraction num/den. Number arguments must be integers (use {@link parseRational} for
   * decimals such as 0.1). Throws RangeError for a zero denominator or a non-integer number.
   * Example: `Rational.of(6, -4).toString() === "-3/2"`.
   */
  static of(num: bigint | number, den: bigint | number = 1n): Rational {
    const n = integerToBigInt(num, 'numerator');
    const d = integerToBigInt(den, 'denominator');
    if (d === 0n) throw new RangeError(`Rational.of: zero denominator (${String(num)}/${String(den)})`);
    return Rational.reduced(n, d);
  }

  private static reduced(num: bigint, den: bigint): Rational {
    if (den < 0n) {
      num = -num;
      den = -den;
    }
    if (num === 0n) return den === 1n ? Rational.ZERO : new Rational(0n, 1n);
    const g = greatestCommonDivisor(num < 0n ? -num : num, den);
    return g === 1n ? new Rational(num, den) : new Rational(num / g, den / g);
  }

  add(o: Rational): Rational {
    if (this.den === o.den) return Rational.reduced(this.num + o.num, this.den);
    return Rational.reduced(this.num * o.den + o.num * this.den, this.den * o.den);
  }

  sub(o: Rational): Rational {
    return this.add(o.neg());
  }

  mul(o: Rational): Rational {
    return Rational.reduced(this.num * o.num, this.den * o.den);
  }

  /** Throws RangeError when dividing by zero. */
  div(o: Rational): Rational {
    if (o.num === 0n) throw new RangeError(`Rational.div: division of ${this.toString()} by zero`);
    return Rational.reduced(this.num * o.den, this.den * o.num);
  }

  neg(): Rational {
    return new Rational(-this.num, this.den);
  }

  abs(): Rational {
    return this.num < 0n ? this.neg() : this;
  }

  /** 1 / this; throws RangeError for zero. */
  inverse(): Rational {
    return Rational.ONE.div(this);
  }

  compare(o: Rational): -1 | 0 | 1 {
    const left = this.num * o.den;
    const right = o.num * this.den;
    return left < right ? -1 : left > right ? 1 : 0;
  }

  equals(o: Rational): boolean {
    return this.num === o.num && this.den === o.den;
  }

  isZero(): boolean {
    return this.num === 0n;
  }

  isPositive(): boolean {
    return this.num > 0n;
  }

  isNegative(): boolean {
    return this.num < 0n;
  }

  /** Largest integer <= value (bigint division truncates towards zero, so negatives are corrected). */
  floor(): bigint {
    const q = this.num / this.den;
    return this.num < 0n && q * this.den !== this.num ? q - 1n : q;
  }

  /** Smallest integer >= value. */
  ceil(): bigint {
    return -this.neg().floor();
  }

  /** The double nearest to the value (ties to even), as IEEE 754 round-to-nearest would give. */
  toNumber(): number {
    if (this.num < 0n) return -this.neg().toNumber();
    return positiveRationalToDouble(this.num, this.den, 'nearest');
  }

  /** The smallest double >= value (Infinity above Number.MAX_VALUE). Computed exactly. */
  toNumberUp(): number {
    if (this.num < 0n) return -positiveRationalToDouble(-this.num, this.den, 'down');
    return positiveRationalToDouble(this.num, this.den, 'up');
  }

  /** The largest double <= value (-Infinity below -Number.MAX_VALUE). Computed exactly. */
  toNumberDown(): number {
    if (this.num < 0n) return -positiveRationalToDouble(-this.num, this.den, 'up');
    return positiveRationalToDouble(this.num, this.den, 'down');
  }

  /** "num/den", or "num" when the denominator is 1. */
  toString(): string {
    return this.den === 1n ? this.num.toString() : `${this.num}/${this.den}`;
  }
}

function integerToBigInt(x: bigint | number, what: string): bigint {
  if (typeof x === 'bigint') return x;
  if (!Number.isInteger(x)) {
    throw new RangeError(
      `Rational.of: ${what} must be an integer, got ${String(x)} (use parseRational for decimals)`,
    );
  }
  return BigInt(x);
}

function greatestCommonDivisor(a: bigint, b: bigint): bigint {
  while (b !== 0n) {
    const r = a % b;
    a = b;
    b = r;
  }
  return a;
}

function bitLength(x: bigint): number {
  return x === 0n ? 0 : x.toString(2).length;
}

/** floor((p/q) / 2^s) and whether the division was exact, for p, q > 0. */
function floorScaled(p: bigint, q: bigint, s: number): { quotient: bigint; exact: boolean } {
  const numerator = s >= 0 ? p : p << BigInt(-s);
  const denominator = s >= 0 ? q << BigInt(s) : q;
  const quotient = numerator / denominator;
  return { quotient, exact: quotient * denominator === numerator };
}

const TWO_POW_53 = 1n << 53n;
/** Doubles are m·2^s with integer m < 2^53 and s >= -1074 (subnormals included). */
const SMALLEST_EXPONENT = -1074;
/** Number.MAX_VALUE = (2^53 - 1)·2^971. */
const LARGEST_FINITE_EXPONENT = 971;

/**
 * Rounds p/q (p, q > 0) to a double in the given direction. Finds the exponent s with
 * 2^52 <= floor(x/2^s) < 2^53 (clamped at s = -1074 for subnormals), so m = floor(x/2^s) is the
 * truncated 53-bit significand; one extra bit and a sticky flag decide round-to-nearest-even.
 * m·2^s is then formed exactly by one multiplication by an exact power of two.
 */
function positiveRationalToDouble(p: bigint, q: bigint, direction: 'nearest' | 'up' | 'down'): number {
  if (p === 0n) return 0;
  const e = bitLength(p) - bitLength(q); // 2^(e-1) < p/q < 2^(e+1)
  let s = e - 53;
  if (floorScaled(p, q, s).quotient >= TWO_POW_53) s += 1;
  if (s < SMALLEST_EXPONENT) s = SMALLEST_EXPONENT;
  // From here 2^52 <= floor(x/2^s) unless subnormal, so s > 971 means x >= 2^1024: beyond every finite double.
  if (s > LARGEST_FINITE_EXPONENT) return direction === 'down' ? Number.MAX_VALUE : Infinity;
  if (direction === 'nearest') {
    const withExtraBit = floorScaled(p, q, s - 1);
    let m = withExtraBit.quotient >> 1n;
    const halfBit = (withExtraBit.quotient & 1n) === 1n;
    if (halfBit && (!withExtraBit.exact || (m & 1n) === 1n)) m += 1n;
    return multiplyByPowerOfTwo(m, s);
  }
  const { quotient, exact } = floorScaled(p, q, s);
  return multiplyByPowerOfTwo(direction === 'up' && !exact ? quotient + 1n : quotient, s);
}

/** m·2^s for 0 <= m <= 2^53 and -1074 <= s <= 971: exact, or Infinity only for 2^53·2^971 = 2^1024. */
function multiplyByPowerOfTwo(m: bigint, s: number): number {
  return Number(m) * 2 ** s;
}

const FRACTION_PATTERN = /^([+-]?\d+)\s*\/\s*([+-]?\d+)$/;
const DECIMAL_PATTERN = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;
/** Exponents beyond this would build absurdly large bigints; no privacy parameter needs them. */
const LARGEST_DECIMAL_EXPONENT = 100_000;

/**
 * Parses a decimal or fraction string exactly: "0.1" → 1/10, "1e-3" → 1/1000, "2.5E+2" → 250,
 * "-3" → -3, "1/3" → 1/3. Leading and trailing spaces are ignored.
 *
 * A JS number is converted through its shortest round-trip decimal string `String(x)`, so
 * `parseRational(0.1)` is exactly 1/10 (the decimal the user typed), not the binary double
 * 3602879701896397/36028797018963968.
 *
 * Throws RangeError quoting the input for NaN, ±Infinity, empty or malformed input, a zero
 * denominator, or an exponent beyond ±100000.
 */
export function parseRational(x: string | number): Rational {
  if (typeof x === 'number') {
    if (!Number.isFinite(x)) throw new RangeError(`parseRational: "${String(x)}" is not a finite number`);
    return parseRational(String(x));
  }
  const text = x.trim();
  const fraction = FRACTION_PATTERN.exec(text);
  if (fraction) {
    const den = BigInt(fraction[2]);
    if (den === 0n) throw new RangeError(`parseRational: zero denominator in "${x}"`);
    return Rational.of(BigInt(fraction[1]), den);
  }
  const decimal = DECIMAL_PATTERN.exec(text);
  const integerDigits = decimal?.[2] ?? '';
  const fractionDigits = decimal?.[3] ?? '';
  if (!decimal || integerDigits.length + fractionDigits.length === 0) {
    throw new RangeError(
      `parseRational: cannot parse "${x}" as a number (expected e.g. "0.1", "1e-3" or "1/3")`,
    );
  }
  const exponent = (decimal[4] === undefined ? 0 : Number(decimal[4])) - fractionDigits.length;
  if (Math.abs(exponent) > LARGEST_DECIMAL_EXPONENT) {
    throw new RangeError(`parseRational: exponent out of range in "${x}"`);
  }
  const digits = BigInt((integerDigits + fractionDigits).replace(/^0+(?=\d)/, '') || '0');
  const signed = decimal[1] === '-' ? -digits : digits;
  return exponent >= 0
    ? Rational.of(signed * 10n ** BigInt(exponent))
    : Rational.of(signed, 10n ** BigInt(-exponent));
}
