/**
 * Empirical privacy checks of learning a schema with DP, able to fail, each with a positive control
 * that must fail.
 *
 * Category lists (src/core/domain/dp-categories.ts), ε = 1, δ = 0.05, so τ = 8 and discrete Laplace
 * noise of scale 2/ε (p = e^(−1/2)):
 * 1. A value held by one person. D has 9 rows "a" and 1 row "z"; D′ replaces the "z" row by "a".
 *    E = "z is released": P[E | D′] = 0, so (ε, δ)-DP needs P[E | D] <= δ. Exactly,
 *    P[E | D] = P(Z >= 7) = p⁷/(1 + p) = 0.0188. Control: releasing every value seen (no threshold)
 *    gives P[E | D] = 1.
 * 2. Two values seen in both. D has a: 8, b: 7; D′ moves one row from a to b. E = "a released, b
 *    not": P[E | D] = (1/(1 + p))² = 0.387, P[E | D′] = (p/(1 + p))² = 0.142, a log-ratio of exactly
 *    ε = 1 (the bound is tight). Control: noise for a sensitivity of 1 (scale 1/ε) gives (1/(1 + e⁻¹))²
 *    = 0.534 against (e⁻¹/(1 + e⁻¹))² = 0.0724, a log-ratio of 2.
 * Test: RUNS runs per side; one-sided Clopper–Pearson bounds at α = 10⁻⁶ (clopper-pearson.ts).
 * SD (delta method, √((1 − p)/(Np)) per side, N = 50,000): case 1 the lower bound of 0.0188 sits
 * about 0.0029 below it (4.75 SD of 0.0006), far under δ = 0.05; the control's is 1 − 3·10⁻⁴.
 * Case 2 correct: SD of the log-ratio 0.012, so ε̂ ≈ 1 − 0.06 < 1; control: SD 0.017, ε̂ ≈ 2 − 0.08 > 1.
 *
 * Bounds (src/core/domain/dp-quantile.ts), ε = 1: among small replace-one neighbours (value ↔ missing
 * moving the rank with the values present) the pair and candidate with the largest exact log-ratio is searched, then that event is simulated; the claim
 * says its log-ratio is at most ε. Control: the same scores with the sensitivity taken as 1/2 (the
 * mechanism run at 2ε), whose exact log-ratio on that event exceeds ε.
 */
import { describe, expect, it } from 'vitest';
import { dpCategories, thresholdFor } from '../../src/core/domain/dp-categories';
import { boundRank, boundReach, boundScores, dpBoundIndex } from '../../src/core/domain/dp-quantile';
import { recordingStep } from '../../src/core/privacy/metered/testing';
import { makeDiscreteLaplaceSampler } from '../../src/core/rng/discrete-laplace';
import { exponentialMechanismProbabilities } from '../../src/core/rng/exponential-mechanism';
import { parseRational, Rational } from '../../src/core/rng/rational';
import { SeededRng } from '../../src/core/rng/seeded-rng';
import { clopperPearsonLower, epsilonLowerBound } from './clopper-pearson';

const RUNS = 50_000;
const ALPHA = 1e-6;
const EPSILON = Rational.ONE;
const DELTA = 0.05;

function hits(
  counts: Map<string, number>,
  event: (released: string[]) => boolean,
  epsilon: Rational,
  threshold: number,
  seed: string,
): number {
  const rng = new SeededRng(seed);
  const delta = parseRational(String(DELTA));
  let n = 0;
  for (let run = 0; run < RUNS; run++) {
    if (event(dpCategories(recordingStep('approx-dp'), rng, counts, epsilon, threshold, delta))) n++;
  }
  return n;
}

/** The control without a threshold: every value seen released (a raw sampler; the metered one refuses it). */
function hitsWithoutThreshold(
  counts: Map<string, number>,
  event: (released: string[]) => boolean,
  seed: string,
): number {
  const rng = new SeededRng(seed);
  const noise = makeDiscreteLaplaceSampler(Rational.of(2).div(EPSILON));
  let n = 0;
  for (let run = 0; run < RUNS; run++) {
    const released = [...counts].filter(([, count]) => count + noise(rng) >= -Infinity).map(([v]) => v);
    if (event(released)) n++;
  }
  return n;
}

describe('category lists: empirical privacy', () => {
  const tau = thresholdFor(EPSILON, parseRational(String(DELTA)));

  it('releases a value held by one row with probability at most δ; without the threshold it would always', () => {
    // The least τ with P(Z >= τ − 1) = p^(τ−1)/(1 + p) <= δ, p = e^(−1/2): τ = 7 (p⁶/(1 + p) = 0.031).
    expect(tau).toBe(7);
    const withRare = new Map([
      ['a', 9],
      ['z', 1],
    ]);
    const rare = (released: string[]) => released.includes('z');
    const correct = clopperPearsonLower(hits(withRare, rare, EPSILON, tau, 'rare'), RUNS, ALPHA);
    expect(correct).toBeLessThanOrEqual(DELTA);
    const noThreshold = clopperPearsonLower(
      hitsWithoutThreshold(withRare, rare, 'rare, no threshold'),
      RUNS,
      ALPHA,
    );
    expect(noThreshold).toBeGreaterThan(DELTA);
  });

  it('keeps the log-ratio of an event within ε for values seen in both; noise for Δ = 1 exceeds it', () => {
    // Counts at τ and τ − 1 (τ = 7), where the release probabilities are far from 0 and 1.
    const d = new Map([
      ['a', tau],
      ['b', tau - 1],
    ]);
    const dPrime = new Map([
      ['a', tau - 1],
      ['b', tau],
    ]);
    const event = (released: string[]) => released.includes('a') && !released.includes('b');
    const estimate = (epsilon: Rational, seed: string) =>
      epsilonLowerBound(
        hits(d, event, epsilon, tau, `${seed} D`),
        hits(dPrime, event, epsilon, tau, `${seed} D'`),
        RUNS,
        ALPHA,
      );
    const correct = estimate(EPSILON, 'common');
    expect(correct).toBeLessThanOrEqual(1);
    expect(correct).toBeGreaterThan(0.8);
    // Δ = 1: scale 1/ε, i.e. the sampler called with 2ε.
    expect(estimate(Rational.of(2), 'common, Δ = 1')).toBeGreaterThan(1);
  });
});

describe('bounds: empirical privacy', () => {
  it('keeps the log-ratio of the most revealing event within ε; at half the sensitivity it exceeds ε', () => {
    // Datasets of 4 rows over {1, 2, 3} and missing; candidates 0…4; lower end; the rank and the
    // reach from the m values present, as the mechanism computes them: rank min(⌈0.005·m⌉, ⌊m/4⌋),
    // 1 with 4 values and 0 with fewer, and reach min(s, m) = m at ε = 1 (s = ⌈2·ln 500⌉ = 13), so a
    // value turning missing moves both.
    const candidates = [0, 1, 2, 3, 4];
    const q = parseRational('0.005');
    const scoresOf = (values: Float64Array) =>
      boundScores(
        values,
        boundRank(q, 'lower', values.length),
        candidates,
        'lower',
        boundReach(values.length, EPSILON, candidates.length),
      );
    const alphabet = [NaN, 1, 2, 3];
    const present = (v: number[]) => Float64Array.from(v.filter((x) => !Number.isNaN(x))).sort();
    let best = { ratio: -Infinity, d: [] as number[], dPrime: [] as number[], candidate: 0 };
    for (let code = 0; code < 4 ** 4; code++) {
      const base = [0, 1, 2, 3].map((i) => alphabet[Math.floor(code / 4 ** i) % 4]!);
      for (let row = 0; row < 4; row++) {
        for (const replacement of alphabet) {
          const other = [...base];
          other[row] = replacement;
          const p = exponentialMechanismProbabilities(scoresOf(present(base)), 1, 1);
          const q = exponentialMechanismProbabilities(scoresOf(present(other)), 1, 1);
          p.forEach((pi, i) => {
            const ratio = Math.log(pi / q[i]!);
            if (ratio > best.ratio) best = { ratio, d: base, dPrime: other, candidate: i };
          });
        }
      }
    }
    expect(best.ratio).toBeLessThanOrEqual(1 + 1e-12);
    expect(best.ratio).toBeGreaterThan(0.6);
    const count = (values: number[], epsilon: Rational, seed: string) => {
      const rng = new SeededRng(seed);
      let n = 0;
      for (let run = 0; run < RUNS; run++) {
        if (
          dpBoundIndex(recordingStep('approx-dp'), rng, present(values), q, candidates, 'lower', epsilon) ===
          best.candidate
        )
          n++;
      }
      return n;
    };
    const estimate = (epsilon: Rational, seed: string) =>
      epsilonLowerBound(
        count(best.d, epsilon, `${seed} D`),
        count(best.dPrime, epsilon, `${seed} D'`),
        RUNS,
        ALPHA,
      );
    expect(estimate(EPSILON, 'bound')).toBeLessThanOrEqual(1);
    expect(estimate(Rational.of(2), 'bound, half the sensitivity')).toBeGreaterThan(1);
  });
});
