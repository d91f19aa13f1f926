import { describe, expect, it } from 'vitest';
import { parseRational, Rational } from '../../rng/rational';
import { SeededRng } from '../../rng/seeded-rng';
import { numericColumn } from '../common/testing/fixtures';
import { GRID_STEPS_PER_SENSITIVITY, noisyOnGrid } from '../common/noisy-counts/grid-noise';
import {
  drawNormalColumn,
  drawNormalPosterior,
  normalSensitivities,
  normalStatistics,
  sanitizeNormalStatistics,
} from './normal-model';
import { recordingStep } from '../../privacy/metered/testing';

/** A statistic's ε with a step that records its charges. */
const share = (epsilon: Rational) => ({ epsilon, step: recordingStep('approx-dp') });

function sampleVariance(values: number[]): number {
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  return values.reduce((a, v) => a + (v - mean) ** 2, 0) / (values.length - 1);
}

describe('normal-model sensitivities', () => {
  it('are (c₁ − c₀)/n and (c₁ − c₀)²/n exactly', () => {
    const s = normalSensitivities(40, -3, 4);
    expect(s.mean.toString()).toBe('7/40');
    expect(s.variance.toString()).toBe('49/40');
  });

  it('bound the change of S² over random replace-one neighbours, and the bound is reached', () => {
    const rng = new SeededRng(3);
    const n = 12;
    let largest = 0;
    for (let trial = 0; trial < 20_000; trial++) {
      const values = Array.from({ length: n }, () =>
        rng.nextFloat() < 0.3 ? Math.round(rng.nextFloat()) : rng.nextFloat(),
      );
      const neighbour = [...values];
      neighbour[trial % n] = rng.nextFloat() < 0.5 ? 0 : 1;
      largest = Math.max(largest, Math.abs(sampleVariance(values) - sampleVariance(neighbour)));
    }
    expect(largest).toBeLessThanOrEqual(1 / n + 1e-12);
    // The extreme case of the derivation: the others all at 0, one value moved from 0 to 1.
    const zeros = new Array<number>(n).fill(0);
    const moved = [...zeros];
    moved[0] = 1;
    expect(Math.abs(sampleVariance(moved) - sampleVariance(zeros))).toBeCloseTo(1 / n, 12);
  });
});

describe('normalStatistics', () => {
  it('counts missing values at the midpoint and clamps values into the bounds', () => {
    const column = numericColumn('x', [0, 10, null, 14]);
    // Clamped to [0, 10], the missing value at 5: values 0, 10, 5, 10.
    const stats = normalStatistics(column, 0, 10);
    expect(stats.missing).toBe(1);
    expect(stats.mean).toBeCloseTo(6.25, 12);
    expect(stats.meanAboveLower).toBeCloseTo(6.25, 12);
    expect(stats.variance).toBeCloseTo(sampleVariance([0, 10, 5, 10]), 12);
  });
});

describe('normalStatistics far from zero', () => {
  it('keeps x̄ − c₀ exact to well below a grid step when the bounds are near 10^9', () => {
    // Values 10^9 + {0, 0.25, 0.5, 0.75}: x̄ − c₀ = 0.375 exactly, while 10^9 + 0.375 as a double
    // already carries 6e−8 of rounding, i.e. 24 grid steps of (c₁ − c₀)/(100·n) for n = 4·10^4.
    const lo = 1e9;
    const values = Array.from({ length: 40_000 }, (_, i) => lo + (i % 4) * 0.25);
    const stats = normalStatistics(numericColumn('x', values), lo, lo + 1);
    expect(Math.abs(stats.meanAboveLower - 0.375)).toBeLessThan(1e-12);
  });
});

describe('noisyOnGrid', () => {
  it('returns grid multiples with the discrete Laplace variance of scale (G + 1)/ε grid steps', () => {
    const rng = new SeededRng(5);
    // A mean of 100 values in [0, 1]: sensitivity 1/100, grid 1e−4.
    const mean100 = { kind: 'clipped-mean', lower: Rational.ZERO, upper: Rational.ONE, rows: 100 } as const;
    const step = 1e-4;
    const metered = recordingStep('approx-dp');
    const draws = Array.from({ length: 20_000 }, () =>
      noisyOnGrid(metered, mean100, 0.42, Rational.ONE, rng),
    );
    // Each draw charges ε = (G + 1)/((G + 1)/ε) = 1.
    expect(metered.charges.every((c) => c.notion === 'approx-dp' && c.epsilon.equals(Rational.ONE))).toBe(
      true,
    );
    for (const d of draws.slice(0, 100)) expect(Math.abs(d / step - Math.round(d / step))).toBeLessThan(1e-6);
    const t = GRID_STEPS_PER_SENSITIVITY + 1;
    const q = Math.exp(-1 / t);
    const variance = ((2 * q) / (1 - q) ** 2) * step ** 2;
    const mean = draws.reduce((a, b) => a + b, 0) / draws.length;
    // Mean within 5 SD of 0.42; the sample variance within 10 % (its relative SD is about 2 % here).
    expect(Math.abs(mean - 0.42)).toBeLessThan(5 * Math.sqrt(variance / draws.length));
    expect(Math.abs(sampleVariance(draws) / variance - 1)).toBeLessThan(0.1);
  });
});

describe('sanitize and draw', () => {
  it('clamps sanitized statistics into their ranges', () => {
    const rng = new SeededRng(6);
    const tiny = parseRational('1e-6');
    for (let i = 0; i < 50; i++) {
      const s = sanitizeNormalStatistics(
        rng,
        { missing: 0, mean: 0.5, meanAboveLower: 0.5, variance: 0.1 },
        10,
        0,
        1,
        { missing: share(tiny), mean: share(tiny), variance: share(tiny) },
      );
      expect(s.missing).toBeGreaterThanOrEqual(0);
      expect(s.missing).toBeLessThanOrEqual(10);
      expect(s.mean >= 0 && s.mean <= 1).toBe(true);
      expect(s.variance >= 0 && s.variance <= (1 / 4) * (10 / 9)).toBe(true);
    }
  });

  it('refuses missing values without a budget for their count', () => {
    const rng = new SeededRng(6);
    expect(() =>
      sanitizeNormalStatistics(rng, { missing: 2, mean: 0.5, meanAboveLower: 0.5, variance: 0.1 }, 10, 0, 1, {
        missing: null,
        mean: share(Rational.ONE),
        variance: share(Rational.ONE),
      }),
    ).toThrow(/missing values present/);
  });

  it('draws μ* and σ²* around the statistics of the observed values, missing ones removed by the mixture', () => {
    // Observed part: mean 2, variance 1, 20 % missing counted at the midpoint c = 5 of [0, 10].
    const n = 10_000;
    const q = 0.2;
    const mean = (1 - q) * 2 + q * 5;
    const population = (1 - q) * 1 + q * (1 - q) * (2 - 5) ** 2;
    const sanitized = { missing: q * n, mean, meanAboveLower: mean, variance: (population * n) / (n - 1) };
    const rng = new SeededRng(8);
    let sumMean = 0;
    let sumVariance = 0;
    const draws = 2000;
    for (let i = 0; i < draws; i++) {
      const p = drawNormalPosterior(rng, sanitized, n, 0, 10, 1e-9);
      sumMean += p.mean;
      sumVariance += p.variance;
    }
    // Posterior SD of μ is about √(1/8000) = 0.011 and of σ² about √(2/8000) = 0.016; the means of
    // 2000 draws are within 5·SD/√2000 of 2 and of 1·(n_o − 1)/(n_o − 3) ≈ 1.
    expect(Math.abs(sumMean / draws - 2)).toBeLessThan((5 * 0.0112) / Math.sqrt(draws));
    expect(Math.abs(sumVariance / draws - 1)).toBeLessThan((5 * 0.016) / Math.sqrt(draws) + 3e-4);
  });

  it('makes columns within the bounds, whole when integer, with exactly the missing count', () => {
    const rng = new SeededRng(9);
    const column = drawNormalColumn(rng, 'age', { mean: 20, variance: 400 }, 500, 37, 17, 90, true);
    let missing = 0;
    for (let i = 0; i < 500; i++) {
      if (column.missing[i] === 1) {
        missing++;
        expect(Number.isNaN(column.values[i])).toBe(true);
      } else {
        expect(Number.isInteger(column.values[i]) && column.values[i]! >= 17 && column.values[i]! <= 90).toBe(
          true,
        );
      }
    }
    expect(missing).toBe(37);
  });
});
