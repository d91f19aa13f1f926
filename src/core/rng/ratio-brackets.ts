import { floorExpNegScaled } from './exp-neg-expansion';

/**
 * Rigorous brackets of an irrational ratio r in (0, 1): `bracketAt(bits)` returns integers
 * [lo, hi] with lo ≤ r·2^bits ≤ hi. Samplers that must be exact compare random bits with these
 * brackets and ask for more bits until the comparison is decided; floating point never decides.
 */
export type RatioBracket = (bits: number) => readonly [bigint, bigint];

/** r = e^(−s/t): lo = floor(r·2^bits) from the exact series, hi = lo + 1. */
export function expNegBracket(s: bigint, t: bigint): RatioBracket {
  return memoizeBracket((bits) => {
    const lo = floorExpNegScaled(s, t, bits);
    return [lo, lo + 1n];
  });
}

/**
 * r = 1/(1 + q) from a bracket of q: with q in [qlo, qhi]/2^b,
 * 2^(2b)/(2^b + qhi) ≤ r·2^b ≤ 2^(2b)/(2^b + qlo); rounded down and up respectively.
 * This is the probability that a discrete Laplace variate with ratio q is not positive.
 */
export function inverseOnePlusBracket(q: RatioBracket): RatioBracket {
  return memoizeBracket((bits) => {
    const [qlo, qhi] = q(bits);
    const one = 1n << BigInt(bits);
    const square = one * one;
    return [square / (one + qhi), ceilDiv(square, one + qlo)];
  });
}

/**
 * A bracket of r^k at `bits` bits: exponentiation by squaring on a bracket of r with 2·bitlength(k)
 * + 32 guard bits (a parameter only so that tests can remove them and see every rounding), the lower
 * chain rounded down and the upper chain rounded up at every product, so the result still encloses r^k.
 */
export function powerBracketAt(
  r: RatioBracket,
  k: number,
  bits: number,
  guard: number = 2 * Math.max(0, k).toString(2).length + 32,
): readonly [bigint, bigint] {
  if (!Number.isSafeInteger(k) || k < 0)
    throw new RangeError(`powerBracketAt: k must be a whole number ≥ 0, got ${k}`);
  const work = bits + guard;
  const shift = BigInt(work);
  const [baseLo, baseHi] = r(work);
  let lo = 1n << shift;
  let hi = lo;
  let powerLo = baseLo;
  let powerHi = baseHi;
  for (let e = k; e > 0; e = Math.floor(e / 2)) {
    if (e % 2 === 1) {
      lo = (lo * powerLo) >> shift;
      hi = ceilShift(hi * powerHi, shift);
    }
    if (e > 1) {
      powerLo = (powerLo * powerLo) >> shift;
      powerHi = ceilShift(powerHi * powerHi, shift);
    }
  }
  return [lo >> BigInt(guard), ceilShift(hi, BigInt(guard))];
}

function memoizeBracket(compute: RatioBracket): RatioBracket {
  const cache = new Map<number, readonly [bigint, bigint]>();
  return (bits) => {
    let bracket = cache.get(bits);
    if (!bracket) {
      bracket = compute(bits);
      cache.set(bits, bracket);
    }
    return bracket;
  };
}

function ceilDiv(a: bigint, b: bigint): bigint {
  return (a + b - 1n) / b;
}

function ceilShift(a: bigint, shift: bigint): bigint {
  return (a + (1n << shift) - 1n) >> shift;
}
