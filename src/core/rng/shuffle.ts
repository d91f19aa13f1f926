import type { Rng } from './types';
import { uniformInt } from './uniform-int';

/** A typed array or array of numbers that can be permuted in place. */
export type Shufflable = { length: number; [index: number]: number };

/**
 * Uniform random permutation in place: every permutation equally likely, since each index is drawn
 * exactly uniformly (Fisher–Yates as Durstenfeld wrote it; Knuth, TAOCP vol. 2, §3.4.2, Algorithm P).
 * Uses n − 1 draws of uniformInt, from the last position down. Cost O(n).
 */
export function shuffleInPlace(rng: Rng, values: Shufflable): void {
  for (let i = values.length - 1; i > 0; i--) {
    const j = uniformInt(rng, i + 1);
    const held = values[i]!;
    values[i] = values[j]!;
    values[j] = held;
  }
}
