import { describe, expect, it } from 'vitest';
import { chiSquareCdf, chiSquareQuantile, chiSquareSurvival, chiSquareUpperQuantile } from './chi-square';
import { relativeError } from '../testing/expect-close';

describe('chi-square distribution', () => {
  it('CDF and survival match scipy 1.17 (chi2.cdf, chi2.sf) to a relative 1e−13', () => {
    const cases: [number, number, number, number][] = [
      [10, 5, 0.9247647538534878, 0.07523524614651217],
      [100, 80, 0.935429631078867, 0.064570368921133],
      [300, 200, 0.9999940754596646, 5.924540335483916e-6],
      [1e-3, 4, 1.2495834114479173e-7, 0.9999998750416589],
      [50, 3, 0.9999999999201082, 7.989179244951495e-11],
    ];
    for (const [x, k, cdf, sf] of cases) {
      expect(relativeError(chiSquareCdf(x, k), cdf), `cdf(${x}, ${k})`).toBeLessThan(1e-13);
      expect(relativeError(chiSquareSurvival(x, k), sf), `sf(${x}, ${k})`).toBeLessThan(1e-12);
    }
    expect([chiSquareCdf(-1, 3), chiSquareSurvival(0, 3)]).toEqual([0, 1]);
  });

  it('quantiles match scipy (chi2.ppf, chi2.isf) to a relative 1e−12', () => {
    const lower: [number, number, number][] = [
      [0.95, 1, 3.841458820694124],
      [0.5, 10, 9.34181776559197],
      [1e-6, 3, 0.00024181048720124264],
      [0.999999, 30, 82.044143136957],
      [0.01, 200, 156.43196610759165],
    ];
    for (const [p, k, x] of lower)
      expect(relativeError(chiSquareQuantile(p, k), x), `ppf(${p}, ${k})`).toBeLessThan(1e-12);
    const upper: [number, number, number][] = [
      [1e-6, 30, 82.04414313704284],
      [1e-12, 5, 65.23863621336784],
      [0.05, 1, 3.8414588206941285],
    ];
    for (const [a, k, x] of upper) {
      expect(relativeError(chiSquareUpperQuantile(a, k), x), `isf(${a}, ${k})`).toBeLessThan(1e-12);
    }
  });

  it('rejects invalid arguments', () => {
    expect(() => chiSquareCdf(1, 0)).toThrow(/degrees of freedom/);
    expect(() => chiSquareQuantile(1, 3)).toThrow(RangeError);
    expect(() => chiSquareUpperQuantile(0, 3)).toThrow(RangeError);
  });
});
