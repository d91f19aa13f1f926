import { describe, expect, it } from 'vitest';
import { exponentialMechanismProbabilities } from '../rng/exponential-mechanism';
import { parseRational, Rational } from '../rng/rational';
import { SeededRng } from '../rng/seeded-rng';
import { fitDraws, powerAgainst, type IntegerPmf } from '../rng/testing/distribution-fit';
import {
  boundRank,
  boundReach,
  boundScores,
  dpBoundIndex,
  FAR_BOUND_PROBABILITY,
  safeBoundRank,
  type BoundEnd,
} from './dp-quantile';
import { recordingStep } from '../privacy/metered/testing';

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
   * rank computed from each dataset's own count m of values present by `rankOf`, and the reach by
   * `reachOf` (default: the rank, which leaves the rank terms alone).
   */
  function largestMove(
    end: BoundEnd,
    rankOf: (m: number) => number,
    reachOf: (m: number) => number = rankOf,
  ): number {
    const alphabet = [NaN, 1, 2, 3];
    const candidates = [0, 1, 1.5, 2, 2.5, 3, 4];
    const rows = 5;
    const present = (v: number[]) => sorted(v.filter((x) => !Number.isNaN(x)));
    const scoresOf = (v: number[]) => {
      const values = present(v);
      return boundScores(values, rankOf(values.length), candidates, end, reachOf(values.length));
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
    // boundRank itself.
    const rules: Record<string, (m: number) => number> = {
      'm (every value)': (m) => m,
      '⌈0.3·m⌉': (m) => Math.ceil(0.3 * m),
      '⌊m/4⌋': (m) => Math.floor(m / 4),
      'max(⌈0.3·m⌉, 2), at most ⌊m/2⌋': (m) => Math.min(Math.max(Math.ceil(0.3 * m), 2), Math.floor(m / 2)),
      'boundRank, lower': (m) => boundRank(q, 'lower', m),
      'boundRank, upper': (m) => boundRank(parseRational('0.9'), 'upper', m),
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

  it('moves by at most Δ = 1 with the reach terms, as dpBoundIndex scores; a reach that falls or jumps gives Δ = 2', () => {
    // The 5-row datasets over {missing, 1, 2, 3} on 7 candidates, with the rank of boundRank and
    // reaches that never fall and rise by at most 1: constants (the reach terms then bind for
    // every cell beyond the data), m, and boundReach itself at ε where s is 1, 2 and 44.
    const rankOf = (m: number) => boundRank(parseRational('0.3'), 'lower', m);
    const upperRankOf = (m: number) => boundRank(parseRational('0.7'), 'upper', m);
    const reaches: Record<string, (m: number) => number> = {
      '3': () => 3,
      '5': () => 5,
      m: (m) => m,
      'boundReach, ε = 20': (m) => boundReach(m, Rational.of(20), 7),
      'boundReach, ε = 10': (m) => boundReach(m, Rational.of(10), 7),
      'boundReach, ε = 0.3': (m) => boundReach(m, parseRational('0.3'), 7),
    };
    expect(safeBoundRank(Rational.of(20), 7)).toBe(1);
    expect(safeBoundRank(Rational.of(10), 7)).toBe(2);
    expect(safeBoundRank(parseRational('0.3'), 7)).toBe(44);
    for (const end of ['lower', 'upper'] as BoundEnd[]) {
      const rank = end === 'lower' ? rankOf : upperRankOf;
      for (const [name, reach] of Object.entries(reaches)) {
        expect(largestMove(end, rank, reach), `${end}, reach ${name}`).toBe(1);
      }
      // Controls: a reach that falls as m rises, or rises by 2, moves a score by 2.
      expect(largestMove(end, rank, (m) => Math.max(0, 6 - m))).toBe(2);
      expect(largestMove(end, rank, (m) => 2 * m)).toBe(2);
    }
  });

  it('with the reach, cells beyond the data lose one per cell up to −R; cells where each holds a value keep the rank score', () => {
    // Values 10, 11, …, 19 on candidates 0, 1, …, 29 (each value fills its own cell), rank 2,
    // reach 6: lower end, cell 10 + k holds ranks [k, k + 1] → −max(k − 2, 1 − k, 0); the cell t
    // below the data (9 − t + 1 = 10 − t) scores −max(2, min(2 + t − 1, 6)): −2, −3, −4, −5, −6, −6, ….
    const values = sorted(Array.from({ length: 10 }, (_, i) => 10 + i));
    const candidates = Array.from({ length: 30 }, (_, i) => i);
    const scores = boundScores(values, 2, candidates, 'lower', 6);
    expect(scores.slice(0, 10)).toEqual([-6, -6, -6, -6, -6, -6, -5, -4, -3, -2]);
    expect(scores.slice(10, 20)).toEqual([-1, 0, 0, -1, -2, -3, -4, -5, -6, -7]);
    // Past the data's far end every cell holds [10, 10]: −(10 − 2).
    expect(scores.slice(20)).toEqual(Array.from({ length: 10 }, () => -8));
    // Without the reach (R = r) every cell below the data scores −2: the old rank score.
    expect(boundScores(values, 2, candidates, 'lower').slice(0, 10)).toEqual(
      Array.from({ length: 10 }, () => -2),
    );
    // Upper end, the mirror image: 29 − i ↔ i.
    const mirrored = sorted(Array.from({ length: 10 }, (_, i) => 29 - (10 + i)));
    expect(boundScores(mirrored, 2, candidates, 'upper', 6)).toEqual([...scores].reverse());
  });

  it('a sparse tail moves the bound inward: the reach asks one more value per cell', () => {
    // One value at 3, five at 2, 24 at 1, 100 at 0 (the shape of a count of previous births), upper
    // end, rank 5, reach 8, candidates 0, 1, 1.2, 1.5, 2, 2.5, 3, 4: the cell (1.5, 2] holds the
    // ranks [1, 6] above, but the cells inward of it add no value down to 1, so with j = 3 the
    // reach asks min(5 + 3 − 1, 8) = 7 values above 1 and finds 6: −1, tied with the cells down to 1.
    const values = sorted([3, ...Array(5).fill(2), ...Array(24).fill(1), ...Array(100).fill(0)]);
    const candidates = [0, 1, 1.2, 1.5, 2, 2.5, 3, 4];
    expect(boundScores(values, 5, candidates, 'upper', 8)).toEqual([-25, -1, -1, -1, -1, -4, -5, -6]);
    // The rank alone (R = r) gives the cell (1.5, 2] 0.
    expect(boundScores(values, 5, candidates, 'upper')).toEqual([-25, -1, -1, -1, 0, -4, -4, -5]);
  });

  it('boundRank and boundReach never fall and rise by at most 1 when one more value is present (m = 0 … 20,000)', () => {
    for (const [q, end] of [
      ['0.025', 'lower'],
      ['0.975', 'upper'],
      ['0.005', 'lower'],
      ['0.3', 'lower'],
      ['0.9', 'upper'],
    ] as const) {
      let previous = boundRank(parseRational(q), end, 0);
      expect(previous).toBe(0);
      for (let m = 1; m <= 20_000; m++) {
        const rank = boundRank(parseRational(q), end, m);
        const step = rank - previous;
        if (step !== 0 && step !== 1) throw new Error(`q ${q}: rank moves by ${step} at m = ${m}`);
        previous = rank;
      }
    }
    for (const epsilon of ['0.01', '0.1', '1', '20']) {
      let previous = boundReach(0, parseRational(epsilon), 363);
      expect(previous).toBe(0);
      for (let m = 1; m <= 20_000; m++) {
        const reach = boundReach(m, parseRational(epsilon), 363);
        const step = reach - previous;
        if (step !== 0 && step !== 1) throw new Error(`ε ${epsilon}: reach moves by ${step} at m = ${m}`);
        previous = reach;
      }
    }
  });

  it('aims at ⌈q·m⌉ of the m values present (at most m/4); the reach is s = ⌈(2/ε)·ln(K/β)⌉, at most m', () => {
    const q = parseRational('0.025');
    expect(boundRank(q, 'lower', 189)).toBe(5); // ⌈4.725⌉
    expect(boundRank(parseRational('0.975'), 'upper', 189)).toBe(5);
    expect(boundRank(parseRational('0.005'), 'lower', 30_000)).toBe(150);
    // Never past a quarter of the values present.
    expect(boundRank(parseRational('0.3'), 'lower', 100)).toBe(25);
    // 363·e^(−ε·s/2) <= β needs s >= (2/ε)·ln(363/β) = 20·ln(36300) = 209.9 → 210 at ε = 0.1.
    const reach = boundReach(30_000, parseRational('0.1'), 363);
    expect(reach).toBe(210);
    expect(363 * Math.exp((-0.1 * reach) / 2)).toBeLessThanOrEqual(FAR_BOUND_PROBABILITY);
    expect(363 * Math.exp((-0.1 * (reach - 1)) / 2)).toBeGreaterThan(FAR_BOUND_PROBABILITY);
    expect(boundReach(100, parseRational('0.1'), 363)).toBe(100);
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
    // The scores dpBoundIndex uses at ε = 0.8: rank 2, reach 8 (below).
    const scores = boundScores(values, 2, candidates, 'lower', 8);
    return {
      lo: 0,
      hi: candidates.length - 1,
      probabilities: Float64Array.from(exponentialMechanismProbabilities(scores, epsilon, sensitivity)),
    };
  }

  // Of 8 values at q = 0.3 the rank is min(⌈2.4⌉, ⌊8/4⌋) = 2; at ε = 0.8, s = ⌈2.5·ln 700⌉ = 17 is
  // capped at m = 8.
  const q = parseRational('0.3');

  it("draws candidates with the exponential mechanism's probabilities (chi-square, α = 1e−6)", () => {
    expect(boundRank(q, 'lower', values.length)).toBe(2);
    expect(boundReach(values.length, parseRational('0.8'), candidates.length)).toBe(8);
    const rng = new SeededRng('dp bound');
    const epsilon = parseRational('0.8');
    const fit = fitDraws(
      () => dpBoundIndex(recordingStep('approx-dp'), rng, values, q, candidates, 'lower', epsilon),
      DRAWS,
      pmfAt(0.8),
    );
    expect(fit.pValue, `X² = ${fit.statistic}`).toBeGreaterThan(ALPHA);
  });

  it('the same test rejects the mechanism run with half the sensitivity (twice the ε)', () => {
    const power = powerAgainst(pmfAt(0.8), pmfAt(0.8, 0.5), DRAWS, ALPHA);
    expect(power.fiveSigmaLowerStatistic).toBeGreaterThan(power.critical);
    const rng = new SeededRng('dp bound, half the sensitivity');
    const fit = fitDraws(
      () =>
        dpBoundIndex(recordingStep('approx-dp'), rng, values, q, candidates, 'lower', parseRational('1.6')),
      DRAWS,
      pmfAt(0.8),
    );
    expect(fit.pValue).toBeLessThan(ALPHA);
  });
});
