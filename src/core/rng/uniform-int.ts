import type { Rng } from './types';

const TWO_POW_32 = 4294967296;
const TWO_POW_53 = 9007199254740992;
const INVERSE_TWO_POW_32 = 1 / TWO_POW_32;
/** Below this n, word·n < 2^53 is exact, which Lemire's method needs. */
const LEMIRE_LIMIT = 2097152;

/**
 * A uniform integer on {0, …, n−1} for an integer 1 <= n <= 2^32, by rejection: a 32-bit word w is
 * kept when w < 2^32 − (2^32 mod n), the largest multiple of n that fits, and reduced mod n. Each
 * residue then has exactly the same number of preimages, so the result is exactly uniform (the
 * modulo bias of a bare `w % n` is avoided). Expected words per draw < 2.
 *
 * Throws RangeError when n is not an integer in [1, 2^32].
 * Example: `uniformInt(rng, 6)` is a fair die roll minus one.
 */
export function uniformInt(rng: Rng, n: number): number {
  if (!(Number.isInteger(n) && n >= 1 && n <= TWO_POW_32)) {
    throw new RangeError(`uniformInt: n must be an integer in [1, 2^32], got ${String(n)}`);
  }
  return uniformIntBelow32(rng, n);
}

/**
 * uniformInt without argument checks, for hot loops that already know 1 <= n <= 2^32.
 * Powers of two take the top bits of one word. Other n <= 2^21 use Lemire's multiply-and-reject ("Fast Random Integer Generation in an
 * Interval", ACM TOMACS 29(1), 2019, Algorithm 5): with m = w·n (exact, below 2^53), return ⌊m/2^32⌋
 * unless m mod 2^32 < 2^32 mod n; each result then has exactly ⌊2^32/n⌋ accepted words. The
 * remainder 2^32 mod n is only computed in the rare case m mod 2^32 < n. Larger n use the
 * threshold rule of {@link uniformInt}.
 */
export function uniformIntBelow32(rng: Rng, n: number): number {
  if (n <= LEMIRE_LIMIT) {
    // n = 2^j: the top j bits of one word, exactly uniform with no rejection (n = 1 needs no bits).
    if ((n & (n - 1)) === 0) return n === 1 ? 0 : rng.nextUint32() >>> (Math.clz32(n) + 1);
    for (;;) {
      const product = rng.nextUint32() * n;
      const high = Math.floor(product * INVERSE_TWO_POW_32);
      const low = product - high * TWO_POW_32;
      if (low >= n || low >= TWO_POW_32 % n) return high;
    }
  }
  if (n === TWO_POW_32) return rng.nextUint32();
  const acceptBelow = TWO_POW_32 - (TWO_POW_32 % n);
  let word = rng.nextUint32();
  while (word >= acceptBelow) word = rng.nextUint32();
  return word % n;
}

/**
 * A uniform integer on {0, …, n−1} for an integer 1 <= n <= 2^53 as a JS number: below 2^32 as
 * {@link uniformIntBelow32}; above, a 53-bit value from two words (21 + 32 bits) kept when it is
 * below 2^53 − (2^53 mod n) and reduced mod n. All arithmetic stays below 2^53, so it is exact.
 */
export function uniformIntBelowSafe(rng: Rng, n: number): number {
  if (n <= TWO_POW_32) return uniformIntBelow32(rng, n);
  const acceptBelow = TWO_POW_53 - (TWO_POW_53 % n);
  for (;;) {
    const value = (rng.nextUint32() >>> 11) * TWO_POW_32 + rng.nextUint32();
    if (value < acceptBelow) return value % n;
  }
}

/**
 * A uniform bigint on {0, …, n−1} for any n >= 1, by rejection: draw the bit length of n−1 random
 * bits (whole 32-bit words, the top word masked) and retry while the value is >= n. Fewer than two
 * attempts are needed on average. Cost O(bits(n)) per attempt.
 *
 * Throws RangeError for n < 1.
 */
export function uniformBigInt(rng: Rng, n: bigint): bigint {
  if (n < 1n) throw new RangeError(`uniformBigInt: n must be >= 1, got ${n}`);
  if (n <= BigInt(TWO_POW_32)) return BigInt(uniformIntBelow32(rng, Number(n)));
  const bits = (n - 1n).toString(2).length;
  const words = Math.ceil(bits / 32);
  const topBits = bits - 32 * (words - 1);
  const topMask = topBits === 32 ? 0xffffffff : (1 << topBits) - 1;
  for (;;) {
    let value = BigInt((rng.nextUint32() & topMask) >>> 0);
    for (let i = 1; i < words; i++) value = (value << 32n) | BigInt(rng.nextUint32());
    if (value < n) return value;
  }
}
