import { describe, expect, it } from 'vitest';
import { parseRational, Rational } from '../rng/rational';
import { SeededRng } from '../rng/seeded-rng';
import { fitDraws, powerAgainst, type IntegerPmf } from '../rng/testing/distribution-fit';
import { dpCategories, thresholdFor } from './dp-categories';

/** P(Z >= j) for discrete Laplace noise of scale b, from its pmf (1 − p)/(1 + p)·p^|z|, p = e^(−1/b). */
function survival(j: number, scale: number): number {
  const p = Math.exp(-1 / scale);
  return j >= 1 ? p ** j / (1 + p) : 1 - p ** (1 - j) / (1 + p);
}

/**
 * The exact distribution of the released set over `values` (bit i set: values[i] released):
 * independent releases, value i with probability P(count_i + Z >= τ); values with count 0 are never
 * seen, so never released.
 */
function releasedSetPmf(counts: number[], scale: number, threshold: number): number[] {
  const release = counts.map((c) => (c === 0 ? 0 : survival(threshold - c, scale)));
  return Array.from({ length: 2 ** counts.length }, (_, set) =>
    release.reduce((prob, r, i) => prob * ((set >> i) & 1 ? r : 1 - r), 1),
  );
}

describe('category threshold', () => {
  it('is the least τ = 2 + j with e^(εj/2) >= 1/δ (ε = 1, δ = 1e−6: j = ⌈2·ln 10⁶⌉ = 28)', () => {
    expect(thresholdFor(Rational.ONE, parseRational('1e-6'))).toBe(30);
    for (const [e, d] of [
      ['0.1', '1e-6'],
      ['0.025', '1e-9'],
      ['2', '0.2'],
      ['1', '0.05'],
    ] as const) {
      const tau = thresholdFor(parseRational(e), parseRational(d));
      const j = tau - 2;
      expect(Math.exp((Number(e) * j) / 2), `${e}, ${d}`).toBeGreaterThanOrEqual(1 / Number(d));
      expect(Math.exp((Number(e) * (j - 1)) / 2), `${e}, ${d}`).toBeLessThan(1 / Number(d));
    }
  });

  it('refuses δ = 0 with the reason', () => {
    expect(() => thresholdFor(Rational.ONE, Rational.ZERO)).toThrow(/only declared lists/);
  });

  it('is (ε, δ)-DP between every pair of replace-one neighbours of small datasets (exact hockey-stick divergence)', () => {
    // Datasets of 3 rows over the values {a, b, c} and missing; every replacement of one row. The
    // largest Σ_o max(0, P(o) − e^ε·P′(o)) over output sets o must stay within δ, and must use some
    // of it (a value held by one row makes δ necessary).
    const epsilon = 1;
    const delta = 0.05;
    const tau = thresholdFor(Rational.ONE, parseRational(String(delta)));
    const scale = 2 / epsilon;
    let worst = 0;
    const alphabet = [-1, 0, 1, 2]; // −1: missing
    const countsOf = (rows: number[]) => [0, 1, 2].map((v) => rows.filter((r) => r === v).length);
    for (let code = 0; code < 4 ** 3; code++) {
      const rows = [0, 1, 2].map((i) => alphabet[Math.floor(code / 4 ** i) % 4]!);
      for (let row = 0; row < 3; row++) {
        for (const replacement of alphabet) {
          const other = [...rows];
          other[row] = replacement;
          const p = releasedSetPmf(countsOf(rows), scale, tau);
          const q = releasedSetPmf(countsOf(other), scale, tau);
          const divergence = p.reduce((sum, pi, o) => sum + Math.max(0, pi - Math.exp(epsilon) * q[o]!), 0);
          worst = Math.max(worst, divergence);
        }
      }
    }
    expect(worst).toBeLessThanOrEqual(delta);
    expect(worst).toBeGreaterThan(0);
  });
});

describe('thresholded histogram, exact output distribution', () => {
  // 200,000 draws of the released set of three values with counts 5, 2, 1 at ε = 2, δ = 0.2
  // (τ = 2 + ⌈2·ln 5 / 2⌉ = 4), against the product of the exact release probabilities.
  const DRAWS = 200_000;
  const ALPHA = 1e-6;
  const counts = new Map([
    ['a', 5],
    ['b', 2],
    ['c', 1],
  ]);
  const epsilon = Rational.of(2);
  const tau = thresholdFor(epsilon, parseRational('0.2'));
  const pmf = (scale: number): IntegerPmf => ({
    lo: 0,
    hi: 7,
    probabilities: Float64Array.from(releasedSetPmf([5, 2, 1], scale, tau)),
  });
  const asSet = (released: string[]) =>
    ['a', 'b', 'c'].reduce((set, v, i) => set | (released.includes(v) ? 1 << i : 0), 0);

  it('releases each seen value with probability P(count + Z >= τ), independently (chi-square, α = 1e−6)', () => {
    expect(tau).toBe(4);
    const rng = new SeededRng('thresholded histogram');
    const fit = fitDraws(() => asSet(dpCategories(rng, counts, epsilon, tau)), DRAWS, pmf(1));
    expect(fit.pValue, `X² = ${fit.statistic}`).toBeGreaterThan(ALPHA);
  });

  it('the same test rejects noise for a sensitivity of 1 (half the scale)', () => {
    const power = powerAgainst(pmf(1), pmf(0.5), DRAWS, ALPHA);
    expect(power.fiveSigmaLowerStatistic).toBeGreaterThan(power.critical);
    const rng = new SeededRng('thresholded histogram, Δ = 1');
    const fit = fitDraws(() => asSet(dpCategories(rng, counts, Rational.of(4), tau)), DRAWS, pmf(1));
    expect(fit.pValue).toBeLessThan(ALPHA);
  });
});
