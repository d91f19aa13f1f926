import { floorExpNegScaled, makeBernoulliExpNegWordSampler } from './exp-neg-expansion';
import { makeGeometricExpNegSampler } from './geometric-exp-neg';
import { Rational } from './rational';
import type { Rng } from './types';

/**
 * One draw of the discrete Laplace distribution on the integers, P(x) ∝ exp(−|x|/scale), exactly.
 * For repeated draws use {@link makeDiscreteLaplaceSampler}, which precomputes.
 * Throws RangeError for scale <= 0.
 */
export function sampleDiscreteLaplace(rng: Rng, scale: Rational): number {
  return makeDiscreteLaplaceSampler(scale)(rng);
}

/**
 * A sampler of the discrete Laplace distribution P(x) = (1 − e^−1/b)/(1 + e^−1/b) · e^−|x|/b on Z,
 * b = scale (Canonne, Kamath & Steinke 2020, Definition 28 and §5.2, Algorithm 2). With b = t/s:
 * Y is geometric with ratio e^−s/t (see makeGeometricExpNegSampler), B a fair coin; reject
 * (B = 1, Y = 0), which would count zero twice; return (1 − 2B)·Y. Variance 2e^−1/b/(1 − e^−1/b)^2.
 *
 * Exact: integer arithmetic and exact Bernoulli draws only, no floating-point exp or log (Mironov
 * 2012 shows why floating-point Laplace noise leaks). Runs on JS numbers when the numerator and
 * denominator of the scale are below 2^53 (the fast path used for histograms), bigint otherwise.
 * Expected cost: a few 32-bit words per draw. Throws RangeError for scale <= 0, or when a draw
 * would exceed Number.MAX_SAFE_INTEGER.
 *
 * Example: `makeDiscreteLaplaceSampler(Rational.of(2))(rng)` adds noise for ε = 1 to a count with
 * L1 sensitivity 2.
 */
export function makeDiscreteLaplaceSampler(scale: Rational): (rng: Rng) => number {
  if (!scale.isPositive()) {
    throw new RangeError(`discrete Laplace: scale must be > 0, got ${scale.toString()}`);
  }
  const geometric = makeGeometricExpNegSampler(Rational.ONE.div(scale));
  return (rng) => {
    for (;;) {
      const magnitude = geometric(rng);
      const negative = rng.nextUint32() >>> 31 === 1;
      if (!negative) return magnitude;
      if (magnitude !== 0) return -magnitude;
    }
  };
}

/**
 * A sampler of max(X, 0) for X discrete Laplace with scale b (as {@link makeDiscreteLaplaceSampler}),
 * exactly, for cells whose negative noise is discarded anyway. It follows the same algorithm with
 * the magnitude drawn lazily: Y geometric with ratio q = e^−1/b has P(Y ≥ 1) = q and, given Y ≥ 1,
 * Y − 1 is again geometric with ratio q (memorylessness). So one attempt draws the coin B and
 * C = [Y ≥ 1] ~ Bernoulli(q); B = 0 gives Y⁺ (0 if C = 0, else 1 + a geometric draw); B = 1 gives a
 * negative value (positive part 0) if C = 1 and the rejected pair (B = 1, Y = 0) if C = 0, which
 * restarts. Then P(0) = 1/(1 + q) and P(k) = (1 − q)/(1 + q) · q^k for k ≥ 1, the positive part of
 * the discrete Laplace law. C costs one random word (makeBernoulliExpNegWordSampler), coins come 32
 * to a word, and the geometric draw, needed for about q/(1 + q) of the calls, counts successes of
 * C when q ≤ 3/4 (at most 4 words expected) and uses the geometric sampler otherwise.
 * Throws RangeError for scale <= 0.
 */
export function makeDiscreteLaplacePositivePartSampler(scale: Rational): (rng: Rng) => number {
  if (!scale.isPositive()) {
    throw new RangeError(`discrete Laplace: scale must be > 0, got ${scale.toString()}`);
  }
  const gamma = Rational.ONE.div(scale);
  const atLeastOne = makeBernoulliExpNegWordSampler(gamma.num, gamma.den);
  // q = e^−γ < 3/4 ⇔ γ > ln(4/3) ≈ 0.2877; γ ≥ 3/10 settles it without the series, which is slow for large γ.
  const ratioAtMostThreeQuarters =
    gamma.num * 10n >= gamma.den * 3n || floorExpNegScaled(gamma.num, gamma.den, 2) < 3n;
  const slowGeometric = makeGeometricExpNegSampler(gamma);
  const geometric = ratioAtMostThreeQuarters
    ? (rng: Rng) => {
        let successes = 0;
        while (atLeastOne(rng)) successes++;
        return successes;
      }
    : slowGeometric;
  let coinSource: Rng | null = null;
  let coins = 0;
  let coinsLeft = 0;
  return (rng) => {
    for (;;) {
      if (coinSource !== rng || coinsLeft === 0) {
        coinSource = rng;
        coins = rng.nextUint32();
        coinsLeft = 32;
      }
      const negative = (coins & 1) === 1;
      coins >>>= 1;
      coinsLeft--;
      const positiveMagnitude = atLeastOne(rng);
      if (!negative) return positiveMagnitude ? 1 + geometric(rng) : 0;
      if (positiveMagnitude) return 0;
    }
  };
}
