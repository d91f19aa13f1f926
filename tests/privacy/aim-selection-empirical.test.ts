/**
 * Empirical privacy check of one AIM selection round, able to fail.
 *
 * The real scoring and selection (aim/select-marginal.ts: scores on the 2^−20 grid, the exact
 * exponential mechanism, Δ = 2·max w) run on two replace-one neighbours of a 2-column binary table,
 * with a fixed public model (20 rows per level of each column, as earlier DP outputs could give).
 * Candidates: the one-ways r₁ = {c0} and r₂ = {c1}, each with weight 3 and σ = 5 (equal bias terms,
 * which cancel). D has 40 rows with c0 = 0 in 20 and c1 = 0 in 26; D′ replaces one row (0, 0) by (1, 1).
 * L1 errors in counts:  D: r₁ 0, r₂ 12        D′: r₁ 2, r₂ 10,
 * so both scores move by the full 2·w in the worst direction for E = "r₁ is chosen". The round is
 * ε-DP, so the claim says log P[E | D′]/P[E | D] <= ε. At ε = 1, with q = w·L1 and Δ = 2w:
 * P[E | D] = 1/(1 + e^(12/4)) = 0.0474 and P[E | D′] = 1/(1 + e^(8/4)) = 0.1192, log-ratio 0.922.
 * With the count sensitivity wrongly 1 (private-pgm's add/remove value, the add/remove row of the query
 * table, looked up here through a step whose relation is add/remove), the round runs at an effective
 * 2ε: P[E | D] = 1/(1 + e^6) = 0.00247, P[E | D′] = 1/(1 + e^4) = 0.0180, log-ratio 1.98.
 * Test: RUNS runs per side; ε̂ = log(CP_lower(P[E | D′]) / CP_upper(P[E | D])) at α = 10⁻⁶ each
 * (tests/privacy/clopper-pearson.ts). SD of the log-ratio (delta method, √((1 − p)/(Np)) per side):
 * correct 0.014 + 0.009, so ε̂ ≈ 0.922 − 4.75·0.023 ≈ 0.81, far below 1; broken 0.064 + 0.023,
 * ε̂ ≈ 1.98 − 4.75·0.087 ≈ 1.57, above 1 by over 6 SD.
 */
import { describe, expect, it } from 'vitest';
import { selectMarginal, type ScoredCandidate } from '../../src/core/mechanisms/aim/select-marginal';
import { countCells } from '../../src/core/models/pgm/factor-index';
import { recordingStep } from '../../src/core/privacy/metered/testing';
import type { Neighbouring } from '../../src/core/privacy/query-sensitivity';
import { Rational } from '../../src/core/rng/rational';
import { SeededRng } from '../../src/core/rng/seeded-rng';
import { epsilonLowerBound } from './clopper-pearson';

const EPSILON = 1;
const RUNS = 100_000;
const ALPHA = 1e-6;
const SIZES = [2, 2];
const WEIGHT = 3;
const SIGMA = 5;
const MODEL = Float64Array.from([20, 20]);

function candidates(moved: boolean): ScoredCandidate[] {
  const rows: number[][] = [];
  // (c0, c1): 20 rows with c0 = 0 (of which 13 with c1 = 0), 20 with c0 = 1 (13 with c1 = 0): c1 = 0 in 26.
  for (let k = 0; k < 40; k++) rows.push([k < 20 ? 0 : 1, k % 20 < 13 ? 0 : 1]);
  if (moved) rows[rows.findIndex((r) => r.join() === '0,0')] = [1, 1];
  const levels = SIZES.map((_, j) => Uint32Array.from(rows.map((r) => r[j]!)));
  return [0, 1].map((j) => ({ answer: countCells(levels, [j], SIZES), estimate: MODEL, weight: WEIGHT }));
}

function hits(moved: boolean, relation: Neighbouring, seed: string): number {
  const scored = candidates(moved);
  const rng = new SeededRng(seed);
  const step = recordingStep('zcdp', relation);
  let count = 0;
  for (let run = 0; run < RUNS; run++) {
    step.charges.length = 0;
    if (selectMarginal(step, rng, scored, SIGMA, Rational.of(EPSILON)) === 0) count++;
  }
  return count;
}

function epsilonEstimate(relation: Neighbouring, seed: string): { epsilon: number; detail: string } {
  const d = hits(false, relation, `${seed} D`);
  const dPrime = hits(true, relation, `${seed} D′`);
  const epsilon = epsilonLowerBound(dPrime, d, RUNS, ALPHA);
  return { epsilon, detail: `hits D=${d} D′=${dPrime}; ε̂=${epsilon.toFixed(3)}` };
}

describe('AIM selection, empirical privacy of one round at ε = 1', () => {
  it('has the L1 errors the comment derives', () => {
    const l1 = (moved: boolean) =>
      candidates(moved).map(({ answer }) => Math.abs(answer[0]! - 20) + Math.abs(answer[1]! - 20));
    expect(l1(false)).toEqual([0, 12]);
    expect(l1(true)).toEqual([2, 10]);
  });

  it('passes with the mechanism’s sensitivity 2·w', () => {
    const { epsilon, detail } = epsilonEstimate('replace-one', 'aim selection');
    expect(epsilon, detail).toBeLessThanOrEqual(EPSILON);
    expect(epsilon, detail).toBeGreaterThan(0.7); // the event is close to tight
  });

  it('detects the add/remove sensitivity w (true loss 1.98)', () => {
    const { epsilon, detail } = epsilonEstimate('add-remove', 'aim selection broken');
    expect(epsilon, detail).toBeGreaterThan(EPSILON);
  });
});
