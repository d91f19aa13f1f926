import { describe, expect, it } from 'vitest';
import golden from '../../../tests/fixtures/privacy-golden.json';
import { parseRational } from '../rng/rational';
import { composeGdp, gaussianMu, gdpClaim, gdpDelta, gdpEpsilonForDelta, gdpMuForBudget } from './gdp';
import { relativeError } from '../testing/expect-close';

// Goldens: tests/reference/privacy_golden.py, mpmath at 60 digits from Dong, Roth & Su 2022,
// Corollary 2.13, rounded to the nearest double.

describe('gdpDelta', () => {
  // Tolerance 1e-12 relative. The error model is ~1e-16·(1 + a² + ε/μ²) with a = ε/μ − μ/2: a² from
  // e^{−a²/2} of a rounded a, ε/μ² from the cancellation R(a) − R(b). Over the goldens a ≤ 29.5 and
  // ε/μ² ≤ 40, so the bound is ~1e-13; 1e-12 leaves a factor of ten.
  for (const { epsilon, mu, value } of golden.gdpDelta) {
    it(`matches mpmath at ε = ${epsilon}, μ = ${mu}`, () => {
      const actual = gdpDelta(epsilon, mu);
      const error = relativeError(actual, value);
      expect(
        error,
        `δ(${epsilon}; ${mu}) = ${actual}, expected ${value}, error ${error}`,
      ).toBeLessThanOrEqual(1e-12);
    });
  }

  it('stays finite and non-negative for large ε where e^ε overflows', () => {
    expect(gdpDelta(2000, 60)).toBeGreaterThan(0);
    expect(gdpDelta(5000, 1)).toBe(0);
    expect(gdpDelta(Infinity, 1)).toBe(0);
    expect(gdpDelta(1, 0)).toBe(0);
  });

  it('decreases in ε and increases in μ', () => {
    for (const mu of [0.1, 1, 5]) {
      let previous = Infinity;
      for (let epsilon = 0; epsilon < 20; epsilon += 0.25) {
        const delta = gdpDelta(epsilon, mu);
        expect(delta).toBeLessThanOrEqual(previous);
        previous = delta;
      }
    }
    expect(gdpDelta(1, 2)).toBeGreaterThan(gdpDelta(1, 1));
  });

  it('rejects negative arguments', () => {
    expect(() => gdpDelta(-1, 1)).toThrow(RangeError);
    expect(() => gdpDelta(1, -1)).toThrow(RangeError);
    expect(() => gdpDelta(NaN, 1)).toThrow(RangeError);
  });
});

describe('gdpEpsilonForDelta', () => {
  // The function solves for δ·(1 − 1e-9) to absorb its own rounding, so its ε is above the exact
  // root by |dε/d log δ|·1e-9 ≲ 1e-9 relative here. Checked: never below, and within 1e-8 relative.
  for (const { mu, delta, value } of golden.gdpEpsilonForDelta) {
    it(`matches mpmath at μ = ${mu}, δ = ${delta} from above`, () => {
      const actual = gdpEpsilonForDelta(mu, delta);
      if (value === 0) {
        expect(actual).toBe(0);
        return;
      }
      expect(actual, `ε(${mu}, ${delta}) = ${actual} below exact ${value}`).toBeGreaterThanOrEqual(value);
      expect(relativeError(actual, value), `ε(${mu}, ${delta}) = ${actual} vs ${value}`).toBeLessThanOrEqual(
        1e-8,
      );
    });
  }

  it('checks its inputs', () => {
    expect(() => gdpEpsilonForDelta(1, 0)).toThrow(RangeError);
    expect(() => gdpEpsilonForDelta(1, 1)).toThrow(RangeError);
    expect(() => gdpEpsilonForDelta(-1, 1e-5)).toThrow(RangeError);
  });
});

describe('gdpMuForBudget', () => {
  // Inverse in μ, solved for δ·(1 − 1e-9): never above the exact root, within 1e-8 relative.
  for (const { epsilon, delta, value } of golden.gdpMuForBudget) {
    it(`matches mpmath at ε = ${epsilon}, δ = ${delta} from below`, () => {
      const actual = gdpMuForBudget(epsilon, delta);
      expect(actual).toBeLessThanOrEqual(value);
      expect(relativeError(actual, value)).toBeLessThanOrEqual(1e-8);
    });
  }
});

describe('composeGdp and gaussianMu', () => {
  it('composes as the root sum of squares (Corollary 3.3) and μ = Δ/σ (Theorem 2.7)', () => {
    expect(composeGdp([0.6, 0.8])).toBe(1);
    expect(composeGdp([3, 4, 12])).toBe(13);
    expect(composeGdp([])).toBe(0);
    expect(gaussianMu(2, 4)).toBe(0.5);
    expect(() => composeGdp([-1])).toThrow(RangeError);
    expect(() => gaussianMu(1, 0)).toThrow(RangeError);
  });
});

describe('gdpClaim', () => {
  it('composes μ exactly, converts at the chosen δ and rounds every number up', () => {
    const claim = gdpClaim({
      steps: [
        { what: 'marginals', mu: 0.6 },
        { what: 'correlations', mu: 0.8 },
      ],
      delta: 1e-5,
      assumptions: ['A.'],
    });
    expect(claim.notion).toBe('gdp');
    expect(claim.mu).toBe(1);
    // 1-GDP at δ = 1e-5: ε = 4.3771780956812245 (golden above), rounded up to 6 digits.
    expect(claim.epsilon).toBe(4.37718);
    expect(claim.delta).toBe(1e-5);
    expect(claim.neighbouring).toBe('replace-one');
    expect(claim.steps.map((s) => s.mu)).toEqual([0.6, 0.8]);
    expect(claim.steps[0]!.epsilon).toBeGreaterThan(0);
    expect(claim.assumptions).toEqual(['A.']);
    expect(claim.bound).toBe('proven');
    const unproven = gdpClaim({
      steps: [],
      delta: 1e-5,
      assumptions: [],
      unproven: { unprovenBecause: 'why' },
    });
    expect([unproven.bound, unproven.unprovenBecause]).toEqual(['unproven', 'why']);
  });

  it('never shows a μ below √(Σ μᵢ²)', () => {
    const mus = [0.1, 0.2, 0.3, 0.7];
    const claim = gdpClaim({ steps: mus.map((mu) => ({ what: 'q', mu })), delta: 1e-6, assumptions: [] });
    const exactSquare = mus.map((m) => parseRational(m).mul(parseRational(m))).reduce((a, b) => a.add(b));
    const shown = parseRational(claim.mu!);
    expect(shown.mul(shown).compare(exactSquare)).toBeGreaterThanOrEqual(0);
    expect(claim.mu).toBe(0.793726); // √0.63 = 0.79372539…
  });
});
