import type { Rng } from './types';
import { uniformBigInt, uniformIntBelowSafe } from './uniform-int';

/**
 * Bernoulli(num/den) exactly: draw U uniform on {0, …, den−1} and return U < num, so
 * P(true) = num/den with no rounding (Canonne, Kamath & Steinke 2020, §5.1, the Bernoulli(n/d)
 * primitive their Algorithm 1 builds on). Cost: one uniform integer below den.
 *
 * Throws RangeError unless 0 <= num <= den and den >= 1.
 * Example: `sampleBernoulliRational(rng, 1n, 3n)` is true one time in three.
 */
export function sampleBernoulliRational(rng: Rng, num: bigint, den: bigint): boolean {
  if (!(den >= 1n && num >= 0n && num <= den)) {
    throw new RangeError(`sampleBernoulliRational: need 0 <= num <= den and den >= 1, got ${num}/${den}`);
  }
  if (den <= BigInt(Number.MAX_SAFE_INTEGER)) return bernoulliRationalSafe(rng, Number(num), Number(den));
  return uniformBigInt(rng, den) < num;
}

/** Bernoulli(num/den) on JS numbers, for integers 0 <= num <= den <= 2^53 (unchecked, hot loops). */
export function bernoulliRationalSafe(rng: Rng, num: number, den: number): boolean {
  return uniformIntBelowSafe(rng, den) < num;
}
