import type { Rational } from './rational';
import type { Rng } from './types';
import { uniformBigInt, uniformIntBelowSafe } from './uniform-int';

const MAX_SAFE = Number.MAX_SAFE_INTEGER;

/**
 * Bernoulli(exp(−γ)) exactly for a rational γ >= 0, with integer arithmetic only (Canonne, Kamath &
 * Steinke 2020, "The Discrete Gaussian for Differential Privacy", §5.1, Algorithm 1):
 * - for γ in [0, 1]: K = 1; while Bernoulli(γ/K) succeeds, K += 1; return "K is odd". Then
 *   P(K odd) = Σ_k (−1)^k γ^k / k! = exp(−γ) (the series of e^−γ, by inclusion–exclusion).
 * - for γ > 1: the product of ⌊γ⌋ draws of Bernoulli(exp(−1)) and one Bernoulli(exp(−(γ − ⌊γ⌋))),
 *   stopping at the first failure.
 * Expected uniform draws: at most e per Bernoulli(exp(−γ)) for γ <= 1, and below 1/(1 − e^−1) ≈ 1.6
 * factors for γ > 1 whatever its size.
 *
 * Uses JS numbers while every integer involved stays below 2^53, bigint otherwise.
 * Throws RangeError for γ < 0.
 */
export function sampleBernoulliExpNeg(rng: Rng, gamma: Rational): boolean {
  if (gamma.isNegative()) {
    throw new RangeError(`sampleBernoulliExpNeg: gamma must be >= 0, got ${gamma.toString()}`);
  }
  if (gamma.num <= BigInt(MAX_SAFE) && gamma.den <= BigInt(MAX_SAFE)) {
    return bernoulliExpNegSafe(rng, Number(gamma.num), Number(gamma.den));
  }
  return bernoulliExpNegBig(rng, gamma.num, gamma.den);
}

/** Bernoulli(exp(−num/den)) for safe integers num >= 0, den >= 1 (unchecked, hot loops). */
export function bernoulliExpNegSafe(rng: Rng, num: number, den: number): boolean {
  if (num <= den) return bernoulliExpNegAtMostOneSafe(rng, num, den);
  const remainder = num % den;
  const whole = (num - remainder) / den; // exact, unlike Math.floor(num / den) near 2^53
  for (let i = 0; i < whole; i++) {
    if (!bernoulliExpNegAtMostOneSafe(rng, 1, 1)) return false;
  }
  return bernoulliExpNegAtMostOneSafe(rng, remainder, den);
}

/** Bernoulli(exp(−num/den)) on bigint for num >= 0, den >= 1 (unchecked). */
export function bernoulliExpNegBig(rng: Rng, num: bigint, den: bigint): boolean {
  if (num <= den) return bernoulliExpNegAtMostOneBig(rng, num, den);
  const whole = num / den;
  for (let i = 0n; i < whole; i++) {
    if (!bernoulliExpNegAtMostOneSafe(rng, 1, 1)) return false;
  }
  return bernoulliExpNegAtMostOneBig(rng, num - whole * den, den);
}

/**
 * Algorithm 1 of CKS 2020 for γ = num/den in [0, 1]: Bernoulli(γ/K) is Bernoulli(num/(den·K)),
 * drawn as "uniform below den·K is < num". Switches to bigint if den·K ever passes 2^53, which
 * needs K ≈ 2^53/den and so essentially never happens (P(reaching K) = γ^(K−1)/(K−1)!).
 */
function bernoulliExpNegAtMostOneSafe(rng: Rng, num: number, den: number): boolean {
  if (num === 0) return true;
  // Bernoulli(γ/1) with γ = 1 always succeeds: skip its draw.
  let k = num === den ? 2 : 1;
  for (;;) {
    const trialDen = den * k;
    if (trialDen > MAX_SAFE) return continueSeriesBig(rng, BigInt(num), BigInt(den), BigInt(k));
    if (uniformIntBelowSafe(rng, trialDen) >= num) return k % 2 === 1;
    k++;
  }
}

function bernoulliExpNegAtMostOneBig(rng: Rng, num: bigint, den: bigint): boolean {
  return continueSeriesBig(rng, num, den, 1n);
}

function continueSeriesBig(rng: Rng, num: bigint, den: bigint, k: bigint): boolean {
  for (;;) {
    if (uniformBigInt(rng, den * k) >= num) return k % 2n === 1n;
    k++;
  }
}
