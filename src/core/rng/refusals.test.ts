import { describe, expect, it } from 'vitest';
import { sampleBernoulliExpNeg } from './bernoulli-exp-neg';
import { sampleBernoulliRational } from './bernoulli-rational';
import { sampleBinomial } from './binomial';
import { sampleBeta, sampleGamma, sampleInverseGamma, sampleNormal } from './continuous';
import { sampleDirichlet } from './dirichlet';
import { integerSquareRoot, makeDiscreteGaussianSampler } from './discrete-gaussian';
import { makeDiscreteLaplacePositivePartSampler, makeDiscreteLaplaceSampler } from './discrete-laplace';
import { floorExpNegScaled } from './exp-neg-expansion';
import { sampleExponentialMechanism, sampleExponentialMechanismBig } from './exponential-mechanism';
import { makeGeometricExpNegSampler } from './geometric-exp-neg';
import { sampleMultinomial } from './multinomial';
import { parseRational, Rational } from './rational';
import { SeededRng } from './seeded-rng';
import { uniformBigInt, uniformInt } from './uniform-int';
import { sampleInverseWishart, sampleWishart } from './wishart';

// Samplers refuse parameters outside their range with a RangeError that names the sampler, the
// parameter and the value (rng/README.md). Several refusals could otherwise come from deeper down
// (a Rational division by zero, a nested check): the message pins which check fired. Each case
// draws nothing before it throws, so a generator that is never called is enough.

const rng = new SeededRng('refusals');
const identity2 = [
  [1, 0],
  [0, 1],
];

describe('samplers name the parameter they refuse', () => {
  const cases: [string, () => unknown, string][] = [
    [
      'Bernoulli(exp(−γ)), γ < 0',
      () => sampleBernoulliExpNeg(rng, Rational.of(-1, 2)),
      'sampleBernoulliExpNeg: gamma must be >= 0, got -1/2',
    ],
    [
      'Bernoulli(num/den), num > den',
      () => sampleBernoulliRational(rng, 3n, 2n),
      'sampleBernoulliRational: need 0 <= num <= den and den >= 1, got 3/2',
    ],
    ['Bernoulli(num/den), den = 0', () => sampleBernoulliRational(rng, 0n, 0n), 'got 0/0'],
    ['Bernoulli(num/den), num < 0', () => sampleBernoulliRational(rng, -1n, 2n), 'got -1/2'],
    [
      'binomial, n = 2.5',
      () => sampleBinomial(rng, 2.5, 0.5),
      'sampleBinomial: n must be a safe integer >= 0, got 2.5',
    ],
    [
      'binomial, n = −1',
      () => sampleBinomial(rng, -1, 0.5),
      'sampleBinomial: n must be a safe integer >= 0, got -1',
    ],
    ['binomial, p = 1.5', () => sampleBinomial(rng, 10, 1.5), 'sampleBinomial: p must be in [0, 1], got 1.5'],
    ['binomial, p < 0', () => sampleBinomial(rng, 10, -0.1), 'sampleBinomial: p must be in [0, 1], got -0.1'],
    [
      'normal, mean = ∞',
      () => sampleNormal(rng, Infinity, 1),
      'sampleNormal: mean must be finite, got Infinity',
    ],
    [
      'normal, sd < 0',
      () => sampleNormal(rng, 0, -1),
      'sampleNormal: sd must be a finite number >= 0, got -1',
    ],
    [
      'normal, sd = ∞',
      () => sampleNormal(rng, 0, Infinity),
      'sampleNormal: sd must be a finite number >= 0, got Infinity',
    ],
    ['gamma, shape 0', () => sampleGamma(rng, 0, 1), 'sampleGamma: shape must be a finite number > 0, got 0'],
    [
      'gamma, scale ∞',
      () => sampleGamma(rng, 1, Infinity),
      'sampleGamma: scale must be a finite number > 0, got Infinity',
    ],
    ['beta, a < 0', () => sampleBeta(rng, -1, 1), 'sampleBeta: a must be a finite number > 0, got -1'],
    [
      'beta, b = NaN',
      () => sampleBeta(rng, 1, Number.NaN),
      'sampleBeta: b must be a finite number > 0, got NaN',
    ],
    [
      'inverse gamma, shape < 0',
      () => sampleInverseGamma(rng, -1, 1),
      'sampleInverseGamma: shape must be a finite number > 0, got -1',
    ],
    [
      'inverse gamma, scale 0',
      () => sampleInverseGamma(rng, 1, 0),
      'sampleInverseGamma: scale must be a finite number > 0, got 0',
    ],
    ['Dirichlet, no categories', () => sampleDirichlet(rng, []), 'sampleDirichlet: alpha must not be empty'],
    [
      'Dirichlet, α = ∞',
      () => sampleDirichlet(rng, [1, Infinity]),
      'sampleDirichlet: alpha[1] must be a finite number > 0, got Infinity',
    ],
    [
      'Dirichlet, α = 0',
      () => sampleDirichlet(rng, [0, 1]),
      'sampleDirichlet: alpha[0] must be a finite number > 0, got 0',
    ],
    [
      'discrete Gaussian, σ² = 0',
      () => makeDiscreteGaussianSampler(Rational.ZERO),
      'discrete Gaussian: sigma2 must be > 0, got 0',
    ],
    ['integer square root of −1', () => integerSquareRoot(-1n), 'integerSquareRoot: negative input -1'],
    [
      'discrete Laplace, t = 0',
      () => makeDiscreteLaplaceSampler(Rational.ZERO),
      'discrete Laplace: scale must be > 0, got 0',
    ],
    [
      'discrete Laplace, t < 0',
      () => makeDiscreteLaplaceSampler(Rational.of(-2)),
      'discrete Laplace: scale must be > 0, got -2',
    ],
    [
      'positive part, t = 0',
      () => makeDiscreteLaplacePositivePartSampler(Rational.ZERO),
      'discrete Laplace: scale must be > 0, got 0',
    ],
    [
      'floor(2^bits·e^(−s/t)), s < 0',
      () => floorExpNegScaled(-1n, 1n, 8),
      'floorExpNegScaled: need s ≥ 0 and t ≥ 1, got -1/1',
    ],
    [
      'floor(2^bits·e^(−s/t)), t = 0',
      () => floorExpNegScaled(1n, 0n, 8),
      'floorExpNegScaled: need s ≥ 0 and t ≥ 1, got 1/0',
    ],
    [
      'exponential mechanism, no candidate',
      () => sampleExponentialMechanism(rng, [], Rational.ONE, 1),
      'sampleExponentialMechanism: there must be at least one candidate',
    ],
    [
      'exponential mechanism, Δ = 0',
      () => sampleExponentialMechanism(rng, [1], Rational.ONE, 0),
      'sampleExponentialMechanism: the sensitivity must be a positive whole number, got 0',
    ],
    [
      'exponential mechanism, Δ = 1.5',
      () => sampleExponentialMechanism(rng, [1], Rational.ONE, 1.5),
      'the sensitivity must be a positive whole number, got 1.5',
    ],
    [
      'exponential mechanism, ε < 0',
      () => sampleExponentialMechanism(rng, [1], Rational.of(-1), 1),
      'sampleExponentialMechanism: ε must be >= 0, got -1',
    ],
    [
      'exponential mechanism, score 0.5',
      () => sampleExponentialMechanism(rng, [1, 0.5], Rational.ONE, 1),
      'sampleExponentialMechanism: score 1 must be a safe integer, got 0.5',
    ],
    [
      'bigint exponential mechanism, no candidate',
      () => sampleExponentialMechanismBig(rng, [], Rational.ONE, 1n),
      'sampleExponentialMechanismBig: there must be at least one candidate',
    ],
    [
      'bigint exponential mechanism, Δ = 0',
      () => sampleExponentialMechanismBig(rng, [1n], Rational.ONE, 0n),
      'sampleExponentialMechanismBig: the sensitivity must be a positive whole number, got 0',
    ],
    [
      'bigint exponential mechanism, ε < 0',
      () => sampleExponentialMechanismBig(rng, [1n], Rational.of(-1), 1n),
      'sampleExponentialMechanismBig: ε must be >= 0, got -1',
    ],
    [
      'geometric, γ = 0',
      () => makeGeometricExpNegSampler(Rational.ZERO),
      'geometric sampler: gamma must be > 0, got 0',
    ],
    [
      'multinomial, n = −1',
      () => sampleMultinomial(rng, -1, [1]),
      'sampleMultinomial: n must be a safe integer >= 0, got -1',
    ],
    [
      'multinomial, weight −1',
      () => sampleMultinomial(rng, 3, [1, -1]),
      'sampleMultinomial: weight 1 must be finite and >= 0, got -1',
    ],
    [
      'multinomial, weight ∞',
      () => sampleMultinomial(rng, 3, [Infinity]),
      'sampleMultinomial: weight 0 must be finite and >= 0, got Infinity',
    ],
    [
      'multinomial, all weights 0',
      () => sampleMultinomial(rng, 3, [0, 0]),
      'sampleMultinomial: all weights are zero but n > 0',
    ],
    [
      'multinomial, weights summing to ∞',
      () => sampleMultinomial(rng, 3, [Number.MAX_VALUE, Number.MAX_VALUE]),
      'sampleMultinomial: the weights sum to Infinity',
    ],
    [
      'uniform integer, n = 0',
      () => uniformInt(rng, 0),
      'uniformInt: n must be an integer in [1, 2^32], got 0',
    ],
    [
      'uniform integer, n = 2^32 + 1',
      () => uniformInt(rng, 2 ** 32 + 1),
      'uniformInt: n must be an integer in [1, 2^32], got 4294967297',
    ],
    ['uniform bigint, n = 0', () => uniformBigInt(rng, 0n), 'uniformBigInt: n must be >= 1, got 0'],
    [
      'Wishart, df = p − 1',
      () => sampleWishart(rng, 1, identity2),
      'sampleWishart: df must be a finite number > p − 1 = 1, got 1',
    ],
    [
      'inverse Wishart, df = ∞',
      () => sampleInverseWishart(rng, Infinity, identity2),
      'sampleInverseWishart: df must be a finite number > p − 1 = 1, got Infinity',
    ],
    [
      'seeded generator, seed NaN',
      () => new SeededRng(Number.NaN),
      'SeededRng: seed must be a finite number or a string, got NaN',
    ],
    [
      'generator state all zero',
      () => SeededRng.fromState(0, 0, 0, 0),
      'SeededRng.fromState: need four 32-bit words, not all zero, got 0, 0, 0, 0',
    ],
    ['generator state word 2^32', () => SeededRng.fromState(1, 2, 3, 2 ** 32), 'got 1, 2, 3, 4294967296'],
    ['generator state word −1', () => SeededRng.fromState(-1, 2, 3, 4), 'got -1, 2, 3, 4'],
  ];
  for (const [what, call, message] of cases) {
    it(what, () => {
      expect(call).toThrow(RangeError);
      expect(call).toThrow(message);
    });
  }

  it('accepts the edges of the ranges', () => {
    expect(sampleBernoulliRational(rng, 0n, 1n)).toBe(false);
    expect(sampleBernoulliRational(rng, 5n, 5n)).toBe(true);
    expect(sampleBernoulliExpNeg(rng, Rational.ZERO)).toBe(true);
    expect(sampleBinomial(rng, 0, 0.5)).toBe(0);
    expect(sampleBinomial(rng, 7, 1)).toBe(7);
    expect(sampleBinomial(rng, 7, 0)).toBe(0);
    expect(sampleNormal(rng, 3, 0)).toBe(3);
    expect(Array.from(sampleMultinomial(rng, 0, [0, 0]))).toEqual([0, 0]);
    expect(Array.from(sampleMultinomial(rng, 4, [0, 2, 0]))).toEqual([0, 4, 0]);
    expect(uniformInt(rng, 1)).toBe(0);
    expect(uniformBigInt(rng, 1n)).toBe(0n);
    expect(integerSquareRoot(0n)).toBe(0n);
    expect(sampleExponentialMechanism(rng, [5], Rational.ZERO, 1)).toBe(0);
    expect(() => SeededRng.fromState(0, 0, 0, 1)).not.toThrow();
  });
});

describe('rationals name what they refuse', () => {
  const cases: [string, () => unknown, string][] = [
    ['zero denominator', () => Rational.of(1, 0), 'Rational.of: zero denominator (1/0)'],
    [
      'decimal numerator',
      () => Rational.of(0.5),
      'Rational.of: numerator must be an integer, got 0.5 (use parseRational for decimals)',
    ],
    [
      'decimal denominator',
      () => Rational.of(1, 2.5),
      'Rational.of: denominator must be an integer, got 2.5',
    ],
    ['division by zero', () => Rational.of(3, 4).div(Rational.ZERO), 'Rational.div: division of 3/4 by zero'],
    [
      'a number that is not finite',
      () => parseRational(Infinity),
      'parseRational: "Infinity" is not a finite number',
    ],
    ['a fraction over zero', () => parseRational('1/0'), 'parseRational: zero denominator in "1/0"'],
    [
      'text that is not a number',
      () => parseRational('one'),
      'parseRational: cannot parse "one" as a number (expected e.g. "0.1", "1e-3" or "1/3")',
    ],
    ['a sign alone', () => parseRational('-'), 'parseRational: cannot parse "-" as a number'],
    [
      'an exponent too large',
      () => parseRational('1e100001'),
      'parseRational: exponent out of range in "1e100001"',
    ],
  ];
  for (const [what, call, message] of cases) {
    it(what, () => {
      expect(call).toThrow(RangeError);
      expect(call).toThrow(message);
    });
  }

  it('accepts the largest decimal exponent', () => {
    expect(parseRational('1e-100000').den).toBe(10n ** 100000n);
  });
});
