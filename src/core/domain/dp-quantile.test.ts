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

  it('moves by at most Δ = 1 between any replace-one neighbours, and by exactly 1 for some (brute force)', () => {
    // Every dataset of 4 rows over {missing, 1, 2, 3} and every replacement of one row; ranks 0…3.
    const alphabet = [NaN, 1, 2, 3];
    const candidates = [0, 1, 1.5, 2, 2.5, 3, 4];
    const present = (v: number[]) => sorted(v.filter((x) => !Number.isNaN(x)));
    for (const end of ['lower', 'upper'] as BoundEnd[]) {
      for (let rank = 0; rank <= 3; rank++) {
        let largest = 0;
        for (let code = 0; code < 4 ** 4; code++) {
          const base = [0, 1, 2, 3].map((i) => alphabet[Math.floor(code / 4 ** i) % 4]!);
          for (let row = 0; row < 4; row++) {
            for (const replacement of alphabet) {
              const other = [...base];
              other[row] = replacement;
              const s1 = boundScores(present(base), rank, candidates, end);
              const s2 = boundScores(present(other), rank, candidates, end);
              s1.forEach((s, i) => (largest = Math.max(largest, Math.abs(s - s2[i]!))));
            }
          }
        }
        expect(largest, `${end}, rank ${rank}`).toBe(1);
      }
    }
  });

  it('aims at ⌈q·n⌉ rows, moved inward so that every cell beyond the data together keeps at most β', () => {
    const q = parseRational('0.005');
    // Large ε·n: the quantile itself (0.005·30000 = 150; 0.005 from the top for 0.995).
    expect(boundRank(q, 'lower', 30_000, Rational.of(2), 363)).toBe(150);
    expect(boundRank(parseRational('0.995'), 'upper', 30_000, Rational.of(2), 363)).toBe(150);
    // Small ε: 363·e^(−ε·rank/2) <= β needs rank >= (2/ε)·ln(363/β) = 20·ln(36300) = 209.9 → 210.
    const rank = boundRank(q, 'lower', 30_000, parseRational('0.1'), 363);
    expect(rank).toBe(210);
    expect(363 * Math.exp((-0.1 * rank) / 2)).toBeLessThanOrEqual(FAR_BOUND_PROBABILITY);
    // Never past a quarter of the rows.
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

  it("draws candidates with the exponential mechanism's probabilities (chi-square, α = 1e−6)", () => {
    const rng = new SeededRng('dp bound');
    const epsilon = parseRational('0.8');
    const fit = fitDraws(() => dpBoundIndex(rng, values, 2, candidates, 'lower', epsilon), DRAWS, pmfAt(0.8));
    expect(fit.pValue, `X² = ${fit.statistic}`).toBeGreaterThan(ALPHA);
  });

  it('the same test rejects the mechanism run with half the sensitivity (twice the ε)', () => {
    const power = powerAgainst(pmfAt(0.8), pmfAt(0.8, 0.5), DRAWS, ALPHA);
    expect(power.fiveSigmaLowerStatistic).toBeGreaterThan(power.critical);
    const rng = new SeededRng('dp bound, half the sensitivity');
    const fit = fitDraws(
      () => dpBoundIndex(rng, values, 2, candidates, 'lower', parseRational('1.6')),
      DRAWS,
      pmfAt(0.8),
    );
    expect(fit.pValue).toBeLessThan(ALPHA);
  });
});
