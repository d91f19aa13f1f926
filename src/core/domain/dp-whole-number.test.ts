import { describe, expect, it } from 'vitest';
import { parseRational } from '../rng/rational';
import { SeededRng } from '../rng/seeded-rng';
import { fitDraws, powerAgainst, type IntegerPmf } from '../rng/testing/distribution-fit';
import { dpWholeNumber, wholeNumberThreshold } from './dp-whole-number';
import { presentValues } from './learn-domain';

/** P(F + Z < T) for discrete Laplace Z of scale b: from the pmf (1 − p)/(1 + p)·p^|z|, p = e^(−1/b). */
function answerWhole(nonWhole: number, threshold: number, scale: number): number {
  const p = Math.exp(-1 / scale);
  const j = threshold - nonWhole; // P(Z <= j − 1) = 1 − P(Z >= j)
  return j >= 1 ? 1 - p ** j / (1 + p) : p ** (1 - j) / (1 + p);
}

describe('whole-number flag', () => {
  it('has the threshold T = max(1, ⌈n/200⌉) from n alone', () => {
    expect([0, 1, 199, 200, 201, 400, 10_000].map(wholeNumberThreshold)).toEqual([1, 1, 1, 1, 2, 2, 50]);
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
    return () => (dpWholeNumber(rng, 3, 4, parseRational(epsilon)) ? 1 : 0);
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
});
