import { describe, expect, it } from 'vitest';
import { regularizedIncompleteBeta } from '../stats/regularized-incomplete-beta';
import { regularizedGammaP, regularizedGammaQ } from '../stats/regularized-gamma';
import { makeNormalSampler, sampleBeta, sampleGamma, sampleInverseGamma, sampleNormal } from './continuous';
import { SeededRng } from './seeded-rng';
import { fitContinuous, ksPowerMargin, linearGrid, standardNormalCdf } from './testing/continuous-fit';

const ALPHA = 1e-6;
// 50,000 draws per fit. Each family also gets wrong-parameter samplers (a parameter × 1.3 and × 0.7) that
// the same test must reject; ksPowerMargin() asserts √N·sup|G − F| > 2.2·λ_α (λ_α ≈ 2.68), which
// guarantees rejection with probability > 1 − α, so the rejection is not a lucky seed.
const DRAWS = 50_000;

interface Family {
  readonly name: string;
  readonly draw: (rng: SeededRng) => number;
  readonly cdf: (x: number) => number;
  /** The same family with its scale-like parameter multiplied by `factor`: sampler and exact CDF. */
  readonly wrong: (factor: number) => { draw: (rng: SeededRng) => number; cdf: (x: number) => number };
  readonly grid: number[];
}

/** The wrong-parameter factors every family must be rejected at (a scale off by ×1.3 or ×0.7). */
const WRONG_FACTORS = [1.3, 0.7];

const normalCdf = (mean: number, sd: number) => (x: number) => standardNormalCdf((x - mean) / sd);
const gammaCdf = (shape: number, scale: number) => (x: number) =>
  x <= 0 ? 0 : regularizedGammaP(shape, x / scale);
const inverseGammaCdf = (shape: number, scale: number) => (x: number) =>
  x <= 0 ? 0 : regularizedGammaQ(shape, scale / x);
const betaCdf = (a: number, b: number) => (x: number) =>
  x <= 0 ? 0 : x >= 1 ? 1 : regularizedIncompleteBeta(x, a, b);

const normal = (mean: number, sd: number) => ({
  draw: (rng: SeededRng) => sampleNormal(rng, mean, sd),
  cdf: normalCdf(mean, sd),
});
const gamma = (shape: number, scale: number) => ({
  draw: (rng: SeededRng) => sampleGamma(rng, shape, scale),
  cdf: gammaCdf(shape, scale),
});
const beta = (a: number, b: number) => ({
  draw: (rng: SeededRng) => sampleBeta(rng, a, b),
  cdf: betaCdf(a, b),
});
const inverseGamma = (shape: number, scale: number) => ({
  draw: (rng: SeededRng) => sampleInverseGamma(rng, shape, scale),
  cdf: inverseGammaCdf(shape, scale),
});

const families: Family[] = [
  { name: 'normal(3, 2²)', ...normal(3, 2), wrong: (f) => normal(3, 2 * f), grid: linearGrid(-10, 16, 500) },
  {
    name: 'gamma(shape 0.5, scale 2) = χ²(1)',
    ...gamma(0.5, 2),
    wrong: (f) => gamma(0.5 * f, 2),
    grid: linearGrid(0.001, 10, 500),
  },
  {
    name: 'gamma(shape 3.7, scale 0.5)',
    ...gamma(3.7, 0.5),
    wrong: (f) => gamma(3.7, 0.5 * f),
    grid: linearGrid(0.01, 10, 500),
  },
  {
    name: 'beta(0.5, 0.5) (arcsine law)',
    draw: (rng) => sampleBeta(rng, 0.5, 0.5),
    // Closed form: I_x(½, ½) = (2/π)·arcsin(√x).
    cdf: (x) => (x <= 0 ? 0 : x >= 1 ? 1 : (2 / Math.PI) * Math.asin(Math.sqrt(x))),
    wrong: (f) => beta(0.5 * f, 0.5),
    grid: linearGrid(0, 1, 500),
  },
  {
    name: 'beta(1.6, 1.6)',
    ...beta(1.6, 1.6),
    wrong: (f) => beta(1.6 * f, 1.6),
    grid: linearGrid(0, 1, 500),
  },
  { name: 'beta(2, 5)', ...beta(2, 5), wrong: (f) => beta(2 * f, 5), grid: linearGrid(0, 1, 500) },
  {
    name: 'beta(3, 1)',
    draw: (rng) => sampleBeta(rng, 3, 1),
    // Closed form: I_x(a, 1) = x^a.
    cdf: (x) => (x <= 0 ? 0 : x >= 1 ? 1 : x ** 3),
    wrong: (f) => beta(3 * f, 1),
    grid: linearGrid(0, 1, 500),
  },
  {
    name: 'inverse-gamma(shape 3, scale 2)',
    ...inverseGamma(3, 2),
    wrong: (f) => inverseGamma(3, 2 * f),
    grid: linearGrid(0.01, 10, 500),
  },
];

describe('continuous samplers (Kolmogorov–Smirnov against exact CDFs, α = 1e−6)', () => {
  for (const family of families) {
    it(`${family.name} fits its CDF`, () => {
      const rng = new SeededRng(`ks ${family.name}`);
      const fit = fitContinuous(() => family.draw(rng), DRAWS, family.cdf);
      expect(fit.pValue, `D = ${fit.statistic}`).toBeGreaterThan(ALPHA);
    });

    for (const factor of WRONG_FACTORS) {
      it(`${family.name}: the same test rejects the parameter × ${factor}`, () => {
        const wrong = family.wrong(factor);
        expect(ksPowerMargin(family.cdf, wrong.cdf, family.grid, DRAWS, ALPHA)).toBeGreaterThan(1.1);
        const rng = new SeededRng(`ks wrong ${factor} ${family.name}`);
        const fit = fitContinuous(() => wrong.draw(rng), DRAWS, family.cdf);
        expect(fit.pValue, `D = ${fit.statistic}`).toBeLessThan(ALPHA);
      });
    }
  }

  it('beta(2, 2) fits with 400,000 draws, enough to expose a method off by 0.007 in CDF', () => {
    // @stdlib/random-base-beta 0.2.2 gives D ≈ 0.0069 here; √N·D = 4.4 > 2.68 = λ at α = 1e−6.
    const rng = new SeededRng('beta 2 2');
    // Closed form: I_x(2, 2) = 3x² − 2x³.
    const fit = fitContinuous(
      () => sampleBeta(rng, 2, 2),
      400_000,
      (x) => (x <= 0 ? 0 : x >= 1 ? 1 : x * x * (3 - 2 * x)),
    );
    expect(fit.pValue, `D = ${fit.statistic}`).toBeGreaterThan(ALPHA);
    expect(fit.statistic).toBeLessThan(0.0069 - 2.68 / Math.sqrt(400_000));
  });

  it('makeNormalSampler draws from the same cached generator as sampleNormal', () => {
    const a = new SeededRng(9);
    const b = new SeededRng(9);
    const fast = makeNormalSampler(b);
    expect(makeNormalSampler(b)).toBe(fast);
    const viaFunction = Array.from({ length: 100 }, () => sampleNormal(a, 1, 3));
    const viaSampler = Array.from({ length: 100 }, () => fast(1, 3));
    expect(viaSampler).toEqual(viaFunction);
  });

  it('is reproducible with a seed and validates parameters', () => {
    const draws = (seed: number) => {
      const rng = new SeededRng(seed);
      return [
        sampleNormal(rng, 0, 1),
        sampleGamma(rng, 2, 1),
        sampleBeta(rng, 2, 2),
        sampleInverseGamma(rng, 2, 1),
      ];
    };
    expect(draws(4)).toEqual(draws(4));
    const rng = new SeededRng(1);
    expect(sampleNormal(rng, 5, 0)).toBe(5);
    expect(() => sampleNormal(rng, 0, -1)).toThrow(/sd must be/);
    expect(() => sampleNormal(rng, NaN, 1)).toThrow(/mean must be finite/);
    expect(() => sampleGamma(rng, 0, 1)).toThrow(/shape must be/);
    expect(() => sampleGamma(rng, 1, Infinity)).toThrow(/scale must be/);
    expect(() => sampleBeta(rng, 1, -1)).toThrow(/b must be/);
    expect(() => sampleInverseGamma(rng, -1, 1)).toThrow(RangeError);
  });
});
