import { describe, expect, it } from 'vitest';
import { regularizedIncompleteBeta } from '../stats/regularized-incomplete-beta';
import { regularizedGammaP, regularizedGammaQ } from '../stats/regularized-gamma';
import { makeNormalSampler, sampleBeta, sampleGamma, sampleInverseGamma, sampleNormal } from './continuous';
import { SeededRng } from './seeded-rng';
import { fitContinuous, ksPowerMargin, linearGrid, standardNormalCdf } from './testing/continuous-fit';

const ALPHA = 1e-6;
// 50,000 draws per fit. Each family also gets a wrong-parameter sampler (a parameter × 1.3) that
// the same test must reject; ksPowerMargin() asserts √N·sup|G − F| > 2.2·λ_α (λ_α ≈ 2.68), which
// guarantees rejection with probability > 1 − α, so the rejection is not a lucky seed.
const DRAWS = 50_000;

interface Family {
  readonly name: string;
  readonly draw: (rng: SeededRng) => number;
  readonly wrongDraw: (rng: SeededRng) => number;
  readonly cdf: (x: number) => number;
  readonly wrongCdf: (x: number) => number;
  readonly grid: number[];
}

const normalCdf = (mean: number, sd: number) => (x: number) => standardNormalCdf((x - mean) / sd);
const gammaCdf = (shape: number, scale: number) => (x: number) =>
  x <= 0 ? 0 : regularizedGammaP(shape, x / scale);
const inverseGammaCdf = (shape: number, scale: number) => (x: number) =>
  x <= 0 ? 0 : regularizedGammaQ(shape, scale / x);
const betaCdf = (a: number, b: number) => (x: number) =>
  x <= 0 ? 0 : x >= 1 ? 1 : regularizedIncompleteBeta(x, a, b);

const families: Family[] = [
  {
    name: 'normal(3, 2²)',
    draw: (rng) => sampleNormal(rng, 3, 2),
    wrongDraw: (rng) => sampleNormal(rng, 3, 2.6),
    cdf: normalCdf(3, 2),
    wrongCdf: normalCdf(3, 2.6),
    grid: linearGrid(-10, 16, 500),
  },
  {
    name: 'gamma(shape 0.5, scale 2) = χ²(1)',
    draw: (rng) => sampleGamma(rng, 0.5, 2),
    wrongDraw: (rng) => sampleGamma(rng, 0.65, 2),
    cdf: gammaCdf(0.5, 2),
    wrongCdf: gammaCdf(0.65, 2),
    grid: linearGrid(0.001, 10, 500),
  },
  {
    name: 'gamma(shape 3.7, scale 0.5)',
    draw: (rng) => sampleGamma(rng, 3.7, 0.5),
    wrongDraw: (rng) => sampleGamma(rng, 3.7, 0.65),
    cdf: gammaCdf(3.7, 0.5),
    wrongCdf: gammaCdf(3.7, 0.65),
    grid: linearGrid(0.01, 10, 500),
  },
  {
    name: 'beta(0.5, 0.5) (arcsine law)',
    draw: (rng) => sampleBeta(rng, 0.5, 0.5),
    wrongDraw: (rng) => sampleBeta(rng, 0.65, 0.5),
    // Closed form: I_x(½, ½) = (2/π)·arcsin(√x).
    cdf: (x) => (x <= 0 ? 0 : x >= 1 ? 1 : (2 / Math.PI) * Math.asin(Math.sqrt(x))),
    wrongCdf: betaCdf(0.65, 0.5),
    grid: linearGrid(0, 1, 500),
  },
  {
    name: 'beta(1.6, 1.6)',
    draw: (rng) => sampleBeta(rng, 1.6, 1.6),
    wrongDraw: (rng) => sampleBeta(rng, 2.08, 1.6),
    cdf: betaCdf(1.6, 1.6),
    wrongCdf: betaCdf(2.08, 1.6),
    grid: linearGrid(0, 1, 500),
  },
  {
    name: 'beta(2, 5)',
    draw: (rng) => sampleBeta(rng, 2, 5),
    wrongDraw: (rng) => sampleBeta(rng, 2.6, 5),
    cdf: betaCdf(2, 5),
    wrongCdf: betaCdf(2.6, 5),
    grid: linearGrid(0, 1, 500),
  },
  {
    name: 'beta(3, 1)',
    draw: (rng) => sampleBeta(rng, 3, 1),
    wrongDraw: (rng) => sampleBeta(rng, 3.9, 1),
    // Closed form: I_x(a, 1) = x^a.
    cdf: (x) => (x <= 0 ? 0 : x >= 1 ? 1 : x ** 3),
    wrongCdf: (x) => (x <= 0 ? 0 : x >= 1 ? 1 : x ** 3.9),
    grid: linearGrid(0, 1, 500),
  },
  {
    name: 'inverse-gamma(shape 3, scale 2)',
    draw: (rng) => sampleInverseGamma(rng, 3, 2),
    wrongDraw: (rng) => sampleInverseGamma(rng, 3, 2.6),
    cdf: inverseGammaCdf(3, 2),
    wrongCdf: inverseGammaCdf(3, 2.6),
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

    it(`${family.name}: the same test rejects a wrong parameter`, () => {
      expect(ksPowerMargin(family.cdf, family.wrongCdf, family.grid, DRAWS, ALPHA)).toBeGreaterThan(1.1);
      const rng = new SeededRng(`ks wrong ${family.name}`);
      const fit = fitContinuous(() => family.wrongDraw(rng), DRAWS, family.cdf);
      expect(fit.pValue, `D = ${fit.statistic}`).toBeLessThan(ALPHA);
    });
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
