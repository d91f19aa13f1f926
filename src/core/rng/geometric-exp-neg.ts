import { bernoulliExpNegBig, bernoulliExpNegSafe } from './bernoulli-exp-neg';
import type { Rational } from './rational';
import type { Rng } from './types';
import { uniformBigInt, uniformIntBelowSafe } from './uniform-int';

const MAX_SAFE = Number.MAX_SAFE_INTEGER;
const BIG_MAX_SAFE = BigInt(MAX_SAFE);

/**
 * One draw of the geometric distribution with ratio e^−γ on {0, 1, 2, …}:
 * P(k) = (1 − e^−γ) e^−γk for a rational γ = s/t > 0, exactly, with integer arithmetic only.
 * Throws RangeError for γ <= 0, and when a draw would exceed Number.MAX_SAFE_INTEGER (only
 * plausible for γ below about 1e−15). See {@link makeGeometricExpNegSampler} for the algorithm.
 */
export function sampleGeometricExpNeg(rng: Rng, gamma: Rational): number {
  return makeGeometricExpNegSampler(gamma)(rng);
}

/**
 * Precomputes a geometric sampler with P(k) = (1 − e^−γ) e^−γk, k >= 0, for γ = s/t > 0.
 *
 * Algorithm: the loop of Canonne, Kamath & Steinke 2020, §5.2, Algorithm 2 (before its sign step):
 * draw U uniform on {0, …, t−1} and keep it with probability exp(−U/t) (else restart); count
 * V = the number of successes of Bernoulli(exp(−1)) before the first failure; then X = U + t·V has
 * P(X = x) ∝ exp(−x/t), and Y = ⌊X/s⌋ has P(Y = y) ∝ exp(−y·s/t). U is kept with probability at
 * least 1 − e^−1 on average, so the expected number of restarts is below 1.6.
 *
 * Runs on JS numbers when s and t are below 2^53 (X is checked before it could pass 2^53 and
 * finished in bigint if needed); otherwise on bigint. Throws RangeError for γ <= 0.
 */
export function makeGeometricExpNegSampler(gamma: Rational): (rng: Rng) => number {
  if (!gamma.isPositive()) {
    throw new RangeError(`geometric sampler: gamma must be > 0, got ${gamma.toString()}`);
  }
  const s = gamma.num;
  const t = gamma.den;
  if (s <= BIG_MAX_SAFE && t <= BIG_MAX_SAFE) return makeSafeSampler(Number(s), Number(t));
  return (rng) => geometricBig(rng, s, t);
}

function makeSafeSampler(s: number, t: number): (rng: Rng) => number {
  return (rng) => {
    for (;;) {
      const u = uniformIntBelowSafe(rng, t);
      if (!bernoulliExpNegSafe(rng, u, t)) continue;
      const v = countExpNegOneSuccesses(rng);
      const x = u + t * v;
      // Exact test: a true value below 2^53 is computed exactly, one at or above 2^53 rounds to >= 2^53.
      if (x > MAX_SAFE) return toSafeNumber((BigInt(u) + BigInt(t) * BigInt(v)) / BigInt(s));
      // (x − x mod s)/s is an exact quotient of integers below 2^53; Math.floor(x / s) could round up.
      return (x - (x % s)) / s;
    }
  };
}

function geometricBig(rng: Rng, s: bigint, t: bigint): number {
  for (;;) {
    const u = uniformBigInt(rng, t);
    if (!bernoulliExpNegBig(rng, u, t)) continue;
    const v = countExpNegOneSuccesses(rng);
    return toSafeNumber((u + t * BigInt(v)) / s);
  }
}

/** V with P(V = v) = (1 − e^−1) e^−v: successes of Bernoulli(exp(−1)) before the first failure. */
function countExpNegOneSuccesses(rng: Rng): number {
  let v = 0;
  while (bernoulliExpNegSafe(rng, 1, 1)) v++;
  return v;
}

function toSafeNumber(value: bigint): number {
  if (value > BIG_MAX_SAFE) {
    throw new RangeError(
      `exact sampler: a draw (${value}) exceeds Number.MAX_SAFE_INTEGER; the scale is too large`,
    );
  }
  return Number(value);
}
