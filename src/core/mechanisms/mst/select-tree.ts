import { sampleExponentialMechanism } from '../../rng/exponential-mechanism';
import type { Rational } from '../../rng/rational';
import type { Rng } from '../../rng/types';
import { throwIfAborted } from '../../abort';
import type { AbortSignalLike } from '../types';
import { countCells } from '../common/pgm/factor-index';
import { gridL1Error, SCORE_GRID } from '../common/pgm/grid-score';

/** An unordered pair of columns a < b. */
export type Pair = [number, number];

/**
 * Each pair's score: ‖M_ab(D) − n·p̂_a ⊗ p̂_b‖₁ on the 2^−20 grid (see gridL1Error), where
 * n·p̂_a is column a's fitted one-way marginal (the product model that the one-way measurements give,
 * a DP output). The score is large where the columns depend on each other and the one-way model is
 * wrong. Cost O(d² · (n + cells)).
 */
export function pairScores(
  levels: readonly Uint32Array[],
  sizes: readonly number[],
  oneWay: readonly Float64Array[],
  total: number,
  signal?: AbortSignalLike,
): { pairs: Pair[]; scores: number[] } {
  const pairs: Pair[] = [];
  const scores: number[] = [];
  for (let a = 0; a < sizes.length; a++) {
    for (let b = a + 1; b < sizes.length; b++) {
      throwIfAborted(signal);
      const counts = countCells(levels, [a, b], sizes);
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

/**
 * Kruskal's algorithm with private choices (private-pgm `mst.py`, `select`): d − 1 rounds, each an
 * exponential mechanism at ε over the pairs that join two different components, with sensitivity
 * Δ = 2 in counts (2·2^20 grid units: replace-one moves two cells of M_ab). The result is a spanning
 * tree. Each round is ε²/8-zCDP; the caller reserves all rounds before the first. `sensitivity` is
 * in grid units and exists for the empirical privacy test, which shows that a smaller one leaks.
 */
export function selectSpanningTree(
  rng: Rng,
  d: number,
  pairs: readonly Pair[],
  scores: readonly number[],
  epsilon: Rational,
  sensitivity: number = 2 * SCORE_GRID,
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
        sampleExponentialMechanism(
          rng,
          open.map((k) => scores[k]!),
          epsilon,
          sensitivity,
        )
      ]!;
    const [a, b] = pairs[pick]!;
    parent[find(a)] = find(b);
    chosen.push([a, b]);
  }
  return chosen;
}
