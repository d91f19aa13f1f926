import { describe, expect, it } from 'vitest';
import golden from '../../../tests/fixtures/privacy-golden.json';
import { parseRational, Rational } from '../rng/rational';
import { parseBudget } from './budget';
import { OverspendError } from './accountant';
import {
  composeZcdp,
  zcdpRhoDiscreteGaussian,
  zcdpRhoForBudget,
  zcdpRhoFromPureEpsilon,
  zcdpRhoFromSquaredSensitivity,
  zcdpToApproxDp,
} from './zcdp';
import { ZcdpAccountant } from './zcdp-accountant';
import { relativeError } from '../testing/expect-close';

// Goldens: tests/reference/privacy_golden.py, mpmath at 60 digits (minimiser by findroot on the
// derivative, cross-checked there against scipy's bounded minimiser of the objective itself).

describe('zcdpToApproxDp (Canonne, Kamath & Steinke 2020, Corollary 13)', () => {
  // The result carries an upward allowance of 1e-14 × (sum of |terms|) for rounding; the terms are at
  // most a few times ε here, so the value lies in [exact, exact·(1 + 1e-12)].
  for (const { rho, delta, epsilon, bunSteinke } of golden.zcdpToApproxDp) {
    it(`matches mpmath at ρ = ${rho}, δ = ${delta}`, () => {
      const actual = zcdpToApproxDp(rho, delta);
      if (epsilon === 0) {
        expect(actual).toBe(0);
        return;
      }
      expect(actual, `ε(${rho}, ${delta}) = ${actual} below exact ${epsilon}`).toBeGreaterThanOrEqual(
        epsilon,
      );
      expect(relativeError(actual, epsilon)).toBeLessThanOrEqual(1e-12);
      expect(actual).toBeLessThan(bunSteinke);
    });
  }

  it('is 0 for ρ = 0 and rejects bad inputs', () => {
    expect(zcdpToApproxDp(0, 1e-5)).toBe(0);
    expect(() => zcdpToApproxDp(-1, 1e-5)).toThrow(RangeError);
    expect(() => zcdpToApproxDp(1, 0)).toThrow(RangeError);
    expect(() => zcdpToApproxDp(1, 1)).toThrow(RangeError);
  });
});

describe('zcdpRhoForBudget', () => {
  // Bisection on the (upward-biased) conversion, then rounded down to 12 digits: never above the
  // exact ρ, within 1e-11 relative of it.
  for (const { epsilon, delta, value } of golden.zcdpRhoForBudget) {
    it(`matches mpmath at ε = ${epsilon}, δ = ${delta} from below`, () => {
      const actual = zcdpRhoForBudget(epsilon, delta);
      expect(actual).toBeLessThanOrEqual(value);
      expect(relativeError(actual, value)).toBeLessThanOrEqual(1e-11);
      expect(zcdpToApproxDp(actual, delta)).toBeLessThanOrEqual(epsilon);
      expect(String(actual).replace(/^0\.0*|\.|e.*$/g, '').length).toBeLessThanOrEqual(12);
    });
  }
});

describe('exact ρ', () => {
  it('discrete Gaussian: ρ = Δ²/(2σ²) (CKS 2020, Theorem 4)', () => {
    expect(zcdpRhoDiscreteGaussian(Rational.ONE, Rational.of(2)).equals(Rational.of(1, 4))).toBe(true);
    expect(zcdpRhoDiscreteGaussian(Rational.of(3), parseRational('4.5')).equals(Rational.ONE)).toBe(true);
    // A replace-one histogram: Δ² = 2.
    expect(zcdpRhoFromSquaredSensitivity(Rational.of(2), Rational.of(10)).equals(Rational.of(1, 10))).toBe(
      true,
    );
    expect(() => zcdpRhoDiscreteGaussian(Rational.ONE, Rational.ZERO)).toThrow(RangeError);
    expect(() => zcdpRhoDiscreteGaussian(Rational.of(-1), Rational.ONE)).toThrow(RangeError);
  });

  it('pure ε-DP is ε²/2-zCDP and composition adds', () => {
    expect(zcdpRhoFromPureEpsilon(parseRational('0.1')).equals(Rational.of(1, 200))).toBe(true);
    const total = composeZcdp([Rational.of(1, 10), Rational.of(1, 5), Rational.of(1, 200)]);
    expect(total.equals(Rational.of(61, 200))).toBe(true);
    expect(composeZcdp([]).isZero()).toBe(true);
    expect(() => composeZcdp([Rational.of(-1)])).toThrow(RangeError);
  });
});

describe('ZcdpAccountant', () => {
  it('turns an (ε, δ) budget into a ρ budget whose conversion stays within ε', () => {
    const accountant = ZcdpAccountant.forBudget(parseBudget('1', '1e-5'));
    // golden zcdpRhoForBudget(1, 1e-5) = 0.030556595197639567
    expect(accountant.rhoBudget.toNumber()).toBeCloseTo(0.030556595197639567, 10);
    expect(accountant.rhoBudget.toNumber()).toBeLessThanOrEqual(0.030556595197639567);
    const half = ZcdpAccountant.split(accountant.rhoBudget, 2);
    accountant.reserve('one-way marginals', half);
    accountant.reserve('two-way marginals', half);
    expect(accountant.remaining().isZero()).toBe(true);
    expect(() => accountant.reserve('more', Rational.of(1, 10 ** 12))).toThrow(OverspendError);
    const claim = accountant.claim(['A.']);
    expect(claim.notion).toBe('approx-dp');
    expect(claim.epsilon).toBeLessThanOrEqual(1);
    expect(claim.epsilon).toBeGreaterThan(0.99999);
    expect(claim.delta).toBe(1e-5);
    expect(claim.rho).toBe(0.0305566);
    expect(claim.bound).toBe('proven');
    expect(accountant.claim([], { unprovenBecause: 'why' }).bound).toBe('unproven');
    expect(claim.steps).toHaveLength(2);
    expect(claim.steps[0]!.rho).toBe(0.0152783);
    expect(claim.steps[0]!.delta).toBe(1e-5);
  });

  it('needs δ > 0', () => {
    expect(() => ZcdpAccountant.forBudget(parseBudget('1'))).toThrow(RangeError);
  });

  it('states the golden conversion for a known ρ', () => {
    const accountant = new ZcdpAccountant(parseRational('0.1'), parseRational('1e-5'));
    accountant.reserve('all', parseRational('0.1'));
    // golden zcdpToApproxDp(0.1, 1e-5) = 1.914238832003598, rounded up to 6 digits
    expect(accountant.claim([]).epsilon).toBe(1.91424);
  });
});

describe('ZcdpAccountant bookkeeping', () => {
  it('reports ρ spent and the steps in order, as copies', () => {
    const accountant = new ZcdpAccountant(parseRational('1'), parseRational('1e-6'));
    expect(accountant.spent().isZero()).toBe(true);
    accountant.reserve('first', parseRational('0.25'));
    accountant.reserve('second', parseRational('0.125'));
    expect(accountant.spent().equals(parseRational('0.375'))).toBe(true);
    const steps = accountant.steps();
    expect(steps.map((s) => [s.what, s.rho.toString()])).toEqual([
      ['first', '1/4'],
      ['second', '1/8'],
    ]);
    (steps[0] as { what: string }).what = 'changed';
    expect(accountant.steps()[0]!.what).toBe('first');
  });

  it('states replace-one neighbours and copies the assumptions', () => {
    const accountant = new ZcdpAccountant(parseRational('1'), parseRational('1e-6'));
    const assumptions = ['Bounds are public.'];
    const claim = accountant.claim(assumptions);
    expect(claim.neighbouring).toBe('replace-one');
    expect(claim.assumptions).toEqual(['Bounds are public.']);
    assumptions.push('later');
    expect(claim.assumptions).toHaveLength(1);
  });
});
