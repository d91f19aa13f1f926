import { describe, expect, it } from 'vitest';
import { makeDiscreteLaplaceSampler, sampleDiscreteLaplace } from './discrete-laplace';
import { parseRational, Rational } from './rational';
import { SeededRng } from './seeded-rng';
import { fitDraws, powerAgainst, tabulatePmf } from './testing/distribution-fit';

const ALPHA = 1e-6;

/** P(x) ∝ exp(−|x|/b) (CKS 2020, Definition 28), tabulated over ±60b where the outside mass is < 1e−26. */
function discreteLaplacePmf(scale: number) {
  const reach = Math.ceil(60 * scale) + 2;
  return tabulatePmf(-reach, reach, (x) => Math.exp(-Math.abs(x) / scale));
}

// N = 200,000 draws per test. Power: powerAgainst() computes the noncentrality λ = N·Σ(p_alt − p)²/p
// of the scale ×1.3 and ×0.7 alternatives (λ is in the thousands for these scales) and the test
// asserts that the alternative's X² lies five standard deviations above the α = 1e−6 critical value,
// so the wrong-scale samplers below are rejected with near certainty, not by luck of the seed.
const DRAWS = 200_000;

describe('discrete Laplace sampler (exact, CKS 2020 Algorithm 2)', () => {
  for (const scaleText of ['2', '20', '200', '1/3']) {
    const scale = parseRational(scaleText);
    const b = scale.toNumber();

    it(`matches exp(−|x|/${scaleText}) by a chi-square test at α = 1e−6`, () => {
      const rng = new SeededRng(`laplace ${scaleText}`);
      const sampler = makeDiscreteLaplaceSampler(scale);
      const fit = fitDraws(() => sampler(rng), DRAWS, discreteLaplacePmf(b));
      expect(fit.cells).toBeGreaterThanOrEqual(2);
      expect(fit.pValue, `X² = ${fit.statistic} on ${fit.degreesOfFreedom} df`).toBeGreaterThan(ALPHA);
    });

    for (const factor of ['1.3', '0.7']) {
      it(`rejects a sampler whose scale is ${factor} × ${scaleText}`, () => {
        const wrongScale = scale.mul(parseRational(factor));
        const power = powerAgainst(
          discreteLaplacePmf(b),
          discreteLaplacePmf(wrongScale.toNumber()),
          DRAWS,
          ALPHA,
        );
        expect(power.fiveSigmaLowerStatistic, `λ = ${power.noncentrality}`).toBeGreaterThan(power.critical);
        const rng = new SeededRng(`laplace wrong ${scaleText} ${factor}`);
        const wrong = makeDiscreteLaplaceSampler(wrongScale);
        const fit = fitDraws(() => wrong(rng), DRAWS, discreteLaplacePmf(b));
        expect(fit.pValue, `X² = ${fit.statistic} on ${fit.degreesOfFreedom} df`).toBeLessThan(ALPHA);
      });
    }
  }

  it('gives the same draws through the one-shot function and the precomputed sampler', () => {
    const scale = Rational.of(7, 3);
    const a = new SeededRng(11);
    const b = new SeededRng(11);
    const sampler = makeDiscreteLaplaceSampler(scale);
    for (let i = 0; i < 1000; i++) expect(sampleDiscreteLaplace(a, scale)).toBe(sampler(b));
  });

  it('takes the bigint path for scales beyond 2^53 and still has the right spread', () => {
    // scale = (2^60 + 1)/2^57 ≈ 8.0000000000000000069: numerator and denominator exceed 2^53.
    const scale = Rational.of((1n << 60n) + 1n, 1n << 57n);
    const rng = new SeededRng('big laplace');
    const sampler = makeDiscreteLaplaceSampler(scale);
    const fit = fitDraws(() => sampler(rng), 20_000, discreteLaplacePmf(8));
    expect(fit.pValue, `X² = ${fit.statistic}`).toBeGreaterThan(ALPHA);
  });

  it('rejects non-positive scales and draws beyond 2^53', () => {
    expect(() => makeDiscreteLaplaceSampler(Rational.ZERO)).toThrow(RangeError);
    expect(() => makeDiscreteLaplaceSampler(Rational.of(-1))).toThrow(/scale must be > 0/);
    // Scale 10^20: |draws| are of order 10^20 > 2^53, so the sampler must refuse to return them.
    const huge = makeDiscreteLaplaceSampler(Rational.of(10n ** 20n));
    const rng = new SeededRng(5);
    expect(() => {
      for (let i = 0; i < 20; i++) huge(rng);
    }).toThrow(/MAX_SAFE_INTEGER/);
  });
});
