import { describe, expect, it } from 'vitest';
import { exponentialMechanismProbabilities } from '../rng/exponential-mechanism';
import { parseRational, Rational } from '../rng/rational';
import { SeededRng } from '../rng/seeded-rng';
import { fitDraws, powerAgainst, type IntegerPmf } from '../rng/testing/distribution-fit';
import { boundRank, boundScores, dpBoundIndex, FAR_BOUND_PROBABILITY, type BoundEnd } from './dp-quantile';

const sorted = (values: number[]) => Float64Array.from(values).sort();

describe('bound scores', () => {
  it('score −(distance from the rank to the ranks a cell holds), worked by hand', () => {
    // Values 1, 2, 2, 3, 7; candidates 0, 2, 4, 8; rank 1.
    // lower: cells [0,2) [2,4) [4,8) [8,∞) hold ranks below [0,1] [1,4] [4,5] [5,5] → 0, 0, −3, −4.
    // upper: cells (−∞,0] (0,2] (2,4] (4,8] hold ranks above [5,5] [2,5] [1,2] [0,1] → −4, −1, 0, 0.
    const values = sorted([1, 2, 2, 3, 7]);
    expect(boundScores(values, 1, [0, 2, 4, 8], 'lower')).toEqual([0, 0, -3, -4]);
    expect(boundScores(values, 1, [0, 2, 4, 8], 'upper')).toEqual([-4, -1, 0, 0]);
  });

  it('a readable candidate just below the data beats every candidate further below', () => {
    // Rank 3 of 100 values spread over 1001…1100: the cell [1000, 1200) holds it, the cells below do not.
    const values = sorted(Array.from({ length: 100 }, (_, i) => 1001 + i));
    const scores = boundScores(values, 3, [-1e6, 0, 800, 1000, 1200], 'lower');
    expect(scores).toEqual([-3, -3, -3, 0, -97]);
  });

  /**
   * The largest move of any score between replace-one neighbours, over every dataset of 5 rows over
   * {missing, 1, 2, 3} and every replacement of one row (value → value, value ↔ missing), with the
   * rank computed from each dataset's own count m of values present by `rankOf`.
   */
  function largestMove(end: BoundEnd, rankOf: (m: number) => number): number {
    const alphabet = [NaN, 1, 2, 3];
    const candidates = [0, 1, 1.5, 2, 2.5, 3, 4];
    const rows = 5;
    const present = (v: number[]) => sorted(v.filter((x) => !Number.isNaN(x)));
    const scoresOf = (v: number[]) => {
      const values = present(v);
      return boundScores(values, rankOf(values.length), candidates, end);
    };
    let largest = 0;
    for (let code = 0; code < 4 ** rows; code++) {
      const base = Array.from({ length: rows }, (_, i) => alphabet[Math.floor(code / 4 ** i) % 4]!);
      const s1 = scoresOf(base);
      for (let row = 0; row < rows; row++) {
        for (const replacement of alphabet) {
          const other = [...base];
          other[row] = replacement;
          const s2 = scoresOf(other);
          s1.forEach((s, i) => (largest = Math.max(largest, Math.abs(s - s2[i]!))));
        }
      }
    }
    return largest;
  }

  it('moves by at most Δ = 1 between any replace-one neighbours at a fixed rank, and by exactly 1 for some (brute force)', () => {
    for (const end of ['lower', 'upper'] as BoundEnd[]) {
      for (let rank = 0; rank <= 4; rank++) {
        expect(
          largestMove(end, () => rank),
          `${end}, rank ${rank}`,
        ).toBe(1);
      }
    }
  });

  it('moves by at most Δ = 1 when the rank follows m the way boundRank does; a rank that falls or jumps gives Δ = 2', () => {
    const q = parseRational('0.3');
    // Rules that never fall and rise by at most 1 per value: the shapes of boundRank's terms, and
    // boundRank itself where its cap m/4 and its floor s both bind (s = ⌈2·ln(7/β)/ε⌉ = 1 at ε = 20).
    const rules: Record<string, (m: number) => number> = {
      'm (every value)': (m) => m,
      '⌈0.3·m⌉': (m) => Math.ceil(0.3 * m),
      '⌊m/4⌋': (m) => Math.floor(m / 4),
      'max(⌈0.3·m⌉, 2), at most ⌊m/2⌋': (m) => Math.min(Math.max(Math.ceil(0.3 * m), 2), Math.floor(m / 2)),
      'boundRank, ε = 20': (m) => boundRank(q, 'lower', m, Rational.of(20), 7),
      'boundRank, ε = 0.1': (m) => boundRank(q, 'upper', m, parseRational('0.1'), 7),
    };
    for (const end of ['lower', 'upper'] as BoundEnd[]) {
      for (const [name, rule] of Object.entries(rules)) {
        expect(largestMove(end, rule), `${end}, ${name}`).toBe(1);
      }
      // Controls: the test sees a rank that falls as m rises, or rises by 2.
      expect(
        largestMove(end, (m) => Math.max(0, 4 - m)),
        `${end}, falling`,
      ).toBe(2);
      expect(
        largestMove(end, (m) => Math.min(2 * m, 4)),
        `${end}, rising by 2`,
      ).toBe(2);
    }
  });

  it('boundRank never falls and rises by at most 1 when one more value is present (m = 0 … 20,000)', () => {
    for (const [q, end] of [
      ['0.005', 'lower'],
      ['0.995', 'upper'],
      ['0.3', 'lower'],
      ['0.9', 'upper'],
    ] as const) {
      for (const epsilon of ['0.01', '0.1', '1', '20']) {
        let previous = boundRank(parseRational(q), end, 0, parseRational(epsilon), 363);
        expect(previous).toBe(0);
        for (let m = 1; m <= 20_000; m++) {
          const rank = boundRank(parseRational(q), end, m, parseRational(epsilon), 363);
          const step = rank - previous;
          if (step !== 0 && step !== 1)
            throw new Error(`q ${q}, ε ${epsilon}: rank moves by ${step} at m = ${m}`);
          previous = rank;
        }
      }
    }
  });

  it('aims at ⌈q·m⌉ of the m values present, moved inward so that every cell beyond the data together keeps at most β', () => {
    const q = parseRational('0.005');
    // Large ε·n: the quantile itself (0.005·30000 = 150; 0.005 from the top for 0.995).
    expect(boundRank(q, 'lower', 30_000, Rational.of(2), 363)).toBe(150);
    expect(boundRank(parseRational('0.995'), 'upper', 30_000, Rational.of(2), 363)).toBe(150);
    // Small ε: 363·e^(−ε·rank/2) <= β needs rank >= (2/ε)·ln(363/β) = 20·ln(36300) = 209.9 → 210.
    const rank = boundRank(q, 'lower', 30_000, parseRational('0.1'), 363);
    expect(rank).toBe(210);
    expect(363 * Math.exp((-0.1 * rank) / 2)).toBeLessThanOrEqual(FAR_BOUND_PROBABILITY);
    // Never past a quarter of the values present.
    expect(boundRank(q, 'lower', 100, parseRational('0.1'), 363)).toBe(25);
  });
});

describe('DP bound, exact exponential mechanism', () => {
  // 200,000 draws over 7 candidates; the pmf is written from the definition
  // P(i) ∝ exp(ε·score(i)/2), not from the sampler.
  const DRAWS = 200_000;
  const ALPHA = 1e-6;
  const values = sorted([1, 2, 2, 3, 3, 3, 4, 5]);
  const candidates = [0, 1, 2, 3, 4, 5, 6];

  function pmfAt(epsilon: number, sensitivity = 1): IntegerPmf {
    const scores = boundScores(values, 2, candidates, 'lower');
    return {
      lo: 0,
      hi: candidates.length - 1,
      probabilities: Float64Array.from(exponentialMechanismProbabilities(scores, epsilon, sensitivity)),
    };
  }

  // Of 8 values at ε = 0.8 the rank is ⌊8/4⌋ = 2 (s = ⌈2.5·ln 700⌉ = 17 is capped at m/4).
  const q = parseRational('0.005');

  it("draws candidates with the exponential mechanism's probabilities (chi-square, α = 1e−6)", () => {
    expect(boundRank(q, 'lower', values.length, parseRational('0.8'), candidates.length)).toBe(2);
    const rng = new SeededRng('dp bound');
    const epsilon = parseRational('0.8');
    const fit = fitDraws(() => dpBoundIndex(rng, values, q, candidates, 'lower', epsilon), DRAWS, pmfAt(0.8));
    expect(fit.pValue, `X² = ${fit.statistic}`).toBeGreaterThan(ALPHA);
  });

  it('the same test rejects the mechanism run with half the sensitivity (twice the ε)', () => {
    const power = powerAgainst(pmfAt(0.8), pmfAt(0.8, 0.5), DRAWS, ALPHA);
    expect(power.fiveSigmaLowerStatistic).toBeGreaterThan(power.critical);
    const rng = new SeededRng('dp bound, half the sensitivity');
    const fit = fitDraws(
      () => dpBoundIndex(rng, values, q, candidates, 'lower', parseRational('1.6')),
      DRAWS,
      pmfAt(0.8),
    );
    expect(fit.pValue).toBeLessThan(ALPHA);
  });
});
