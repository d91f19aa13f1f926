import { describe, expect, it } from 'vitest';
import { kolmogorovSurvival } from './kolmogorov';
import { kolmogorovSmirnovOneSample } from './kolmogorov-smirnov-one-sample';

describe('Kolmogorov distribution', () => {
  it('matches scipy 1.17 kstwobign.sf on both branches to a relative 1e−12', () => {
    const cases: [number, number][] = [
      [0.3, 0.9999906941986655],
      [0.6, 0.8642827790506042],
      [0.9, 0.3927307079406543],
      [1.0, 0.26999967167735456],
      [1.2, 0.11224966667072497],
      [1.3580986393225505, 0.050000000000000024],
      [2, 0.0006709252557796953],
      [3, 3.045995948942526e-8],
    ];
    for (const [lambda, sf] of cases) {
      expect(Math.abs(kolmogorovSurvival(lambda) - sf) / sf, `λ = ${lambda}`).toBeLessThan(1e-12);
    }
    expect(kolmogorovSurvival(0)).toBe(1);
    expect(() => kolmogorovSurvival(NaN)).toThrow(RangeError);
  });
});

describe('one-sample Kolmogorov–Smirnov test', () => {
  it('computes D_n by hand for a small sample', () => {
    // Sample {0.1, 0.5, 0.8} against U(0, 1): the gaps are
    // max(1/3 − 0.1, 0.1 − 0, 2/3 − 0.5, 0.5 − 1/3, 1 − 0.8, 0.8 − 2/3) = 0.2333….
    const result = kolmogorovSmirnovOneSample([0.8, 0.1, 0.5], (x) => x);
    expect(result.statistic).toBeCloseTo(0.7 / 3, 15);
    expect(result.sampleSize).toBe(3);
  });

  it('gives a p-value within the accuracy of Stephens’ approximation of the exact one', () => {
    // x_i = ((i + 0.5)/50)^1.5, i = 0 … 49, against U(0, 1). scipy 1.17:
    //   stats.kstest(x, 'uniform', method='exact') → D = 0.1581308230375284, p = 0.1471143594239397.
    // Stephens' corrected asymptotic p is 0.14888 here (within 0.002 of exact for n ≥ 35);
    // without the correction, Q_K(√n·D) = 0.164, off by 0.017.
    const sample = Array.from({ length: 50 }, (_, i) => ((i + 0.5) / 50) ** 1.5);
    const result = kolmogorovSmirnovOneSample(sample, (x) => x);
    expect(result.statistic).toBeCloseTo(0.1581308230375284, 14);
    expect(Math.abs(result.pValue - 0.1471143594239397)).toBeLessThan(0.003);
  });

  it('measures the largest gap for evenly spread points against a right and a wrong CDF', () => {
    // 200 evenly spread points (i + 0.5)/200 against U(0, 1): D = 0.0025 exactly; against
    // the CDF x^1.2 the largest gap is at the lower end.
    const sample = Array.from({ length: 200 }, (_, i) => (i + 0.5) / 200);
    expect(kolmogorovSmirnovOneSample(sample, (x) => x).statistic).toBeCloseTo(0.0025, 15);
    const shifted = kolmogorovSmirnovOneSample(sample, (x) => x ** 1.2);
    // Max_x |x − x^1.2| = 0.0669 at x = (1/1.2)^5 = 0.4019, shifted by at most 1/(2n).
    expect(Math.abs(shifted.statistic - 0.0669)).toBeLessThan(0.0026);
    expect(() => kolmogorovSmirnovOneSample([], (x) => x)).toThrow(RangeError);
    expect(() => kolmogorovSmirnovOneSample([NaN], (x) => x)).toThrow(/NaN/);
  });
});
