import { describe, expect, it } from 'vitest';
import { logGamma } from '../stats/log-gamma';
import { sampleBinomial } from './binomial';
import { SeededRng } from './seeded-rng';
import { fitDraws, powerAgainst, tabulatePmf } from './testing/distribution-fit';

const ALPHA = 1e-6;

/** Binomial pmf C(n, k) p^k (1 − p)^(n−k) in logs, over the k where it is not negligible. */
function binomialPmf(n: number, p: number) {
  const mean = n * p;
  const sd = Math.sqrt(n * p * (1 - p));
  const lo = Math.max(0, Math.floor(mean - 15 * sd - 5));
  const hi = Math.min(n, Math.ceil(mean + 15 * sd + 5));
  const logChoose = (k: number) => logGamma(n + 1) - logGamma(k + 1) - logGamma(n - k + 1);
  return tabulatePmf(lo, hi, (k) => Math.exp(logChoose(k) + k * Math.log(p) + (n - k) * Math.log1p(-p)));
}

// 100,000 draws; the wrong-p checks assert (powerAgainst) that X² under p × 1.3 (or × 0.7 when
// p × 1.3 >= 1) lies five standard
// deviations above the α = 1e−6 critical value, so the rejection is certain rather than lucky.
const DRAWS = 100_000;

describe('sampleBinomial', () => {
  const cases: [number, number, string][] = [
    [20, 0.3, 'inversion'],
    [1_000_000, 3e-6, 'inversion with huge n'],
    [34, 0.3, 'BTRD near its lower limit, where stdlib 0.2.2 was biased'],
    [1000, 0.3, 'BTRD'],
    [50, 0.9, 'symmetry n − Binomial(n, 1 − p)'],
    [200_000, 0.5, 'BTRD at p = ½'],
  ];
  for (const [n, p, path] of cases) {
    const factor = p * 1.3 < 1 ? 1.3 : 0.7;
    it(`matches Binomial(${n}, ${p}) (${path}) by chi-square at α = 1e−6, and rejects p × ${factor}`, () => {
      const truth = binomialPmf(n, p);
      const rng = new SeededRng(`binomial ${n} ${p}`);
      const fit = fitDraws(() => sampleBinomial(rng, n, p), DRAWS, truth);
      expect(fit.pValue, `X² = ${fit.statistic} on ${fit.degreesOfFreedom} df`).toBeGreaterThan(ALPHA);

      const wrongP = p * factor;
      const power = powerAgainst(truth, binomialPmf(n, wrongP), DRAWS, ALPHA);
      expect(power.fiveSigmaLowerStatistic, `λ = ${power.noncentrality}`).toBeGreaterThan(power.critical);
      const wrong = fitDraws(() => sampleBinomial(rng, n, wrongP), DRAWS, truth);
      expect(wrong.pValue, `X² = ${wrong.statistic}`).toBeLessThan(ALPHA);
    });
  }

  it('handles the degenerate cases and validates arguments', () => {
    const rng = new SeededRng(1);
    expect(sampleBinomial(rng, 0, 0.4)).toBe(0);
    expect(sampleBinomial(rng, 17, 0)).toBe(0);
    expect(sampleBinomial(rng, 17, 1)).toBe(17);
    expect(() => sampleBinomial(rng, -1, 0.5)).toThrow(/n must be/);
    expect(() => sampleBinomial(rng, 2.5, 0.5)).toThrow(RangeError);
    expect(() => sampleBinomial(rng, 10, 1.5)).toThrow(/p must be/);
    expect(() => sampleBinomial(rng, 10, NaN)).toThrow(RangeError);
  });
});
