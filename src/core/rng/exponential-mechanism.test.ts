import { describe, expect, it } from 'vitest';
import { sqrtRationalDown } from '../privacy/round-up';
import {
  exponentialMechanismProbabilities,
  sampleExponentialMechanism,
  sampleExponentialMechanismBig,
} from './exponential-mechanism';
import { parseRational, Rational } from './rational';
import { SeededRng } from './seeded-rng';
import { fitDraws, powerAgainst, type IntegerPmf } from './testing/distribution-fit';

const ALPHA = 1e-6;
const DRAWS = 200_000;

/** Scores in grid units (Δ = 2 counts = 2·2^20 units), spread so that every candidate has visible mass. */
const GRID = 2 ** 20;
const SCORES = [0, 1.5, 3, 4, 6.5, 7].map((q) => q * GRID);
const SENSITIVITY = 2 * GRID;

function pmfAt(epsilon: number): IntegerPmf {
  return {
    lo: 0,
    hi: SCORES.length - 1,
    probabilities: Float64Array.from(exponentialMechanismProbabilities(SCORES, epsilon, SENSITIVITY)),
  };
}

describe('exact exponential mechanism', () => {
  const epsilon = parseRational('1.1');

  it('draws candidates with probability ∝ exp(ε·q/(2Δ)) (chi-square, α = 1e−6)', () => {
    const rng = new SeededRng('exponential mechanism');
    const fit = fitDraws(
      () => sampleExponentialMechanism(rng, SCORES, epsilon, SENSITIVITY),
      DRAWS,
      pmfAt(1.1),
    );
    expect(fit.pValue, `X² = ${fit.statistic}`).toBeGreaterThan(ALPHA);
  });

  it('the same test rejects the mechanism run at 1.3 ε', () => {
    // Power: λ from the two pmfs; the alternative's X² must sit 5 sd above the critical value.
    const power = powerAgainst(pmfAt(1.1), pmfAt(1.43), DRAWS, ALPHA);
    expect(power.fiveSigmaLowerStatistic).toBeGreaterThan(power.critical);
    const rng = new SeededRng('exponential mechanism at 1.3 ε');
    const fit = fitDraws(
      () => sampleExponentialMechanism(rng, SCORES, parseRational('1.43'), SENSITIVITY),
      DRAWS,
      pmfAt(1.1),
    );
    expect(fit.pValue).toBeLessThan(ALPHA);
  });

  it('returns the only candidate, and refuses bad input with a sentence', () => {
    const rng = new SeededRng(1);
    expect(sampleExponentialMechanism(rng, [5], epsilon, 2)).toBe(0);
    expect(() => sampleExponentialMechanism(rng, [], epsilon, 2)).toThrow(/at least one candidate/);
    expect(() => sampleExponentialMechanism(rng, [0.5, 1], epsilon, 2)).toThrow(/safe integer/);
    expect(() => sampleExponentialMechanism(rng, [1, 2], epsilon, 0)).toThrow(/positive whole number/);
  });

  it('with ε = 0 draws uniformly', () => {
    const rng = new SeededRng('uniform');
    const pmf: IntegerPmf = { lo: 0, hi: 3, probabilities: Float64Array.from([0.25, 0.25, 0.25, 0.25]) };
    const fit = fitDraws(
      () => sampleExponentialMechanism(rng, [0, 9, 99, 999], Rational.ZERO, 1),
      40_000,
      pmf,
    );
    expect(fit.pValue).toBeGreaterThan(ALPHA);
  });
});

describe('exact exponential mechanism with bigint scores', () => {
  const epsilon = parseRational('1.1');
  // The same gaps as SCORES, scaled by 2^40 with Δ scaled alike, and shifted past 2^53: the distribution
  // depends only on ε·(q_max − qᵢ)/(2Δ), so it is pmfAt(1.1) again.
  const SCALE = 2n ** 40n;
  const SHIFT = 2n ** 70n;
  const BIG_SCORES = SCORES.map((q) => SHIFT + BigInt(q) * SCALE);
  const BIG_SENSITIVITY = BigInt(SENSITIVITY) * SCALE;

  it('draws candidates with probability ∝ exp(ε·q/(2Δ)) beyond 2^53 (chi-square, α = 1e−6)', () => {
    const rng = new SeededRng('exponential mechanism, bigint');
    const fit = fitDraws(
      () => sampleExponentialMechanismBig(rng, BIG_SCORES, epsilon, BIG_SENSITIVITY),
      DRAWS,
      pmfAt(1.1),
    );
    expect(fit.pValue, `X² = ${fit.statistic}`).toBeGreaterThan(ALPHA);
  });

  it('the same test rejects it with the sensitivity halved (ε doubled in effect)', () => {
    const rng = new SeededRng('exponential mechanism, bigint, half Δ');
    const fit = fitDraws(
      () => sampleExponentialMechanismBig(rng, BIG_SCORES, epsilon, BIG_SENSITIVITY / 2n),
      DRAWS,
      pmfAt(1.1),
    );
    expect(fit.pValue).toBeLessThan(ALPHA);
  });

  it('makes the same draws as the number form on safe integers, and refuses bad input', () => {
    const [a, b] = [new SeededRng('same'), new SeededRng('same')];
    const drawsOf = (draw: () => number) => Array.from({ length: 200 }, draw);
    expect(
      drawsOf(() => sampleExponentialMechanismBig(a, SCORES.map(BigInt), epsilon, BigInt(SENSITIVITY))),
    ).toEqual(drawsOf(() => sampleExponentialMechanism(b, SCORES, epsilon, SENSITIVITY)));
    const rng = new SeededRng(1);
    expect(() => sampleExponentialMechanismBig(rng, [], epsilon, 2n)).toThrow(/at least one candidate/);
    expect(() => sampleExponentialMechanismBig(rng, [1n, 2n], epsilon, 0n)).toThrow(/positive whole number/);
  });
});

describe('sqrtRationalDown', () => {
  it('is the largest decimal of the given digits whose square does not exceed the argument', () => {
    expect(sqrtRationalDown(Rational.of(2), 3).toString()).toBe('141/100');
    expect(sqrtRationalDown(Rational.of(4), 12).toString()).toBe('2');
    expect(sqrtRationalDown(Rational.of(1, 100), 5).toString()).toBe('1/10');
    const r = parseRational('0.000123456789');
    const root = sqrtRationalDown(r, 12);
    expect(root.mul(root).compare(r)).toBeLessThanOrEqual(0);
    const next = root.add(Rational.of(1, 10n ** 13n)); // one unit in the 12th digit (root ≈ 0.0111…)
    expect(next.mul(next).compare(r)).toBe(1);
  });
});

describe('exact exponential mechanism: the best score anywhere in the list', () => {
  // Scores (4, 0, 2), ε = 1, Δ = 1: P ∝ (e², 1, e) = (0.6652, 0.0900, 0.2447). With the best score
  // taken as the last one instead of the largest, P ∝ (1, e^−1, 1) = (0.42, 0.16, 0.42): the power
  // check below shows the chi-square test at α = 1e−6 with 20,000 draws tells them apart.
  const scores = [4, 0, 2];
  const exact = (): IntegerPmf => ({
    lo: 0,
    hi: 2,
    probabilities: Float64Array.from(exponentialMechanismProbabilities(scores, 1, 1)),
  });

  it('has the known probabilities, also for scores whose exponentials overflow', () => {
    const total = Math.exp(2) + 1 + Math.exp(1);
    const p = exponentialMechanismProbabilities(scores, 1, 1);
    expect(p[0]).toBeCloseTo(Math.exp(2) / total, 12);
    expect(p[1]).toBeCloseTo(1 / total, 12);
    // (1000, 998): e^500 overflows, the ratio e^−1 does not: P = (1/(1 + e^−1), e^−1/(1 + e^−1)).
    const large = exponentialMechanismProbabilities([1000, 998], 1, 1);
    expect(large[0]).toBeCloseTo(1 / (1 + Math.exp(-1)), 12);
    expect(large[1]).toBeCloseTo(Math.exp(-1) / (1 + Math.exp(-1)), 12);
  });

  it('draws with those probabilities, in number and in bigint form (chi-square, α = 1e−6)', () => {
    const lastAsBest: IntegerPmf = {
      lo: 0,
      hi: 2,
      probabilities: Float64Array.of(1, Math.exp(-1), 1).map((w) => w / (2 + Math.exp(-1))),
    };
    const power = powerAgainst(exact(), lastAsBest, 20_000, ALPHA);
    expect(power.fiveSigmaLowerStatistic).toBeGreaterThan(power.critical);
    const rng = new SeededRng('best first');
    const fit = fitDraws(() => sampleExponentialMechanism(rng, scores, Rational.ONE, 1), 20_000, exact());
    expect(fit.pValue, `X² = ${fit.statistic}`).toBeGreaterThan(ALPHA);
    const big = fitDraws(
      () => sampleExponentialMechanismBig(rng, scores.map(BigInt), Rational.ONE, 1n),
      20_000,
      exact(),
    );
    expect(big.pValue, `X² = ${big.statistic}`).toBeGreaterThan(ALPHA);
  });
});
