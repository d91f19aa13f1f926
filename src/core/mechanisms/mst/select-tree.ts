import type { ChargeableStep } from '../../privacy/meter';
import { meteredExponentialMechanismBig } from '../../privacy/metered/exponential-mechanism';
import type { QueryKind } from '../../privacy/query-sensitivity';
import type { Rational } from '../../rng/rational';
import type { Rng } from '../../rng/types';
import { throwIfAborted } from '../../abort';
import type { AbortSignalLike } from '../types';
import { countCells } from '../../models/pgm/factor-index';
import { gridL1Error, SCORE_GRID } from '../common/graphical-models/grid-score';

/** An unordered pair of columns a < b. */
export type Pair = [number, number];

/**
 * Each pair's score: ‖M_ab(D) − n·p̂_a ⊗ p̂_b‖₁ on the 2^−20 grid (see gridL1Error), where
 * n·p̂_a is column a's fitted one-way marginal (the product model that the one-way measurements give,
 * a DP output). The score is large where the columns depend on each other and the one-way model is
 * wrong. The scores are exact bigints for any number of rows (gridL1Error); the bigint exponential
 * mechanism makes the same draws as the number one on safe-integer scores. Cost O(d² · (n + cells)).
 */
export function pairScores(
  levels: readonly Uint32Array[],
  sizes: readonly number[],
  oneWay: readonly Float64Array[],
  total: number,
  signal?: AbortSignalLike,
): { pairs: Pair[]; scores: bigint[] } {
  return pairScoresOfCounts((a, b) => countCells(levels, [a, b], sizes), sizes, oneWay, total, signal);
}

/** pairScores with each pair's counts M_ab from `countsOf` (a count source, or rows in memory). */
export function pairScoresOfCounts(
  countsOf: (a: number, b: number) => Float64Array,
  sizes: readonly number[],
  oneWay: readonly Float64Array[],
  total: number,
  signal?: AbortSignalLike,
): { pairs: Pair[]; scores: bigint[] } {
  const pairs: Pair[] = [];
  const scores: bigint[] = [];
  for (let a = 0; a < sizes.length; a++) {
    for (let b = a + 1; b < sizes.length; b++) {
      throwIfAborted(signal);
      const counts = countsOf(a, b);
      const model = new Float64Array(counts.length);
      const pa = oneWay[a]!;
      const pb = oneWay[b]!;
      for (let i = 0; i < pa.length; i++) {
        for (let j = 0; j < pb.length; j++) model[i * pb.length + j] = (pa[i]! * pb[j]!) / total;
      }
      pairs.push([a, b]);
      scores.push(gridL1Error(counts, model));
    }
  }
  return { pairs, scores };
}

/** A pair's score: the L1 error of the one-way model on M_ab, weight 1, on the 2^−20 grid. */
export const PAIR_SCORE_QUERY: QueryKind = { kind: 'l1-error-score', weight: 1, grid: SCORE_GRID };

/**
 * Kruskal's algorithm with private choices (private-pgm `mst.py`, `select`): d − 1 rounds, each an
 * exponential mechanism at ε over the pairs that join two different components, through the privacy
 * meter with the pair score's sensitivity (replace-one: 2 counts = 2·2^20 grid units, one row moves
 * two cells of M_ab). The result is a spanning tree. Each round charges `step` ε²/8 (bounded range,
 * zCDP) before it draws; the caller reserves all rounds in that step before the first.
 */
export function selectSpanningTree(
  step: ChargeableStep,
  rng: Rng,
  d: number,
  pairs: readonly Pair[],
  scores: readonly bigint[],
  epsilon: Rational,
): Pair[] {
  const parent = Array.from({ length: d }, (_, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i]!]!;
    return i;
  };
  const chosen: Pair[] = [];
  for (let round = 0; round < d - 1; round++) {
    const open: number[] = [];
    for (let k = 0; k < pairs.length; k++) if (find(pairs[k]![0]) !== find(pairs[k]![1])) open.push(k);
    const pick =
      open[
        meteredExponentialMechanismBig(
          step,
          PAIR_SCORE_QUERY,
          open.map((k) => scores[k]!),
          epsilon,
          rng,
        )
      ]!;
    const [a, b] = pairs[pick]!;
    parent[find(a)] = find(b);
    chosen.push([a, b]);
  }
  return chosen;
}
