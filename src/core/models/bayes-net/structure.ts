import { Rational } from '../../rng/rational';
import type { ChargeableStep } from '../../privacy/meter';
import { meteredDiscreteLaplace } from '../../privacy/metered/discrete-laplace';
import type { Rng } from '../../rng/types';
import { columnEntropyBits, entropySensitivityUpperBound, pairEntropyBits } from './entropy';

/**
 * Structure learning of the Bayesian network of Bindschaedler, Shokri & Gunter (§3.3): noisy
 * entropies, the symmetrical-uncertainty correlation (eq. 5), the CFS merit (eq. 4, Hall 1999), a
 * greedy acyclic parent choice under a parent-count and a cost limit (eq. 6), and a topological order.
 */

/** Grid steps per ΔH⁺: an entropy is released on the grid g = ΔH⁺/16. */
export const ENTROPY_GRID_STEPS = 16;

/** Noisy entropies: `single[i]` = H̃(x_i); `pair[i·m + j]` = H̃(x_i, x_j) (symmetric, diagonal unused). */
export interface NoisyEntropies {
  m: number;
  single: Float64Array;
  pair: Float64Array;
}

/** How many entropies the structure step releases: m single and m(m − 1)/2 pairs, m(m + 1)/2. */
export function entropyCount(m: number): number {
  return (m * (m + 1)) / 2;
}

/**
 * Scale, in grid units, of the discrete Laplace noise on each entropy: 17·m(m + 1)/(2ε). On the grid
 * g = ΔH⁺/16, round(H/g) moves by at most ΔH/g + 1 <= 17 units when one row is replaced (the +1 is
 * the rounding), so the m(m + 1)/2 released integers have L1 sensitivity 17·m(m + 1)/2, and discrete
 * Laplace noise of this scale on each is ε-DP (basic composition).
 */
export function entropyNoiseScale(m: number, epsilon: Rational): Rational {
  return Rational.of((ENTROPY_GRID_STEPS + 1) * entropyCount(m)).div(epsilon);
}

/**
 * The m(m + 1)/2 entropies of the coded columns over `rows` (n_T >= 2 rows, n_T public), each
 * rounded to the grid g = ΔH⁺(n_T)/16 with exact discrete Laplace noise of
 * {@link entropyNoiseScale} grid units, then clamped to [0, log₂|x|] (|x| the number of joint
 * levels): ε-DP under replace-one, charged to `step` (query `grid-entropies`). Noise is drawn single
 * entropies first, then pairs (i < j) in order.
 */
export function noisyEntropies(
  step: ChargeableStep,
  rng: Rng,
  columns: readonly Uint32Array[],
  levels: readonly number[],
  rows: Uint32Array,
  epsilon: Rational,
): NoisyEntropies {
  const m = columns.length;
  const grid = entropySensitivityUpperBound(rows.length).div(Rational.of(ENTROPY_GRID_STEPS)).toNumber();
  // Every entropy on the grid first (no randomness), in the order the noise is drawn: singles, then
  // pairs i < j; one metered draw over all of them; then clamping (post-processing).
  const onGrid = new Float64Array(entropyCount(m));
  const cells = new Float64Array(entropyCount(m));
  let e = 0;
  for (let i = 0; i < m; i++) {
    onGrid[e] = Math.round(columnEntropyBits(columns[i]!, rows, levels[i]!) / grid);
    cells[e++] = levels[i]!;
  }
  let scratch = new Uint32Array(0);
  for (let i = 0; i < m; i++) {
    for (let j = i + 1; j < m; j++) {
      const joint = levels[i]! * levels[j]!;
      if (scratch.length < joint) scratch = new Uint32Array(joint);
      onGrid[e] = Math.round(pairEntropyBits(columns[i]!, columns[j]!, rows, levels[j]!, scratch) / grid);
      cells[e++] = joint;
    }
  }
  const noisy = meteredDiscreteLaplace(
    step,
    { kind: 'grid-entropies', entropies: entropyCount(m), gridSteps: ENTROPY_GRID_STEPS },
    onGrid,
    entropyNoiseScale(m, epsilon),
    rng,
  );
  const release = (e: number): number => Math.min(Math.log2(cells[e]!), Math.max(0, noisy[e]! * grid));
  const single = new Float64Array(m);
  for (let i = 0; i < m; i++) single[i] = release(i);
  const pair = new Float64Array(m * m);
  e = m;
  for (let i = 0; i < m; i++) {
    for (let j = i + 1; j < m; j++) {
      const h = release(e++);
      pair[i * m + j] = h;
      pair[j * m + i] = h;
    }
  }
  return { m, single, pair };
}

/**
 * Symmetrical uncertainty (eq. 5): corr(x_i, x_j) = 2 − 2·H(x_i, x_j)/(H(x_i) + H(x_j)), clamped to
 * [0, 1] (noisy entropies can leave it); 0 when both entropies are 0. Returns an m × m matrix.
 */
export function correlations(entropies: NoisyEntropies): Float64Array {
  const { m, single, pair } = entropies;
  const corr = new Float64Array(m * m);
  for (let i = 0; i < m; i++) {
    for (let j = 0; j < m; j++) {
      if (i === j) continue;
      const sum = single[i]! + single[j]!;
      const value = sum > 0 ? 2 - (2 * pair[i * m + j]!) / sum : 0;
      corr[i * m + j] = Math.min(1, Math.max(0, value));
    }
  }
  return corr;
}

/**
 * CFS merit of parent set P for child i (eq. 4 with Hall's denominator):
 * Σ_{j∈P} corr(i, j) / √(|P| + 2·Σ_{j<l∈P} corr(j, l)); 0 for the empty set.
 */
export function merit(child: number, parents: readonly number[], corr: Float64Array, m: number): number {
  if (parents.length === 0) return 0;
  let relevance = 0;
  let redundancy = 0;
  for (let a = 0; a < parents.length; a++) {
    relevance += corr[child * m + parents[a]!]!;
    for (let b = a + 1; b < parents.length; b++) redundancy += corr[parents[a]! * m + parents[b]!]!;
  }
  return relevance / Math.sqrt(parents.length + 2 * redundancy);
}

/** True when `to` is `from` or one of its ancestors (walks parent links upward from `from`). */
function reaches(from: number, to: number, parents: readonly number[][]): boolean {
  const seen = new Uint8Array(parents.length);
  const stack = [from];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node === to) return true;
    if (seen[node]) continue;
    seen[node] = 1;
    for (const p of parents[node]!) stack.push(p);
  }
  return false;
}

/**
 * Global greedy structure: starting with no edges, repeatedly add the edge j → i (j a new parent of i)
 * with the largest positive merit gain merit(P(i) ∪ {j}) − merit(P(i)), among edges that keep the graph
 * acyclic, keep |P(i)| <= maxParents and keep cost(P(i)) = Π_{j∈P(i)} |x_j| <= maxCost[i] (eq. 6);
 * ties go to the smallest i, then the smallest j. Stops when no edge gains. Returns P(i), sorted.
 * Cost O(m² · edges · maxParents²).
 */
export function greedyStructure(
  corr: Float64Array,
  levels: readonly number[],
  maxParents: number,
  maxCost: readonly number[],
): number[][] {
  const m = levels.length;
  const parents: number[][] = Array.from({ length: m }, () => []);
  const cost = new Array<number>(m).fill(1);
  for (;;) {
    let bestGain = 0;
    let bestChild = -1;
    let bestParent = -1;
    for (let i = 0; i < m; i++) {
      if (parents[i]!.length >= maxParents) continue;
      const current = merit(i, parents[i]!, corr, m);
      for (let j = 0; j < m; j++) {
        if (j === i || parents[i]!.includes(j)) continue;
        if (cost[i]! * levels[j]! > maxCost[i]!) continue;
        // j → i closes a cycle when i is j or an ancestor of j.
        if (reaches(j, i, parents)) continue;
        const gain = merit(i, [...parents[i]!, j], corr, m) - current;
        if (gain > bestGain) {
          bestGain = gain;
          bestChild = i;
          bestParent = j;
        }
      }
    }
    if (bestChild < 0) break;
    parents[bestChild]!.push(bestParent);
    parents[bestChild]!.sort((a, b) => a - b);
    cost[bestChild] = cost[bestChild]! * levels[bestParent]!;
  }
  return parents;
}

/**
 * Kahn's topological order of the attributes: repeatedly take the smallest index whose parents are
 * all placed. Throws Error if the graph has a cycle. Cost O(m²).
 */
export function kahnOrder(parents: readonly number[][]): number[] {
  const m = parents.length;
  const placed = new Uint8Array(m);
  const order: number[] = [];
  while (order.length < m) {
    let next = -1;
    for (let i = 0; i < m && next < 0; i++) {
      if (!placed[i] && parents[i]!.every((p) => placed[p])) next = i;
    }
    if (next < 0) throw new Error('kahnOrder: the parent graph has a cycle');
    placed[next] = 1;
    order.push(next);
  }
  return order;
}
