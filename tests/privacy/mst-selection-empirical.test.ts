/**
 * Empirical privacy check of MST's tree selection, able to fail.
 *
 * The real scoring (pairScores) and selection (selectSpanningTree) run on two replace-one neighbours
 * of a 3-column binary table, with a fixed public one-way model (uniform: 10 rows per pair cell).
 * D has 40 rows, 10 in each (c0, c1) combination, with c2 = 1 in 4 rows of each combination; D′
 * replaces one row (0, 0, 0) by (1, 1, 1). Pair scores (L1 error in counts, order (0,1), (0,2), (1,2)):
 *   D: 0, 8, 8        D′: 2, 6, 6
 * (D′ moves the (0,1) table off independence and the other two towards the model), so every score
 * moves by the full sensitivity Δ = 2 and in the worst direction for the event E = "the first edge
 * chosen is (0,1)". Each round is an ε-DP exponential mechanism, so the claim says log P[E | D′]/P[E | D] ≤ ε.
 * At ε = 1 the exact probabilities are P[E | D] = 1/(1 + 2e²) = 0.0634 and P[E | D′] = 1/(1 + 2e) = 0.1554,
 * a log-ratio of 0.897: the event is close to tight. With the sensitivity wrongly taken as 1 (the
 * add/remove row of the query table, looked up here through a step whose relation is add/remove) the
 * round runs at an effective 2ε: P[E | D] = 1/(1 + 2e⁴) = 0.00907, P[E | D′] = 1/(1 + 2e²) = 0.0634,
 * log-ratio 1.94.
 * Test: RUNS runs per side; ε̂ = log(CP_lower(P[E | D′]) / CP_upper(P[E | D])) at α = 10⁻⁶ each
 * (tests/privacy/clopper-pearson.ts). SD of the log-ratio (delta method, √((1 − p)/(Np)) per side):
 * correct 0.014, so ε̂ ≈ 0.897 − 4.75·0.014 ≈ 0.83, 12 SD below 1; broken 0.035, ε̂ ≈ 1.94 − 0.17 ≈ 1.77,
 * above 1 by over 20 SD.
 */
import { describe, expect, it } from 'vitest';
import { SCORE_GRID } from '../../src/core/mechanisms/common/graphical-models/grid-score';
import { pairScores, selectSpanningTree } from '../../src/core/mechanisms/mst/select-tree';
import { recordingStep } from '../../src/core/privacy/metered/testing';
import type { Neighbouring } from '../../src/core/privacy/query-sensitivity';
import { Rational } from '../../src/core/rng/rational';
import { SeededRng } from '../../src/core/rng/seeded-rng';
import { epsilonLowerBound } from './clopper-pearson';

const EPSILON = 1;
const RUNS = 100_000;
const ALPHA = 1e-6;
const SIZES = [2, 2, 2];
const ONE_WAY = [Float64Array.from([20, 20]), Float64Array.from([20, 20]), Float64Array.from([20, 20])];

function neighbour(moved: boolean): Uint32Array[] {
  const rows: number[][] = [];
  for (const [c0, c1] of [
    [0, 0],
    [0, 1],
    [1, 0],
    [1, 1],
  ] as const) {
    for (let k = 0; k < 10; k++) rows.push([c0, c1, k < 4 ? 1 : 0]);
  }
  if (moved) rows[rows.findIndex((r) => r.join() === '0,0,0')] = [1, 1, 1];
  return SIZES.map((_, j) => Uint32Array.from(rows.map((r) => r[j]!)));
}

function firstEdgeHits(moved: boolean, relation: Neighbouring, seed: string): number {
  const { pairs, scores } = pairScores(neighbour(moved), SIZES, ONE_WAY, 40);
  const rng = new SeededRng(seed);
  const step = recordingStep('zcdp', relation);
  let hits = 0;
  for (let run = 0; run < RUNS; run++) {
    step.charges.length = 0;
    const [first] = selectSpanningTree(step, rng, 3, pairs, scores, Rational.of(EPSILON));
    if (first![0] === 0 && first![1] === 1) hits++;
  }
  return hits;
}

function epsilonEstimate(relation: Neighbouring, seed: string): { epsilon: number; detail: string } {
  const d = firstEdgeHits(false, relation, `${seed} D`);
  const dPrime = firstEdgeHits(true, relation, `${seed} D′`);
  const epsilon = epsilonLowerBound(dPrime, d, RUNS, ALPHA);
  return { epsilon, detail: `hits D=${d} D′=${dPrime}; ε̂=${epsilon.toFixed(3)}` };
}

describe('MST tree selection, empirical privacy of one round at ε = 1', () => {
  it('has the scores the comment derives', () => {
    const grid = (moved: boolean) =>
      pairScores(neighbour(moved), SIZES, ONE_WAY, 40).scores.map((s) => Number(s) / SCORE_GRID);
    expect(grid(false)).toEqual([0, 8, 8]);
    expect(grid(true)).toEqual([2, 6, 6]);
  });

  it('passes with the mechanism’s sensitivity 2', () => {
    const { epsilon, detail } = epsilonEstimate('replace-one', 'mst selection');
    expect(epsilon, detail).toBeLessThanOrEqual(EPSILON);
    expect(epsilon, detail).toBeGreaterThan(0.75); // the event is close to tight
  });

  it('detects a sensitivity of 1, the add/remove one (true loss 1.94)', () => {
    const { epsilon, detail } = epsilonEstimate('add-remove', 'mst selection broken');
    expect(epsilon, detail).toBeGreaterThan(EPSILON);
  });
});
