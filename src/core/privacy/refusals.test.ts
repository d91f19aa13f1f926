import { describe, expect, it } from 'vitest';
import { parseRational, Rational } from '../rng/rational';
import { Accountant, OverspendError } from './accountant';
import { parseBudget } from './budget';
import { gaussianMu, composeGdp, gdpClaim, gdpDelta, gdpEpsilonForDelta, gdpMuForBudget } from './gdp';
import { roundDown, roundUp, roundUpRational, roundUpSqrtRational, sqrtRationalDown } from './round-up';
import { expm1LowerBound } from './expm1-lower-bound';
import {
  composeZcdp,
  zcdpRhoForBudget,
  zcdpRhoFromPureEpsilon,
  zcdpRhoFromSquaredSensitivity,
  zcdpToApproxDp,
} from './zcdp';
import { ZcdpAccountant } from './zcdp-accountant';

// A privacy value that cannot be used is refused before anything is spent, and the message names
// the function (or the step) and the value, so that a user can find what they typed wrong. Where
// a refusal could also come from deeper down (Rational division by zero, a nested conversion), the
// message pins which check fired.

const r = (x: string): Rational => parseRational(x);

describe('the accountant refuses', () => {
  it('a negative cost, naming the step and both values', () => {
    const accountant = new Accountant(parseBudget('1'));
    expect(() => accountant.reserve('counts', r('-0.5'))).toThrow(
      '"counts": a privacy cost cannot be negative (ε = -0.5, δ = 0)',
    );
    expect(() => new Accountant({ epsilon: r('-1'), delta: Rational.ZERO })).toThrow(
      '"budget": a privacy cost cannot be negative',
    );
  });

  it('a budget whose δ is 1 or more', () => {
    expect(() => new Accountant({ epsilon: Rational.ONE, delta: Rational.ONE })).toThrow(
      "the budget's δ must be below 1; got 1",
    );
    expect(() => new Accountant({ epsilon: Rational.ONE, delta: r('1.5') })).toThrow(/below 1; got 1\.5/);
    expect(new Accountant({ epsilon: Rational.ONE, delta: r('0.999') }).budget.delta.equals(r('0.999'))).toBe(
      true,
    );
  });

  it('a parallel step without parts, and splits into other than a whole number >= 1 of parts', () => {
    const accountant = new Accountant(parseBudget('1'));
    expect(() => accountant.reserveParallel('cells', [])).toThrow(
      '"cells": parallel composition needs at least one part',
    );
    for (const parts of [0, -2, 2.5, Number.NaN]) {
      expect(() => Accountant.split(Rational.ONE, parts)).toThrow(
        `a budget can only be split into a whole number of parts >= 1; got ${parts}`,
      );
    }
    expect(Accountant.split(Rational.ONE, 1).equals(Rational.ONE)).toBe(true);
  });

  it('a δ overspend, saying how much δ is left of how much', () => {
    const accountant = new Accountant(parseBudget('1', '0.001'));
    accountant.reserve('first', r('0.1'), r('0.0004'));
    expect(() => accountant.reserve('second', r('0.1'), r('0.0007'))).toThrow(
      '"second" needs δ = 0.0007, but only 0.0006 of δ = 0.001 is left',
    );
    const error = (() => {
      try {
        accountant.reserve('third', r('2'));
      } catch (e) {
        return e;
      }
      return null;
    })();
    expect(error).toBeInstanceOf(OverspendError);
    expect((error as Error).name).toBe('OverspendError');
  });
});

describe('the zCDP accountant refuses', () => {
  it('a negative ρ budget, a δ outside (0, 1), and a budget with δ = 0', () => {
    expect(() => new ZcdpAccountant(r('-0.1'), r('1e-6'))).toThrow(
      'a ρ budget cannot be negative; got -1/10',
    );
    for (const delta of ['0', '1', '2', '-0.1']) {
      expect(() => new ZcdpAccountant(r('0.1'), r(delta))).toThrow(
        `a zCDP claim needs 0 < δ < 1; got ${delta}`,
      );
    }
    expect(new ZcdpAccountant(Rational.ZERO, r('0.5')).remaining().isZero()).toBe(true);
    expect(() => ZcdpAccountant.forBudget(parseBudget('1'))).toThrow(
      'zCDP needs δ > 0 to state an (ε, δ) guarantee; the budget has δ = 0',
    );
  });

  it('a negative ρ and an overspend, naming the step and what is left', () => {
    const accountant = new ZcdpAccountant(r('0.5'), r('1e-6'));
    expect(() => accountant.reserve('counts', r('-0.1'))).toThrow(
      '"counts": ρ cannot be negative; got -1/10',
    );
    accountant.reserve('first', r('0.2'));
    expect(() => accountant.reserve('second', r('0.4'))).toThrow(
      '"second" needs ρ = 0.4, but only 0.3 of ρ = 0.5 is left',
    );
  });

  it('splits into other than a whole number >= 1 of parts', () => {
    for (const parts of [0, -1, 1.5]) {
      expect(() => ZcdpAccountant.split(Rational.ONE, parts)).toThrow(
        `ρ can only be split into a whole number of parts >= 1; got ${parts}`,
      );
    }
    expect(ZcdpAccountant.split(r('0.3'), 1).equals(r('0.3'))).toBe(true);
  });
});

describe('the zCDP conversions refuse', () => {
  it('ρ or δ out of range, naming the function', () => {
    expect(() => zcdpToApproxDp(-1, 1e-5)).toThrow('zcdpToApproxDp: ρ must be finite and >= 0; got -1');
    expect(() => zcdpToApproxDp(Infinity, 1e-5)).toThrow(/ρ must be finite/);
    expect(() => zcdpToApproxDp(0.1, 1)).toThrow('zcdpToApproxDp: δ must be in (0, 1); got 1');
    expect(() => zcdpRhoForBudget(0, 1e-5)).toThrow('zcdpRhoForBudget: ε must be a finite number > 0; got 0');
    expect(() => zcdpRhoForBudget(-1, 1e-5)).toThrow(/zcdpRhoForBudget: ε must be/);
    expect(() => zcdpRhoForBudget(Infinity, 1e-5)).toThrow(/zcdpRhoForBudget: ε must be/);
    for (const delta of [0, 1, -1e-5]) {
      expect(() => zcdpRhoForBudget(1, delta)).toThrow(`zcdpRhoForBudget: δ must be in (0, 1); got ${delta}`);
    }
  });

  it('negative ε, ρ, Δ² and non-positive σ², naming the value', () => {
    expect(() => zcdpRhoFromPureEpsilon(r('-1'))).toThrow('ε must be >= 0; got -1');
    expect(zcdpRhoFromPureEpsilon(Rational.ZERO).isZero()).toBe(true);
    expect(() => composeZcdp([r('0.1'), r('-0.2')])).toThrow('ρ must be >= 0; got -1/5');
    expect(() => zcdpRhoFromSquaredSensitivity(Rational.ONE, Rational.ZERO)).toThrow(
      'zCDP of the Gaussian needs Δ >= 0 and σ² > 0; got Δ² = 1, σ² = 0',
    );
  });

  it('finds ρ above 1 when ε is large: the defining inequality holds at ρ and fails just above it', () => {
    // The largest ρ with zcdpToApproxDp(ρ, δ) <= ε: checked through the conversion itself, whose
    // values are pinned to mpmath in zcdp.test.ts. ε = 20 at δ = 1e-5 needs ρ ≈ 3.6, beyond the
    // first bracket [0, 1].
    const rho = zcdpRhoForBudget(20, 1e-5);
    expect(rho).toBeGreaterThan(1);
    expect(zcdpToApproxDp(rho, 1e-5)).toBeLessThanOrEqual(20);
    expect(zcdpToApproxDp(rho * (1 + 1e-9), 1e-5)).toBeGreaterThan(20);
  });
});

describe('the Gaussian-DP conversions refuse', () => {
  it('μ, ε or δ out of range, naming the function', () => {
    expect(() => gdpDelta(-1, 1)).toThrow('gdpDelta: ε must be >= 0; got -1');
    expect(() => gdpDelta(1, -1)).toThrow('gdpDelta: μ must be a finite number >= 0; got -1');
    expect(() => gdpDelta(1, Infinity)).toThrow('gdpDelta: μ must be a finite number >= 0; got Infinity');
    expect(() => composeGdp([0.5, -0.5])).toThrow('composeGdp: μ must be a finite number >= 0; got -0.5');
    expect(() => gdpEpsilonForDelta(-1, 1e-5)).toThrow('gdpEpsilonForDelta: μ must be');
    expect(() => gdpEpsilonForDelta(1, 1)).toThrow('gdpEpsilonForDelta: δ must be in [1e-100, 1); got 1');
    expect(() => gdpEpsilonForDelta(1, 1e-101)).toThrow(/gdpEpsilonForDelta: δ must be in/);
    expect(() => gdpMuForBudget(0, 1e-5)).toThrow('gdpMuForBudget: ε must be a finite number > 0; got 0');
    expect(() => gdpMuForBudget(Infinity, 1e-5)).toThrow(/gdpMuForBudget: ε must be a finite number > 0/);
    expect(() => gdpMuForBudget(1, 0)).toThrow('gdpMuForBudget: δ must be in [1e-100, 1); got 0');
    expect(() => gdpClaim({ steps: [{ what: 'q', mu: -1 }], delta: 1e-5, assumptions: [] })).toThrow(
      'gdpClaim step "q": μ must be a finite number >= 0; got -1',
    );
  });

  it('accepts the edges of the ranges: δ = 1e-100, Δ = 0, ε = ∞', () => {
    // At δ = 1e-100 the conversion is still defined: 1-GDP needs ε ≈ 20.7 (ε grows like μ·√(2 log(1/δ))).
    const epsilon = gdpEpsilonForDelta(1, 1e-100);
    expect(epsilon).toBeGreaterThan(20);
    expect(epsilon).toBeLessThan(25);
    expect(gaussianMu(0, 2)).toBe(0);
    expect(gaussianMu(3, 2)).toBe(1.5);
    expect(gdpDelta(Infinity, 1)).toBe(0);
    for (const [sensitivity, sigma] of [
      [-1, 1],
      [1, 0],
      [Infinity, 1],
      [1, Infinity],
    ] as const) {
      expect(() => gaussianMu(sensitivity, sigma)).toThrow(
        `gaussianMu needs Δ >= 0 and σ > 0; got Δ = ${sensitivity}, σ = ${sigma}`,
      );
    }
  });
});

describe('rounding refuses', () => {
  it('digit counts outside 1..15 and NaN, saying why', () => {
    expect(() => roundUpRational(Rational.ONE, 16)).toThrow(
      'significant digits must be a whole number from 1 to 15; got 16',
    );
    expect(() => roundUp(Number.NaN)).toThrow('roundUp: NaN is not a privacy value');
    expect(() => roundDown(Number.NaN)).toThrow('roundDown: NaN is not a privacy value');
    expect(roundDown(Infinity)).toBe(Infinity);
    expect(roundDown(-Infinity)).toBe(-Infinity);
    expect(() => roundUpSqrtRational(r('-2'))).toThrow('roundUpSqrtRational: negative argument -2');
    expect(() => sqrtRationalDown(r('-2'), 3)).toThrow('sqrtRationalDown: negative argument -2');
    expect(() => expm1LowerBound(Rational.ZERO)).toThrow('expm1LowerBound: x must be > 0, got 0');
  });
});
