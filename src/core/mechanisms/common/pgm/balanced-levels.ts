import type { Rng } from '../../../rng/types';
import { shuffleInPlace } from '../../../rng/shuffle';
import { uniformInt } from '../../../rng/uniform-int';

/**
 * The order in which the rows of a group receive their levels under the 'balanced' rule: the rows
 * at random, then stably sorted by the levels of `keys` (the first key most significant). Rows that
 * agree on every key stay in random order. Cost O(n · (keys + 1)): one shuffle and one counting sort
 * per key, written by hand because it runs once per attribute over every synthetic row.
 */
export function balancedRowOrder(
  rng: Rng,
  levels: readonly Uint32Array[],
  sizes: readonly number[],
  keys: readonly number[],
  n: number,
): Uint32Array {
  let order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  shuffleInPlace(rng, order);
  let next = new Uint32Array(n);
  for (let q = keys.length - 1; q >= 0; q--) {
    const column = levels[keys[q]!]!;
    const start = new Uint32Array(sizes[keys[q]!]! + 1);
    for (let i = 0; i < n; i++) start[column[i]! + 1]!++;
    for (let l = 1; l < start.length; l++) start[l] += start[l - 1]!;
    for (let r = 0; r < n; r++) {
      const row = order[r]!;
      next[start[column[row]!]!++] = row;
    }
    [order, next] = [next, order];
  }
  return order;
}

/**
 * A sequence of m levels holding level l exactly counts[l] times (Σ counts = m), spread so that every
 * run of L consecutive positions, counted cyclically, holds level l within 2 of L·counts[l]/m: the
 * systematic sampling of survey practice, where a list sorted by auxiliary variables gives each of
 * their strata a proportional share (implicit stratification; Cochran 1977, Sampling Techniques, §8.1).
 *
 * Construction: the j-th occurrence of level l (j = 0 … c_l − 1) must sit at a position p with
 * ⌊j·m/c_l⌋ ≤ p ≤ ⌈(j + 1)·m/c_l⌉ − 1, so the first t positions hold level l within 1 of t·c_l/m. The
 * windows of one level are disjoint real intervals of length m/c_l, so any run of positions [a, b]
 * must take at most Σ_l (b + 1 − a)·c_l/m = b + 1 − a occurrences: Hall's condition holds, and
 * earliest-deadline-first fills every position (Jackson's rule for unit jobs with release times).
 * A run is the difference of two prefixes (or, wrapping, a suffix plus a prefix), hence within 2.
 * The sequence is then rotated by a uniform offset, so every position holds level l with
 * probability exactly c_l/m and no stratum is favoured. Cost O(m log k) for k levels.
 */
export function spreadLevels(rng: Rng, counts: ArrayLike<number>, m: number): Uint32Array {
  const k = counts.length;
  const next = new Float64Array(k); // index j of each level's next occurrence
  const releaseOf = (l: number): number => Math.floor((next[l]! * m) / counts[l]!);
  const deadlineOf = (l: number): number => Math.ceil(((next[l]! + 1) * m) / counts[l]!) - 1;
  const waiting = new LevelHeap(k); // levels whose next occurrence is not yet released, by release
  const ready = new LevelHeap(k); // released levels, by deadline
  for (let l = 0; l < k; l++) if (counts[l]! > 0) waiting.push(l, releaseOf(l));
  const sequence = new Uint32Array(m);
  for (let p = 0; p < m; p++) {
    while (waiting.size > 0 && waiting.topKey() <= p) {
      const l = waiting.pop();
      ready.push(l, deadlineOf(l));
    }
    if (ready.size === 0) throw new Error(`spreadLevels: the counts do not sum to ${m}`);
    const l = ready.pop();
    sequence[p] = l;
    next[l]!++;
    if (next[l]! < counts[l]!) waiting.push(l, releaseOf(l));
  }
  if (waiting.size > 0 || ready.size > 0) throw new Error(`spreadLevels: the counts do not sum to ${m}`);
  const shift = m > 1 ? uniformInt(rng, m) : 0;
  const rotated = new Uint32Array(m);
  for (let p = 0; p < m; p++) rotated[(p + shift) % m] = sequence[p]!;
  return rotated;
}

/** A binary min-heap of levels keyed by a number; equal keys pop the smaller level first. */
class LevelHeap {
  private readonly levels: Uint32Array;
  private readonly keys: Float64Array;
  size = 0;

  constructor(capacity: number) {
    this.levels = new Uint32Array(capacity);
    this.keys = new Float64Array(capacity);
  }

  topKey(): number {
    return this.keys[0]!;
  }

  push(level: number, key: number): void {
    let i = this.size++;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.before(key, level, this.keys[parent]!, this.levels[parent]!)) break;
      this.keys[i] = this.keys[parent]!;
      this.levels[i] = this.levels[parent]!;
      i = parent;
    }
    this.keys[i] = key;
    this.levels[i] = level;
  }

  pop(): number {
    const top = this.levels[0]!;
    const key = this.keys[--this.size]!;
    const level = this.levels[this.size]!;
    let i = 0;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= this.size) break;
      const right = child + 1;
      if (
        right < this.size &&
        this.before(this.keys[right]!, this.levels[right]!, this.keys[child]!, this.levels[child]!)
      )
        child = right;
      if (!this.before(this.keys[child]!, this.levels[child]!, key, level)) break;
      this.keys[i] = this.keys[child]!;
      this.levels[i] = this.levels[child]!;
      i = child;
    }
    this.keys[i] = key;
    this.levels[i] = level;
    return top;
  }

  private before(keyA: number, levelA: number, keyB: number, levelB: number): boolean {
    return keyA < keyB || (keyA === keyB && levelA < levelB);
  }
}
