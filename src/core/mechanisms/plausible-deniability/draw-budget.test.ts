import { describe, expect, it } from 'vitest';
import { parseRational, Rational } from '../../rng/rational';
import { planDrawBudget, testEpsilonFor } from './draw-budget';

// The search for k and t against brute force, and the exact numbers and refusals of the draw budget.

/**
 * ln(1/δ_a) of one draw in doubles, with ε0(t) = a − ln(1 + 1/t) and the coin t/(t + n_S):
 * ε0·(k − t) + ln((t + n_S)(1 + e^(−ε0))) (README.md, Theorem 1 re-derived), −∞ when ε0 ≤ 0.
 */
function exponent(a: number, k: number, t: number, seeds: number): number {
  const e = a - Math.log1p(1 / t);
  return e > 0 ? e * (k - t) + Math.log(t + seeds) + Math.log1p(Math.exp(-e)) : -Infinity;
}

/** The t in [1, k) with the largest exponent, by trying every t. */
function bestT(a: number, k: number, seeds: number): number {
  let best = 1;
  for (let t = 2; t < k; t++) if (exponent(a, k, t, seeds) > exponent(a, k, best, seeds)) best = t;
  return best;
}

/** The smallest k whose best t reaches ln(T/δ), by trying every k and t. */
function smallestK(draws: number, epsilon: number, delta: number, seeds: number): number {
  const a = epsilon / draws;
  for (let k = 2; ; k++) if (exponent(a, k, bestT(a, k, seeds), seeds) >= Math.log(draws / delta)) return k;
}

describe('the draw budget search', () => {
  it('finds the smallest k that fits and its best t, as trying every k and t does', () => {
    for (const [draws, epsilon, delta, seeds] of [
      [10, '3', '1e-3', 5],
      [100, '50', '1e-5', 50],
      [200, '20', '1e-4', 100],
      [60, '6', '1e-3', 30],
      [7, '70', '1e-2', 3],
      [400, '100', '1e-6', 1000],
    ] as const) {
      const plan = planDrawBudget(draws, parseRational(epsilon), parseRational(delta), 0, seeds);
      if (!('budget' in plan)) throw new Error(plan.problem);
      const k = smallestK(draws, Number(epsilon), Number(delta), seeds);
      const label = `T = ${draws}, ε = ${epsilon}, δ = ${delta}, n_S = ${seeds}`;
      expect([plan.budget.k, plan.budget.t], label).toEqual([k, bestT(Number(epsilon) / draws, k, seeds)]);
      expect(plan.budget.totalDelta.compare(parseRational(delta)), label).toBeLessThanOrEqual(0);
    }
  });

  it('gives a fixed k the t that maximises ε0(t)·(k − t) + ln((t + n_S)(1 + e^(−ε0)))', () => {
    for (const [k, seeds] of [
      [50, 500],
      [200, 500],
      [1000, 20],
    ] as const) {
      const plan = planDrawBudget(1000, Rational.of(1200), parseRational('1e-6'), k, seeds);
      if (!('budget' in plan)) throw new Error(plan.problem);
      expect([plan.budget.k, plan.budget.t]).toEqual([k, bestT(1.2, k, seeds)]);
    }
  });

  it('states the exact ε0 and ln bound of the worked example (T = 1,000, ε = 1,200, δ = 10⁻⁶, n_S = 500)', () => {
    const plan = planDrawBudget(1000, Rational.of(1200), parseRational('1e-6'), 0, 500);
    if (!('budget' in plan)) throw new Error(plan.problem);
    // 1.2 − ln 1.25 = 0.976856448685790…, rounded down to 12 digits; the bound on ln 1.25 = 0.2231435513142098 is
    // 0.223143551314433 (above it), and ε0 = 1.2 − that bound rounded down.
    expect(plan.budget.testEpsilon.toString()).toBe('195371289737/200000000000');
    expect(testEpsilonFor(Rational.of(6, 5), 4)!.toString()).toBe('195371289737/200000000000');
    expect(plan.budget.lnBound.toString()).toBe('223143551314433/1000000000000000');
    expect(plan.budget.totalDelta.equals(plan.budget.deltaPerDraw.mul(Rational.of(1000)))).toBe(true);
  });
});

describe('the draw budget refusals', () => {
  it('refuses an ε/T too small for any t below 10⁹, naming ε/T rounded down', () => {
    // ε/T = 10⁻¹⁰: ln(1 + 1/t) < 10⁻¹⁰ needs t > 10¹⁰.
    expect(planDrawBudget(1000, parseRational('1e-7'), parseRational('1e-6'), 0, 500)).toEqual({
      problem:
        'ε/T = 1e-10 per draw over T = 1000 draws is too small for the privacy test of parameter `k` (it needs t ' +
        'below 10⁹ with ln(1 + 1/t) < ε/T): raise ε or release fewer datasets.',
    });
  });

  it('refuses a fixed k with no t below it (k = 1) and names the smallest k that fits', () => {
    expect(planDrawBudget(1000, Rational.of(1200), parseRational('1e-6'), 1, 500)).toEqual({
      problem:
        '`k` = 1 is too small for δ = 0.000001 over T = 1000 draws: the smallest k that fits is 19; set k to at ' +
        'least 19, or 0 to choose it automatically.',
      smallestK: 19,
    });
  });
});
