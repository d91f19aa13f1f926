import { describe, expect, it } from 'vitest';
import { logGamma } from '../stats/log-gamma';
import { sampleBinomial } from './binomial';
import { SeededRng } from './seeded-rng';
import { fitDraws, powerAgainst, tabulatePmf } from './testing/distribution-fit';
import { scriptedFloatRng } from './testing/scripted-rng';

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

  it('inverts the exact distribution function below the BTRD limit: one uniform, the smallest k with F(k) ≥ u', () => {
    // Binomial(10, 1/5): F(k) = Σ_{j≤k} C(10, j)·4^(10−j) / 5^10, whole numbers over 5^10 = 9,765,625,
    // exact in doubles. A uniform 1e−9 below F(k) gives k, 1e−9 above gives k + 1 (the inversion's
    // rounding is near 1e−16). With p = 4/5 the draw is 10 minus the draw for 1/5 from the same uniform.
    const choose = (n: number, k: number): number => (k === 0 ? 1 : (choose(n, k - 1) * (n - k + 1)) / k);
    let mass = 0;
    for (let k = 0; k <= 8; k++) {
      mass += choose(10, k) * 4 ** (10 - k);
      const cdf = mass / 5 ** 10;
      for (const [u, expected] of [
        [cdf - 1e-9, k],
        [cdf + 1e-9, k + 1],
      ] as const) {
        const rng = scriptedFloatRng([u]);
        expect(sampleBinomial(rng, 10, 0.2), `u = ${u}`).toBe(expected);
        expect(rng.used).toBe(1);
        expect(sampleBinomial(scriptedFloatRng([u]), 10, 0.8), `u = ${u}, p = 0.8`).toBe(10 - expected);
      }
    }
  });

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
