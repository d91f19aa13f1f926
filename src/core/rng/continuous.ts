import { sampleLogGammaVariate } from './log-gamma-variate';
import { stdlibSamplersFor } from './stdlib-samplers';
import type { Rng } from './types';

// Floating-point samplers for post-processing (synthesis from DP statistics, Bayesian draws).
// They are never privacy noise: that is discrete and exact (DESIGN.md rule 4).

export { sampleBinomial } from './binomial';
export { sampleMultinomial } from './multinomial';
export { sampleDirichlet } from './dirichlet';
export { sampleWishart, sampleInverseWishart } from './wishart';

/**
 * Normal(mean, sd²) by the improved ziggurat method (Doornik 2005, via @stdlib/random-base-normal).
 * sd = 0 returns mean. Throws RangeError for non-finite mean or sd < 0.
 */
export function sampleNormal(rng: Rng, mean: number, sd: number): number {
  checkNormalParameters(mean, sd);
  return sd === 0 ? mean : stdlibSamplersFor(rng).normal(mean, sd);
}

/**
 * The cached normal generator bound to `rng`, for hot loops: `(mean, sd) => draw`, sd > 0
 * (no argument checks; stdlib returns NaN for sd <= 0).
 */
export function makeNormalSampler(rng: Rng): (mean: number, sd: number) => number {
  return stdlibSamplersFor(rng).normal;
}

/**
 * Gamma(shape k, scale θ), density x^(k−1) e^(−x/θ) / (Γ(k) θ^k), mean kθ (Marsaglia & Tsang,
 * "A simple method for generating gamma variables", ACM TOMS 26(3), 2000; shape < 1 by their
 * U^(1/k) boost; via @stdlib/random-base-gamma, which takes the rate 1/θ).
 * Throws RangeError unless shape > 0 and scale > 0 are finite.
 */
export function sampleGamma(rng: Rng, shape: number, scale: number): number {
  checkPositive('sampleGamma', 'shape', shape);
  checkPositive('sampleGamma', 'scale', scale);
  return stdlibSamplersFor(rng).gamma(shape, 1 / scale);
}

/**
 * Beta(a, b), density x^(a−1)(1−x)^(b−1)/B(a, b) on (0, 1), mean a/(a + b), as X/(X + Y) for
 * independent X ~ Gamma(a, 1), Y ~ Gamma(b, 1) (Devroye, Non-Uniform Random Variate Generation,
 * 1986, §IX.4.1), formed from log-gammas as 1/(1 + exp(log Y − log X)) so tiny shapes cannot give
 * 0/0. (@stdlib/random-base-beta 0.2.2 is not used: its symmetric-case method is visibly wrong for
 * a = b in about (1.5, 3), e.g. a Kolmogorov–Smirnov distance of 0.06 from Beta(1.6, 1.6).)
 * Throws RangeError unless a > 0 and b > 0 are finite.
 */
export function sampleBeta(rng: Rng, a: number, b: number): number {
  checkPositive('sampleBeta', 'a', a);
  checkPositive('sampleBeta', 'b', b);
  const logX = sampleLogGammaVariate(rng, a);
  const logY = sampleLogGammaVariate(rng, b);
  return 1 / (1 + Math.exp(logY - logX));
}

/**
 * Inverse-gamma(shape α, scale β): density β^α x^(−α−1) e^(−β/x) / Γ(α), mean β/(α − 1) for α > 1;
 * drawn as 1/G with G ~ Gamma(shape α, scale 1/β) (Gelman et al., Bayesian Data Analysis, 3rd ed.,
 * Appendix A). Throws RangeError unless shape > 0 and scale > 0 are finite.
 */
export function sampleInverseGamma(rng: Rng, shape: number, scale: number): number {
  checkPositive('sampleInverseGamma', 'shape', shape);
  checkPositive('sampleInverseGamma', 'scale', scale);
  return 1 / stdlibSamplersFor(rng).gamma(shape, scale);
}

function checkPositive(fn: string, name: string, value: number): void {
  if (!(Number.isFinite(value) && value > 0)) {
    throw new RangeError(`${fn}: ${name} must be a finite number > 0, got ${String(value)}`);
  }
}

function checkNormalParameters(mean: number, sd: number): void {
  if (!Number.isFinite(mean)) throw new RangeError(`sampleNormal: mean must be finite, got ${String(mean)}`);
  if (!(Number.isFinite(sd) && sd >= 0)) {
    throw new RangeError(`sampleNormal: sd must be a finite number >= 0, got ${String(sd)}`);
  }
}
