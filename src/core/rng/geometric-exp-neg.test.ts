import { describe, expect, it } from 'vitest';
import { makeGeometricExpNegSampler, sampleGeometricExpNeg } from './geometric-exp-neg';
import { parseRational, Rational } from './rational';
import { SeededRng } from './seeded-rng';
import { fitDraws, powerAgainst, tabulatePmf } from './testing/distribution-fit';

const ALPHA = 1e-6;

/** P(k) = (1 − e^−γ) e^−γk, k >= 0, up to the point where the remaining mass is below 1e−26. */
function geometricPmf(gamma: number) {
  return tabulatePmf(0, Math.ceil(60 / gamma) + 2, (k) => Math.exp(-gamma * k));
}

// N = 200,000 draws; for γ × 1.3 and γ × 0.7 the test asserts that the alternative's expected X²
// minus five standard deviations exceeds the α = 1e−6 critical value (noncentrality in the thousands).
const DRAWS = 200_000;

describe('geometric sampler with ratio exp(−γ) (exact, CKS 2020 Algorithm 2)', () => {
  for (const gammaText of ['0.5', '1', '3', '1/7', '0.01']) {
    const gamma = parseRational(gammaText);
    const g = gamma.toNumber();

    it(`matches (1 − e^−γ)e^−γk for γ = ${gammaText} at α = 1e−6`, () => {
      const rng = new SeededRng(`geometric ${gammaText}`);
      const sampler = makeGeometricExpNegSampler(gamma);
      const fit = fitDraws(() => sampler(rng), DRAWS, geometricPmf(g));
      expect(fit.pValue, `X² = ${fit.statistic} on ${fit.degreesOfFreedom} df`).toBeGreaterThan(ALPHA);
    });

    for (const factor of ['1.3', '0.7']) {
      it(`rejects γ × ${factor} for γ = ${gammaText}`, () => {
        const wrongGamma = gamma.mul(parseRational(factor));
        const truth = geometricPmf(g);
        const power = powerAgainst(truth, geometricPmf(wrongGamma.toNumber()), DRAWS, ALPHA);
        expect(power.fiveSigmaLowerStatistic, `λ = ${power.noncentrality}`).toBeGreaterThan(power.critical);
        const rng = new SeededRng(`geometric wrong ${gammaText} ${factor}`);
        const wrong = makeGeometricExpNegSampler(wrongGamma);
        const fit = fitDraws(() => wrong(rng), DRAWS, truth);
        expect(fit.pValue, `X² = ${fit.statistic} on ${fit.degreesOfFreedom} df`).toBeLessThan(ALPHA);
      });
    }
  }

  it('runs on bigint for γ with huge numerator and denominator', () => {
    // γ = (2^70 + 1)/2^71 ≈ 0.5.
    const gamma = Rational.of((1n << 70n) + 1n, 1n << 71n);
    const rng = new SeededRng('big geometric');
    const fit = fitDraws(() => sampleGeometricExpNeg(rng, gamma), 20_000, geometricPmf(0.5));
    expect(fit.pValue, `X² = ${fit.statistic}`).toBeGreaterThan(ALPHA);
  });

  it('rejects γ <= 0', () => {
    expect(() => makeGeometricExpNegSampler(Rational.ZERO)).toThrow(/gamma must be > 0/);
    expect(() => makeGeometricExpNegSampler(Rational.of(-1, 2))).toThrow(RangeError);
  });
});

describe('geometric draws near 2^53', () => {
  it('divides values that pass 2^53 exactly: γ = 2^10/2^52 has mean 1/(e^γ − 1) ≈ 2^42', () => {
    // u + t·v passes 2^53 once v >= 2 (t = 2^52), then is divided by s = 2^10 in bigints. The geometric
    // law has sd ≈ mean, so the mean of 2,000 draws has relative sd 1/√2000 = 2.2 %; ±6 sd = ±13.4 %.
    const sampler = makeGeometricExpNegSampler(Rational.of(2n ** 10n, 2n ** 52n));
    const rng = new SeededRng('near 2^53');
    let sum = 0;
    for (let i = 0; i < 2000; i++) sum += sampler(rng);
    const mean = 1 / Math.expm1(2 ** -42);
    expect(Math.abs(sum / 2000 / mean - 1), `mean ${sum / 2000} against ${mean}`).toBeLessThan(0.134);
  });

  it('refuses a draw beyond Number.MAX_SAFE_INTEGER instead of rounding it', () => {
    // γ = 2^−52: a draw exceeds 2^53 − 1 exactly when v >= 2, with probability e^−2 = 0.135 per draw,
    // so 200 draws all stay below with probability 0.865^200 < 3·10⁻¹³.
    const sampler = makeGeometricExpNegSampler(Rational.of(1n, 2n ** 52n));
    const rng = new SeededRng('beyond 2^53');
    expect(() => {
      for (let i = 0; i < 200; i++) sampler(rng);
    }).toThrow(/^exact sampler: a draw \(\d+\) exceeds Number\.MAX_SAFE_INTEGER; the scale is too large$/);
  });
});
