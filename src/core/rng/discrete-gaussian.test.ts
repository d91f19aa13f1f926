import { describe, expect, it } from 'vitest';
import { integerSquareRoot, makeDiscreteGaussianSampler, sampleDiscreteGaussian } from './discrete-gaussian';
import { parseRational, Rational } from './rational';
import { SeededRng } from './seeded-rng';
import { fitDraws, powerAgainst, tabulatePmf } from './testing/distribution-fit';

const ALPHA = 1e-6;

/** P(x) ∝ exp(−x²/(2σ²)) (CKS 2020, Definition 1), over ±(12σ + 2): outside mass below 1e−31. */
function discreteGaussianPmf(sigma2: number) {
  const reach = Math.ceil(12 * Math.sqrt(sigma2)) + 2;
  return tabulatePmf(-reach, reach, (x) => Math.exp(-(x * x) / (2 * sigma2)));
}

// N = 200,000 draws. powerAgainst() shows (and the test asserts) that for σ² scaled by 1.3 and 0.7
// the alternative's X² is more than five standard deviations above the α = 1e−6 critical value
// (λ = N·Σ(p_alt − p)²/p is in the thousands), so these rejections are not a lucky seed.
const DRAWS = 200_000;

describe('discrete Gaussian sampler (exact, CKS 2020 Algorithm 3)', () => {
  for (const sigma2Text of ['1', '100', '0.3', '5/2']) {
    const sigma2 = parseRational(sigma2Text);
    const s2 = sigma2.toNumber();

    it(`matches exp(−x²/(2·${sigma2Text})) by a chi-square test at α = 1e−6`, () => {
      const rng = new SeededRng(`gauss ${sigma2Text}`);
      const sampler = makeDiscreteGaussianSampler(sigma2);
      const fit = fitDraws(() => sampler(rng), DRAWS, discreteGaussianPmf(s2));
      expect(fit.pValue, `X² = ${fit.statistic} on ${fit.degreesOfFreedom} df`).toBeGreaterThan(ALPHA);
    });

    for (const factor of ['1.3', '0.7']) {
      it(`rejects a sampler whose σ² is ${factor} × ${sigma2Text}`, () => {
        const wrongSigma2 = sigma2.mul(parseRational(factor));
        const truth = discreteGaussianPmf(s2);
        const power = powerAgainst(truth, discreteGaussianPmf(wrongSigma2.toNumber()), DRAWS, ALPHA);
        expect(power.fiveSigmaLowerStatistic, `λ = ${power.noncentrality}`).toBeGreaterThan(power.critical);
        const rng = new SeededRng(`gauss wrong ${sigma2Text} ${factor}`);
        const wrong = makeDiscreteGaussianSampler(wrongSigma2);
        const fit = fitDraws(() => wrong(rng), DRAWS, truth);
        expect(fit.pValue, `X² = ${fit.statistic} on ${fit.degreesOfFreedom} df`).toBeLessThan(ALPHA);
      });
    }
  }

  it('takes the bigint path when σ² has a numerator and denominator beyond 2^53', () => {
    // σ² = (3·2^60 + 1)/2^60 ≈ 3.
    const sigma2 = Rational.of(3n * (1n << 60n) + 1n, 1n << 60n);
    const rng = new SeededRng('big gauss');
    const sampler = makeDiscreteGaussianSampler(sigma2);
    const fit = fitDraws(() => sampler(rng), 20_000, discreteGaussianPmf(3));
    expect(fit.pValue, `X² = ${fit.statistic}`).toBeGreaterThan(ALPHA);
  });

  it('agrees between the one-shot function and the precomputed sampler, and validates σ²', () => {
    const sigma2 = Rational.of(9, 4);
    const a = new SeededRng(3);
    const b = new SeededRng(3);
    const sampler = makeDiscreteGaussianSampler(sigma2);
    for (let i = 0; i < 500; i++) expect(sampleDiscreteGaussian(a, sigma2)).toBe(sampler(b));
    expect(() => makeDiscreteGaussianSampler(Rational.ZERO)).toThrow(RangeError);
    expect(() => makeDiscreteGaussianSampler(Rational.of(-2))).toThrow(/sigma2 must be > 0/);
  });

  it('computes ⌊√n⌋ exactly on bigint', () => {
    for (const n of [0n, 1n, 2n, 3n, 4n, 15n, 16n, 17n, 99n, 100n, 101n]) {
      const r = integerSquareRoot(n);
      expect(r * r <= n && (r + 1n) * (r + 1n) > n, `n = ${n}, root ${r}`).toBe(true);
    }
    const big = (10n ** 40n + 12345n) ** 2n - 1n;
    expect(integerSquareRoot(big)).toBe(10n ** 40n + 12344n);
    expect(() => integerSquareRoot(-1n)).toThrow(RangeError);
  });
});
