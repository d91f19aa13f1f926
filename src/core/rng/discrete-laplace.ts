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
