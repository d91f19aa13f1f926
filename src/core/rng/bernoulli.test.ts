import { describe, expect, it } from 'vitest';
import { chiSquareGoodnessOfFit } from '../stats/chi-square-goodness-of-fit';
import { chiSquareUpperQuantile } from '../stats/chi-square';
import { sampleBernoulliExpNeg } from './bernoulli-exp-neg';
import { sampleBernoulliRational } from './bernoulli-rational';
import { parseRational, Rational } from './rational';
import { SeededRng } from './seeded-rng';

const ALPHA = 1e-6;

/** Counts of [false, true] in n draws. */
function countOutcomes(draw: () => boolean, n: number): [number, number] {
  let successes = 0;
  for (let i = 0; i < n; i++) if (draw()) successes++;
  return [n - successes, successes];
}

/**
 * Power of the two-cell chi-square test with n draws against P(true) = pAlt when the truth is p:
 * λ = n (pAlt − p)² / (p(1 − p)), and X² ~ noncentral χ²(1, λ) with mean 1 + λ and variance
 * 2(1 + 2λ) (Agresti, Categorical Data Analysis, 3rd ed., §6.5.1). Returns the mean minus 5 sd.
 */
function fiveSigmaLowerStatistic(p: number, pAlt: number, n: number): number {
  const lambda = (n * (pAlt - p) ** 2) / (p * (1 - p));
  return 1 + lambda - 5 * Math.sqrt(2 * (1 + 2 * lambda));
}

describe('Bernoulli(num/den), exact', () => {
  // N = 400,000: for p in [0.1, 0.9] and p × 1.3 or × 0.7, λ = N(Δp)²/(p(1−p)) >= 4,000, so the
  // alternative's X² sits over 5 sd above the α = 1e−6 critical value 23.9 (asserted below).
  const DRAWS = 400_000;
  for (const [num, den] of [
    [1n, 3n],
    [1n, 10n],
    [5n, 7n],
    [9n, 13n],
  ]) {
    const p = Number(num) / Number(den);
    it(`has P(true) = ${num}/${den} (chi-square, α = 1e−6)`, () => {
      const rng = new SeededRng(`bernoulli ${num}/${den}`);
      const fit = chiSquareGoodnessOfFit(
        countOutcomes(() => sampleBernoulliRational(rng, num, den), DRAWS),
        [1 - p, p],
      );
      expect(fit.pValue, `X² = ${fit.statistic}`).toBeGreaterThan(ALPHA);
    });
    for (const [factorNum, factorDen] of [
      [13n, 10n],
      [7n, 10n],
    ]) {
      it(`rejects P(true) = ${num}/${den} × ${factorNum}/${factorDen}`, () => {
        const wrongNum = num * factorNum;
        const wrongDen = den * factorDen;
        const pAlt = Number(wrongNum) / Number(wrongDen);
        expect(fiveSigmaLowerStatistic(p, pAlt, DRAWS)).toBeGreaterThan(chiSquareUpperQuantile(ALPHA, 1));
        const rng = new SeededRng(`bernoulli wrong ${num}/${den} ${factorNum}`);
        const fit = chiSquareGoodnessOfFit(
          countOutcomes(() => sampleBernoulliRational(rng, wrongNum, wrongDen), DRAWS),
          [1 - p, p],
        );
        expect(fit.pValue, `X² = ${fit.statistic}`).toBeLessThan(ALPHA);
      });
    }
  }

  it('handles the certain events, a bigint denominator, and rejects invalid fractions', () => {
    const rng = new SeededRng(1);
    for (let i = 0; i < 100; i++) {
      expect(sampleBernoulliRational(rng, 0n, 5n)).toBe(false);
      expect(sampleBernoulliRational(rng, 5n, 5n)).toBe(true);
    }
    const den = (1n << 80n) + 3n;
    const [, successes] = countOutcomes(() => sampleBernoulliRational(rng, den / 4n, den), 40_000);
    // Binomial(40,000, 1/4): sd = 86.6, so ±6 sd = ±520.
    expect(Math.abs(successes - 10_000)).toBeLessThan(520);
    expect(() => sampleBernoulliRational(rng, 3n, 2n)).toThrow(RangeError);
    expect(() => sampleBernoulliRational(rng, -1n, 2n)).toThrow(RangeError);
    expect(() => sampleBernoulliRational(rng, 0n, 0n)).toThrow(/den >= 1/);
  });
});

describe('Bernoulli(exp(−γ)), exact (CKS 2020 Algorithm 1 and its γ > 1 extension)', () => {
  // N = 300,000. For each γ below and γ × 1.3, × 0.7 the two-cell test has λ = N(Δp)²/(p(1−p))
  // large enough that X² under the alternative is 5 sd above the α = 1e−6 critical value (asserted).
  const DRAWS = 300_000;
  for (const gammaText of ['0.1', '1/2', '1', '2.5', '7/3', '5']) {
    const gamma = parseRational(gammaText);
    const p = Math.exp(-gamma.toNumber());
    it(`has P(true) = exp(−${gammaText}) (chi-square, α = 1e−6)`, () => {
      const rng = new SeededRng(`bexp ${gammaText}`);
      const fit = chiSquareGoodnessOfFit(
        countOutcomes(() => sampleBernoulliExpNeg(rng, gamma), DRAWS),
        [1 - p, p],
      );
      expect(fit.pValue, `X² = ${fit.statistic}`).toBeGreaterThan(ALPHA);
    });
    for (const factor of ['1.3', '0.7']) {
      it(`rejects exp(−${gammaText} × ${factor})`, () => {
        const wrongGamma = gamma.mul(parseRational(factor));
        const pAlt = Math.exp(-wrongGamma.toNumber());
        expect(fiveSigmaLowerStatistic(p, pAlt, DRAWS)).toBeGreaterThan(chiSquareUpperQuantile(ALPHA, 1));
        const rng = new SeededRng(`bexp wrong ${gammaText} ${factor}`);
        const fit = chiSquareGoodnessOfFit(
          countOutcomes(() => sampleBernoulliExpNeg(rng, wrongGamma), DRAWS),
          [1 - p, p],
        );
        expect(fit.pValue, `X² = ${fit.statistic}`).toBeLessThan(ALPHA);
      });
    }
  }

  it('returns true for γ = 0, works on bigint for huge fractions, and rejects γ < 0', () => {
    const rng = new SeededRng(2);
    for (let i = 0; i < 100; i++) expect(sampleBernoulliExpNeg(rng, Rational.ZERO)).toBe(true);
    // γ = (2^70·3 + 1)/2^70 ≈ 3: P(true) = e^−3 ≈ 0.0498; with 40,000 draws sd = 43.5, ±6 sd = ±261.
    const gamma = Rational.of(3n * (1n << 70n) + 1n, 1n << 70n);
    const [, successes] = countOutcomes(() => sampleBernoulliExpNeg(rng, gamma), 40_000);
    expect(Math.abs(successes - 40_000 * Math.exp(-3))).toBeLessThan(261);
    expect(() => sampleBernoulliExpNeg(rng, Rational.of(-1, 3))).toThrow(/gamma must be >= 0/);
  });
});
