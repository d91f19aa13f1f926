import { describe, expect, it } from 'vitest';
import { regularizedIncompleteBeta } from '../stats/regularized-incomplete-beta';
import { sampleDirichlet } from './dirichlet';
import { SeededRng } from './seeded-rng';
import { fitContinuous, ksPowerMargin, linearGrid } from './testing/continuous-fit';

const ALPHA = 1e-6;

describe('sampleDirichlet', () => {
  const alpha = [0.3, 1, 2.5, 0.05];
  const total = alpha.reduce((s, a) => s + a, 0);

  it('has mean α_i/α₀ per component (5 sd of the mean over 20,000 draws) and sums to 1', () => {
    // Var x_i = α_i(α₀ − α_i)/(α₀²(α₀ + 1)) (e.g. Kotz, Balakrishnan & Johnson, Continuous
    // Multivariate Distributions, 2000, §49.1); the mean of R draws has sd √(Var/R).
    const reps = 20_000;
    const rng = new SeededRng('dirichlet moments');
    const sums = new Float64Array(alpha.length);
    let worstSumError = 0;
    for (let r = 0; r < reps; r++) {
      const x = sampleDirichlet(rng, alpha);
      let sum = 0;
      for (let i = 0; i < alpha.length; i++) {
        sums[i] += x[i];
        sum += x[i];
      }
      worstSumError = Math.max(worstSumError, Math.abs(sum - 1));
    }
    expect(worstSumError).toBeLessThan(1e-12);
    alpha.forEach((a, i) => {
      const variance = (a * (total - a)) / (total * total * (total + 1));
      const tolerance = 5 * Math.sqrt(variance / reps);
      expect(Math.abs(sums[i] / reps - a / total), `component ${i}`).toBeLessThanOrEqual(tolerance);
    });
  });

  it('has Beta(α_i, α₀ − α_i) marginals (Kolmogorov–Smirnov, α = 1e−6) and the test rejects a wrong α', () => {
    const rng = new SeededRng('dirichlet marginal');
    const marginalCdf = (x: number) =>
      x <= 0 ? 0 : x >= 1 ? 1 : regularizedIncompleteBeta(x, 2.5, total - 2.5);
    const fit = fitContinuous(() => sampleDirichlet(rng, alpha)[2], 30_000, marginalCdf);
    expect(fit.pValue, `D = ${fit.statistic}`).toBeGreaterThan(ALPHA);
    // α₂ × 1.3 moves the marginal CDF by up to 0.108 (scipy beta.cdf): √N·0.108 ≈ 19 >> 2·2.68.
    const wrong = fitContinuous(() => sampleDirichlet(rng, [0.3, 1, 3.25, 0.05])[2], 30_000, marginalCdf);
    expect(wrong.pValue, `D = ${wrong.statistic}`).toBeLessThan(ALPHA);
    // α₂ × 0.7 = 1.75: the marginal becomes Beta(1.75, 3.1 − 1.75); the power margin is computed, not cited.
    const smallerCdf = (x: number) => (x <= 0 ? 0 : x >= 1 ? 1 : regularizedIncompleteBeta(x, 1.75, 1.35));
    expect(ksPowerMargin(marginalCdf, smallerCdf, linearGrid(0, 1, 500), 30_000, ALPHA)).toBeGreaterThan(1.1);
    const smaller = fitContinuous(() => sampleDirichlet(rng, [0.3, 1, 1.75, 0.05])[2], 30_000, marginalCdf);
    expect(smaller.pValue, `D = ${smaller.statistic}`).toBeLessThan(ALPHA);
  });

  it('stays finite for tiny α and validates α', () => {
    const rng = new SeededRng('tiny');
    for (let r = 0; r < 200; r++) {
      const x = sampleDirichlet(rng, [1e-3, 1e-3, 1e-3]);
      expect(x.every((v) => Number.isFinite(v) && v >= 0)).toBe(true);
      expect(Math.abs(x[0] + x[1] + x[2] - 1)).toBeLessThan(1e-12);
    }
    expect(() => sampleDirichlet(rng, [])).toThrow(/must not be empty/);
    expect(() => sampleDirichlet(rng, [1, 0])).toThrow(/alpha\[1\]/);
    expect(() => sampleDirichlet(rng, [1, Infinity])).toThrow(RangeError);
  });
});
