import { describe, expect, it } from 'vitest';
import { parseRational } from '../rng/rational';
import { SeededRng } from '../rng/seeded-rng';
import { fitDraws, powerAgainst, type IntegerPmf } from '../rng/testing/distribution-fit';
import {
  dpWholeNumber,
  wholeNumberBudgetThreshold,
  wholeNumberRowThreshold,
  wholeNumberThreshold,
} from './dp-whole-number';
import { presentValues } from './learn-domain';
import { recordingStep } from '../privacy/metered/testing';

/** P(F + Z < T) for discrete Laplace Z of scale b: from the pmf (1 − p)/(1 + p)·p^|z|, p = e^(−1/b). */
function answerWhole(nonWhole: number, threshold: number, scale: number): number {
  const p = Math.exp(-1 / scale);
  const j = threshold - nonWhole; // P(Z <= j − 1) = 1 − P(Z >= j)
  return j >= 1 ? 1 - p ** j / (1 + p) : p ** (1 - j) / (1 + p);
}

describe('whole-number flag', () => {
  it('has the threshold T = max(⌈n/200⌉, T_ε) from n and ε alone, T_ε the least T with e^(−εT) <= 1/20', () => {
    expect([0, 1, 199, 200, 201, 400, 10_000].map(wholeNumberRowThreshold)).toEqual([1, 1, 1, 1, 2, 2, 50]);
    // T_ε = ⌈ln(20)/ε⌉ = ⌈2.9957/ε⌉ away from ties: 1 at ε = 80, 2 at ε = 2, 6 at ε = 0.5, 24 at
    // ε = 0.125, 120 at ε = 0.025, 29,958 at ε = 0.0001.
    const budget = ['80', '2', '0.5', '0.125', '0.025', '0.0001'];
    expect(budget.map((e) => wholeNumberBudgetThreshold(parseRational(e)))).toEqual([
      1, 2, 6, 24, 120, 29_958,
    ]);
    // The least such T: e^(−εT) <= 1/20 < e^(−ε(T − 1)).
    for (const e of budget) {
      const epsilon = Number(e);
      const t = wholeNumberBudgetThreshold(parseRational(e));
      expect(Math.exp(-epsilon * t), e).toBeLessThanOrEqual(0.05);
      if (t > 1) expect(Math.exp(-epsilon * (t - 1)), e).toBeGreaterThan(0.05);
    }
    const cases: [number, string, number][] = [
      [150, '0.125', 24],
      [1000, '0.125', 24],
      [1000, '0.025', 120],
      [10_000, '2', 50],
      [10_000, '0.025', 120],
      [1_000_000, '0.025', 5000],
    ];
    for (const [n, e, t] of cases) expect(wholeNumberThreshold(n, parseRational(e)), `${n}, ${e}`).toBe(t);
    expect(wholeNumberBudgetThreshold(parseRational('1e-20'))).toBe(Number.MAX_SAFE_INTEGER);
    expect(() => wholeNumberBudgetThreshold(parseRational('0'))).toThrow(RangeError);
  });

  it('flags a whole column (F = 0) fractional with probability P(Z >= T) <= 1/20, where T = ⌈n/200⌉ alone gave up to 0.47 (exact)', () => {
    // P(Z >= T) = p^T/(1 + p), p = e^(−ε), from the pmf of discrete Laplace noise of scale 1/ε.
    const cases: [number, string, number][] = [
      [150, '0.125', 0.469],
      [1000, '0.125', 0.284],
      [1000, '0.025', 0.447],
      [10, '0.01', 0.4975],
      [1_000_000, '0.025', 0],
      [10_000, '2', 0],
    ];
    for (const [n, e, withoutBudget] of cases) {
      const fractional = 1 - answerWhole(0, wholeNumberThreshold(n, parseRational(e)), 1 / Number(e));
      expect(fractional, `${n}, ${e}`).toBeLessThanOrEqual(0.05);
      // Control: the threshold from n alone misses the bound at small ε.
      const before = 1 - answerWhole(0, wholeNumberRowThreshold(n), 1 / Number(e));
      expect(before, `${n}, ${e}`).toBeCloseTo(withoutBudget, 3);
    }
  });

  it('counts non-whole values that move by at most 1 between replace-one neighbours (brute force, value ↔ missing too)', () => {
    // Every table of 4 cells over {missing, a word, 3, 2.5, −0.5} and every replacement of one cell.
    const alphabet = ['', 'NA', 'x', '3', '2.5', '-0.5'];
    const missing = new Set(['', 'NA']);
    let largest = 0;
    let largestPresent = 0;
    for (let code = 0; code < alphabet.length ** 4; code++) {
      const base = [0, 1, 2, 3].map(
        (i) => alphabet[Math.floor(code / alphabet.length ** i) % alphabet.length]!,
      );
      const before = presentValues(base, missing);
      for (let row = 0; row < 4; row++) {
        for (const token of alphabet) {
          const other = [...base];
          other[row] = token;
          const after = presentValues(other, missing);
          largest = Math.max(largest, Math.abs(after.nonWhole - before.nonWhole));
          largestPresent = Math.max(largestPresent, Math.abs(after.sorted.length - before.sorted.length));
        }
      }
    }
    expect(largest).toBe(1);
    expect(largestPresent).toBe(1);
  });

  // 100,000 flags for F = 3, T = 4 at ε = 0.5 (scale 1/ε = 2): P(whole) = 1 − p/(1 + p) = 0.622
  // with p = e^(−1/2). A Bernoulli against its exact probability; the same test against twice the ε
  // (P = 0.731) and against the scale of a Δ = 2 statistic (2/ε: P = 0.562).
  const DRAWS = 100_000;
  const ALPHA = 1e-6;
  const pmf = (scale: number): IntegerPmf => {
    const yes = answerWhole(3, 4, scale);
    return { lo: 0, hi: 1, probabilities: Float64Array.from([1 - yes, yes]) };
  };
  const flags = (seed: string, epsilon: string) => {
    const rng = new SeededRng(seed);
    return () => (dpWholeNumber(recordingStep('approx-dp'), rng, 3, 4, parseRational(epsilon)) ? 1 : 0);
  };

  it('is whole with probability P(F + Z < T), Z of scale 1/ε (chi-square, α = 1e−6)', () => {
    const fit = fitDraws(flags('whole', '0.5'), DRAWS, pmf(2));
    expect(fit.pValue, `X² = ${fit.statistic}`).toBeGreaterThan(ALPHA);
  });

  it('the same test rejects twice the ε, and noise of scale 2/ε', () => {
    for (const wrong of [1, 4]) {
      const power = powerAgainst(pmf(2), pmf(wrong), DRAWS, ALPHA);
      expect(power.fiveSigmaLowerStatistic, `scale ${wrong}`).toBeGreaterThan(power.critical);
    }
    expect(fitDraws(flags('whole, twice ε', '1'), DRAWS, pmf(2)).pValue).toBeLessThan(ALPHA);
    expect(fitDraws(flags('whole, scale 2/ε', '0.25'), DRAWS, pmf(2)).pValue).toBeLessThan(ALPHA);
  });

  // A whole column (F = 0) of 150 rows at ε = 0.125: T = 24, P(fractional) = e^(−3)/(1 + e^(−1/8))
  // = 0.0265 (expected count 2,645 of 100,000, sd 51). Controls: the threshold from n alone (T = 1,
  // P = 0.469) and noise of scale 2/ε (P = 0.115) are rejected.
  const wholeColumnPmf = (threshold: number, scale: number): IntegerPmf => {
    const yes = answerWhole(0, threshold, scale);
    return { lo: 0, hi: 1, probabilities: Float64Array.from([1 - yes, yes]) };
  };

  it('calls a whole column of 150 rows whole at ε = 0.125 with probability 1 − P(Z >= 24) (chi-square, α = 1e−6)', () => {
    const epsilon = parseRational('0.125');
    const threshold = wholeNumberThreshold(150, epsilon);
    expect(threshold).toBe(24);
    const truth = wholeColumnPmf(threshold, 8);
    expect(truth.probabilities[0]).toBeCloseTo(0.02645, 5);
    const rng = new SeededRng('whole column, small ε');
    const draw =
      (t: number, e = epsilon) =>
      () =>
        dpWholeNumber(recordingStep('approx-dp'), rng, 0, t, e) ? 1 : 0;
    const fit = fitDraws(draw(threshold), DRAWS, truth);
    expect(fit.pValue, `X² = ${fit.statistic}`).toBeGreaterThan(ALPHA);
    for (const wrong of [wholeColumnPmf(1, 8), wholeColumnPmf(threshold, 16)]) {
      const power = powerAgainst(truth, wrong, DRAWS, ALPHA);
      expect(power.fiveSigmaLowerStatistic).toBeGreaterThan(power.critical);
    }
    expect(fitDraws(draw(1), DRAWS, truth).pValue).toBeLessThan(ALPHA);
    expect(fitDraws(draw(threshold, parseRational('0.0625')), DRAWS, truth).pValue).toBeLessThan(ALPHA);
  });
});
