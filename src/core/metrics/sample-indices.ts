import type { Rng } from '../rng/types';
import { uniformInt } from '../rng/uniform-int';

/**
 * k distinct indices drawn uniformly from {0, …, n − 1} without replacement, every k-subset equally
 * likely (partial Fisher–Yates shuffle; Knuth, TAOCP vol. 2, §3.4.2, Algorithm P), returned in
 * ascending order. k ≥ n returns all indices. Cost O(n).
 */
export function sampleIndicesWithoutReplacement(n: number, k: number, rng: Rng): Uint32Array {
  if (k >= n) return Uint32Array.from({ length: n }, (_, i) => i);
  const order = Uint32Array.from({ length: n }, (_, i) => i);
  for (let i = 0; i < k; i++) {
    const j = i + uniformInt(rng, n - i);
    const swap = order[i]!;
    order[i] = order[j]!;
    order[j] = swap;
  }
  return order.slice(0, k).sort();
}

/** The indices of {0, …, n − 1} not in `chosen` (ascending input), ascending. O(n). */
export function complementIndices(n: number, chosen: Uint32Array): Uint32Array {
  const taken = new Uint8Array(n);
  for (const i of chosen) taken[i] = 1;
  const out = new Uint32Array(n - chosen.length);
  let k = 0;
  for (let i = 0; i < n; i++) if (taken[i] === 0) out[k++] = i;
  return out;
}
