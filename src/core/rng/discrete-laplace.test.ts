import { describe, expect, it } from 'vitest';
import {
  makeDiscreteLaplacePositivePartSampler,
  makeDiscreteLaplaceSampler,
  sampleDiscreteLaplace,
} from './discrete-laplace';
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

/** max(X, 0) for X discrete Laplace with scale b: P(0) = 1/(1 + q), P(k) ∝ q^k (k ≥ 1), q = e^(−1/b). */
function positivePartPmf(scale: number) {
  const q = Math.exp(-1 / scale);
  const reach = Math.ceil(60 * scale) + 2;
  return tabulatePmf(0, reach, (x) => (x === 0 ? 1 / (1 + q) : ((1 - q) / (1 + q)) * q ** x));
}

/**
 * The positive part of a sampler that forgets the restart on (B = 1, Y = 0) and returns 0 there:
 * P(0) = ((1 − q)/2 + (1 − q)/2 + q/2) = 1 − q/2 and P(k) = (1 − q)q^k/2 for k ≥ 1. A plausible
 * mistake in a lazy positive-part sampler, used as the alternative of the power checks.
 */
function positivePartWithoutRestartPmf(scale: number) {
  const q = Math.exp(-1 / scale);
  const reach = Math.ceil(60 * scale) + 2;
  return tabulatePmf(0, reach, (x) => (x === 0 ? 1 - q / 2 : ((1 - q) / 2) * q ** x));
}

// The same N = 200,000 draws and α = 1e−6 as above. Power: against the sampler without the restart
// (P(0) differs by q/(1 + q) − q/2, 0.07 at b = 2) and against scale ×1.3, powerAgainst() asserts
// that the alternative's X² lies 5 sd above the critical value.
describe('positive part of the discrete Laplace sampler (for empty cells)', () => {
  for (const scaleText of ['2', '20', '1/3']) {
    const scale = parseRational(scaleText);
    const b = scale.toNumber();

    it(`matches max(X, 0) for scale ${scaleText} by a chi-square test at α = 1e−6`, () => {
      const rng = new SeededRng(`positive part ${scaleText}`);
      const sampler = makeDiscreteLaplacePositivePartSampler(scale);
      const fit = fitDraws(() => sampler(rng), DRAWS, positivePartPmf(b));
      expect(fit.pValue, `X² = ${fit.statistic} on ${fit.degreesOfFreedom} df`).toBeGreaterThan(ALPHA);
    });

    it(`matches the positive part of the full sampler for scale ${scaleText}`, () => {
      const rng = new SeededRng(`full positive part ${scaleText}`);
      const full = makeDiscreteLaplaceSampler(scale);
      const fit = fitDraws(() => Math.max(0, full(rng)), DRAWS, positivePartPmf(b));
      expect(fit.pValue, `X² = ${fit.statistic} on ${fit.degreesOfFreedom} df`).toBeGreaterThan(ALPHA);
    });

    it(`would reject a sampler with scale 1.3 × ${scaleText} (or, for small scales, without the restart)`, () => {
      // At scale 20 the missing restart only moves P(0) from 0.5125 to 0.5244 (λ ≈ 113, too close to
      // the critical value to be sure of); there the wrong scale alone is the alternative.
      const alternatives = [positivePartPmf(1.3 * b)];
      if (b < 10) alternatives.push(positivePartWithoutRestartPmf(b));
      for (const alternative of alternatives) {
        const power = powerAgainst(positivePartPmf(b), alternative, DRAWS, ALPHA);
        expect(power.fiveSigmaLowerStatistic, `λ = ${power.noncentrality}`).toBeGreaterThan(power.critical);
      }
      const rng = new SeededRng(`positive part wrong ${scaleText}`);
      const wrong = makeDiscreteLaplacePositivePartSampler(scale.mul(parseRational('1.3')));
      const fit = fitDraws(() => wrong(rng), DRAWS, positivePartPmf(b));
      expect(fit.pValue, `X² = ${fit.statistic}`).toBeLessThan(ALPHA);
    });
  }

  it('rejects non-positive scales', () => {
    expect(() => makeDiscreteLaplacePositivePartSampler(Rational.of(0))).toThrow(RangeError);
  });
});

describe('positive part sampler shared between generators', () => {
  it("draws for one generator from that generator's words only", () => {
    // A sampler keeps the spare sign bits of the last word it read; a draw for another generator must
    // not use them, or one seeded run's output would depend on another's. Interleaved with two
    // different partners, generator a must give the same draws, and so must the partner that draws
    // second, whichever generator drew before it.
    const interleaved = (firstSeed: string, secondSeed: string) => {
      const shared = makeDiscreteLaplacePositivePartSampler(Rational.of(2));
      const first = new SeededRng(firstSeed);
      const second = new SeededRng(secondSeed);
      const out: { first: number[]; second: number[] } = { first: [], second: [] };
      for (let i = 0; i < 200; i++) {
        out.first.push(shared(first));
        out.second.push(shared(second));
      }
      return out;
    };
    expect(interleaved('stream a', 'partner 1').first).toEqual(interleaved('stream a', 'partner 2').first);
    expect(interleaved('stream a', 'partner 1').second).toEqual(interleaved('stream b', 'partner 1').second);
  });
});
