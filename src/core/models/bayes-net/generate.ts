import type { Rng } from '../../rng/types';
import type { TableShape } from './conditional-tables';

/** A Bayesian network ready to generate: shapes, cumulative conditional tables and the order σ. */
export interface BayesNet {
  shapes: readonly TableShape[];
  cumulative: readonly Float64Array[];
  /** σ: a topological order of the attributes (every parent before its child). */
  order: readonly number[];
}

/** The smallest level l with cumulative[offset + l] > u (binary search; the last entry is 1 > u). */
function levelAt(cumulative: Float64Array, offset: number, levels: number, u: number): number {
  let lo = 0;
  let hi = levels - 1;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (cumulative[offset + mid]! > u) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/**
 * Fills `row` (one level per attribute) in σ order from position `kept` on: attribute σ(q), q >= kept,
 * is drawn from θ given its parents' levels in `row` (eq. 3); the attributes σ(0 … kept − 1) are read,
 * never written, and no other value of `row` is read, since σ puts every parent first. So two rows
 * equal on σ(0 … kept − 1) give the same output on the same random stream. Post-processing of θ:
 * floating point is fine here. Cost O(m·log levels).
 */
export function generateFrom(rng: Rng, net: BayesNet, row: Uint32Array, kept: number): void {
  const { order, shapes, cumulative } = net;
  for (let q = kept; q < order.length; q++) {
    const child = order[q]!;
    const shape = shapes[child]!;
    let configuration = 0;
    for (let a = 0; a < shape.parents.length; a++)
      configuration += row[shape.parents[a]!]! * shape.strides[a]!;
    const k = shape.childLevels;
    row[child] = levelAt(cumulative[child]!, configuration * k, k, rng.nextFloat());
  }
}
