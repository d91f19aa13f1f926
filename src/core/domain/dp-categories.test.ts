import { describe, expect, it } from 'vitest';
import { parseRational, Rational } from '../rng/rational';
import { SeededRng } from '../rng/seeded-rng';
import { fitDraws, powerAgainst, type IntegerPmf } from '../rng/testing/distribution-fit';
import { dpCategories, thresholdFor } from './dp-categories';
import { recordingStep } from '../privacy/metered/testing';

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
  it('is the least τ = 1 + j with P(Z >= j) = p^j/(1 + p) <= δ, p = e^(−ε/2) (ε = 1, δ = 1e−6: 28)', () => {
    // ε = 1, δ = 1e−6: p^27/(1 + p) = 8.6e−7 <= δ and p^26/(1 + p) = 1.4e−6 > δ, so j = 27, τ = 28
    // (the bound e^(−ε(τ−2)/2) <= δ used before gave 30).
    expect(thresholdFor(Rational.ONE, parseRational('1e-6'))).toBe(28);
    for (const [e, d] of [
      ['0.1', '1e-6'],
      ['0.025', '1e-9'],
      ['2', '0.2'],
      ['1', '0.05'],
      ['0.5', '1e-6'],
      ['4', '1e-6'],
      ['8', '1e-12'],
    ] as const) {
      const tau = thresholdFor(parseRational(e), parseRational(d));
      // The exact probability that a value held by one row is released: P(Z >= τ − 1).
      expect(survival(tau - 1, 2 / Number(e)), `${e}, ${d}`).toBeLessThanOrEqual(Number(d));
      // Minimal: one lower releases such a value with probability above δ.
      expect(survival(tau - 2, 2 / Number(e)), `${e}, ${d}`).toBeGreaterThan(Number(d));
    }
  });

  it('refuses δ = 0 with the reason', () => {
    expect(() => thresholdFor(Rational.ONE, Rational.ZERO)).toThrow(/only declared lists/);
  });

  /**
   * Every replace-one pair of datasets of 6 rows over the values {a, b, c} and missing, by their
   * counts (only the counts matter): one row moves from one group to another. The pairs are split
   * by whether the set of values seen changes (a value held by the moved row alone is removed, or
   * one is created). Returns the largest exact hockey-stick divergence
   * Σ_o max(0, P(o) − e^ε·P′(o)) over output sets o within each kind of pair.
   */
  function worstDivergence(epsilon: number, scale: number, threshold: number) {
    const rows = 6;
    const worst = { sameValuesSeen: 0, valueCreatedOrRemoved: 0 };
    for (let a = 0; a <= rows; a++) {
      for (let b = 0; a + b <= rows; b++) {
        for (let c = 0; a + b + c <= rows; c++) {
          const groups = [a, b, c, rows - a - b - c]; // the last: missing
          for (let from = 0; from < 4; from++) {
            if (groups[from] === 0) continue;
            for (let to = 0; to < 4; to++) {
              if (to === from) continue;
              const other = [...groups];
              other[from]!--;
              other[to]!++;
              const p = releasedSetPmf(groups.slice(0, 3), scale, threshold);
              const q = releasedSetPmf(other.slice(0, 3), scale, threshold);
              const divergence = p.reduce(
                (sum, pi, o) => sum + Math.max(0, pi - Math.exp(epsilon) * q[o]!),
                0,
              );
              const seen = (counts: number[]) =>
                counts
                  .slice(0, 3)
                  .map((n) => n > 0)
                  .join();
              const kind = seen(groups) === seen(other) ? 'sameValuesSeen' : 'valueCreatedOrRemoved';
              worst[kind] = Math.max(worst[kind], divergence);
            }
          }
        }
      }
    }
    return worst;
  }

  // ε = 2, δ = 0.2: τ = 3, so counts of 1 to 6 rows lie on both sides of the threshold and the
  // release probabilities are far from 0 and 1, where a wrong sensitivity or threshold shows.
  const epsilon = 2;
  const delta = 0.2;
  const tau = thresholdFor(Rational.of(epsilon), parseRational(String(delta)));

  it('is ε-DP (divergence 0 at e^ε) between neighbours that see the same values; noise for Δ = 1 is not', () => {
    expect(tau).toBe(3);
    // Two counts move by one each: each release probability moves by at most e^(ε/2) with scale 2/ε.
    expect(worstDivergence(epsilon, 2 / epsilon, tau).sameValuesSeen).toBeLessThan(1e-12);
    // Control: scale 1/ε (a sensitivity of 1) lets the two moves together exceed e^ε (0.091).
    expect(worstDivergence(epsilon, 1 / epsilon, tau).sameValuesSeen).toBeGreaterThan(0.01);
  });

  it('is (ε, δ)-DP between neighbours where the replaced row creates or removes a value, with the exact worst case P(Z >= τ − 1); τ − 1 is not', () => {
    // The derivation gives the exact worst case δ = P(Z >= τ − 1) = p²/(1 + p) = 0.0990 at τ = 3
    // (p = e^(−1)); the brute force over every pair must find exactly that, not less (a looser
    // bound would leave the threshold higher than it needs to be) and not more.
    const correct = worstDivergence(epsilon, 2 / epsilon, tau).valueCreatedOrRemoved;
    expect(correct).toBeCloseTo(survival(tau - 1, 2 / epsilon), 12);
    expect(correct).toBeLessThanOrEqual(delta);
    // Control: a threshold one lower releases a value held by one row too often (0.269 > δ), so
    // τ = 3 is the least threshold that holds.
    expect(worstDivergence(epsilon, 2 / epsilon, tau - 1).valueCreatedOrRemoved).toBeGreaterThan(delta);
  });
});

describe('thresholded histogram, exact output distribution', () => {
  // 200,000 draws of the released set of three values with counts 5, 2, 1 at ε = 2, δ = 0.2
  // (τ = 3: p²/(1 + p) = 0.099 <= δ < p/(1 + p)), against the product of the exact release
  // probabilities.
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
    expect(tau).toBe(3);
    const rng = new SeededRng('thresholded histogram');
    const fit = fitDraws(
      () => asSet(dpCategories(recordingStep('approx-dp'), rng, counts, epsilon, tau, parseRational('0.2'))),
      DRAWS,
      pmf(1),
    );
    expect(fit.pValue, `X² = ${fit.statistic}`).toBeGreaterThan(ALPHA);
  });

  it('the same test rejects noise for a sensitivity of 1 (half the scale)', () => {
    const power = powerAgainst(pmf(1), pmf(0.5), DRAWS, ALPHA);
    expect(power.fiveSigmaLowerStatistic).toBeGreaterThan(power.critical);
    const rng = new SeededRng('thresholded histogram, Δ = 1');
    const fit = fitDraws(
      () =>
        asSet(
          dpCategories(recordingStep('approx-dp'), rng, counts, Rational.of(4), tau, parseRational('0.2')),
        ),
      DRAWS,
      pmf(1),
    );
    expect(fit.pValue).toBeLessThan(ALPHA);
  });
});
