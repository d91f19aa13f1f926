import type { Rng } from '../../rng/types';
import { shuffleInPlace } from '../../rng/shuffle';
import { uniformInt } from '../../rng/uniform-int';

/**
 * The floors ⌊e_l⌋ of the expected counts e_l = count·w_l/total, their fractional parts e_l − ⌊e_l⌋,
 * and Σ⌊e_l⌋: the start of every rounding rule (count − placed rows are left to hand out).
 */
export function expectedCountFloors(
  weights: ArrayLike<number>,
  count: number,
  total: number,
): { rows: Float64Array; fractions: Float64Array; placed: number } {
  const k = weights.length;
  const rows = new Float64Array(k);
  const fractions = new Float64Array(k);
  let placed = 0;
  for (let l = 0; l < k; l++) {
    const expected = (count * weights[l]!) / total;
    rows[l] = Math.floor(expected);
    fractions[l] = expected - rows[l]!;
    placed += rows[l]!;
  }
  return { rows, fractions, placed };
}

/**
 * Level counts for `count` rows in proportion to `weights` (Σ weights > 0), rounded without bias:
 * level l gets ⌊e_l⌋ or ⌊e_l⌋ + 1 rows, e_l = count·w_l/Σw, the extra row with probability exactly
 * e_l − ⌊e_l⌋, so E[count_l] = e_l. The extra rows are chosen by systematic sampling on the
 * fractional parts (Madow 1949): one uniform u, and the levels whose cumulative fraction interval
 * holds u, u + 1, u + 2, …; each level's interval is shorter than 1, so it is hit at most once.
 *
 * Exactly, the fractions sum to a whole number below k. In floating point count·w/Σw can land just
 * below a whole number (0.9999999999999716 for a single level), so the leftover is clamped, with no
 * draw: a single level gets every row; when the floors leave k or more rows (every fraction ≈ 1, each
 * level's share whole) each level gets one more until fewer than k are left; rows placed beyond
 * `count` are taken back from the levels with the smallest fractions; rows left with no fractional
 * mass go to the heaviest levels. In every other case the draws are those of the walk below.
 */
export function unbiasedCounts(rng: Rng, weights: ArrayLike<number>, count: number): Float64Array {
  const k = weights.length;
  if (k === 1) return Float64Array.of(count);
  let total = 0;
  for (let l = 0; l < k; l++) total += weights[l]!;
  const { rows, fractions, placed } = expectedCountFloors(weights, count, total);
  let extra = count - placed;
  if (!Number.isFinite(extra)) {
    // Shares that are not numbers (NaN, ∞) are a bug upstream, not rounding: refused.
    let mass = 0;
    for (let l = 0; l < k; l++) mass += fractions[l]!;
    throw new Error(`unbiasedCounts: ${extra} rows left over with fractional mass ${mass}`);
  }
  while (extra >= k) {
    for (let l = 0; l < k; l++) rows[l]!++;
    fractions.fill(0);
    extra -= k;
  }
  for (; extra < 0; extra++) rows[smallestFractionWithRows(rows, fractions)]!--;
  if (extra === 0) return rows;
  // The fractions sum to `extra` up to rounding; scale them to exactly that, then walk once.
  let mass = 0;
  for (let l = 0; l < k; l++) mass += fractions[l]!;
  if (!(mass > 0)) return heaviestGetRows(rows, weights, extra);
  const scale = extra / mass;
  let point = rng.nextFloat();
  let given = 0;
  let cumulative = 0;
  for (let l = 0; l < k && given < extra; l++) {
    cumulative += fractions[l]! * scale;
    if (point < cumulative) {
      rows[l]!++;
      fractions[l] = -1; // hit: not again below
      given++;
      point += 1;
    }
  }
  // Floating-point slack can leave the last point past the end: give what is left to the largest
  // fractions not yet hit.
  for (; given < extra; given++) {
    let best = 0;
    for (let l = 1; l < k; l++) if (fractions[l]! > fractions[best]!) best = l;
    rows[best]!++;
    fractions[best] = -1;
  }
  return rows;
}

/** The level with rows whose fractional part is smallest (the first on ties): the one to take a row from. */
function smallestFractionWithRows(rows: Float64Array, fractions: Float64Array): number {
  let best = -1;
  for (let l = 0; l < rows.length; l++) {
    if (rows[l]! > 0 && (best < 0 || fractions[l]! < fractions[best]!)) best = l;
  }
  if (best < 0) throw new Error('unbiasedCounts: more rows placed than there are');
  return best;
}

/** `extra` rows, one each, to the levels of largest weight (the first on ties); no draw. */
function heaviestGetRows(rows: Float64Array, weights: ArrayLike<number>, extra: number): Float64Array {
  const order = Array.from(rows, (_, l) => l).sort((a, b) => weights[b]! - weights[a]! || a - b);
  for (let i = 0; i < extra; i++) rows[order[i % order.length]!]!++;
  return rows;
}

/**
 * The order in which the 'balanced' rule hands out levels: every row once, sorted by the levels of
 * the attributes drawn so far (the earliest drawn most significant), rows that agree on all of them
 * in random order. `refine` adds the attribute just drawn as the least significant key. Runs of rows
 * that agree on every drawn attribute are kept as boundaries. Written by hand because it touches
 * every synthetic row once per attribute: each run is sorted in its own range (cache-friendly), by
 * counting when it has at least k rows and by a sort of distinct keys otherwise, O(n·log k) in all.
 */
export class RowOrder {
  /** Rows in order. */
  order: Uint32Array;
  /** runStart[p] = 1 where a new run (a new combination of the drawn attributes) starts at position p. */
  private runStart: Uint8Array;

  constructor(rng: Rng, n: number) {
    this.order = new Uint32Array(n);
    for (let i = 0; i < n; i++) this.order[i] = i;
    shuffleInPlace(rng, this.order);
    this.runStart = new Uint8Array(n);
    if (n > 0) this.runStart[0] = 1;
  }

  /** Sorts every run by `levels` (a level per row, k levels), stably, and splits the runs where the level changes. */
  refine(levels: Uint32Array, k: number): void {
    const n = this.order.length;
    const rows = this.order;
    const level = new Uint32Array(n); // the level at each position, read once in order
    for (let p = 0; p < n; p++) level[p] = levels[rows[p]!]!;
    const count = new Uint32Array(k + 1);
    const keys = new Float64Array(k);
    const sortedRows = new Uint32Array(n);
    const sortedLevel = new Uint32Array(n);
    for (let begin = 0; begin < n;) {
      let end = begin + 1;
      while (end < n && this.runStart[end] === 0) end++;
      const length = end - begin;
      if (length >= k) {
        // Counting sort over the k levels: O(length + k) = O(length).
        count.fill(0);
        for (let p = begin; p < end; p++) count[level[p]! + 1]!++;
        count[0] = begin;
        for (let l = 0; l < k; l++) count[l + 1] += count[l]!;
        for (let p = begin; p < end; p++) {
          const at = count[level[p]!]!++;
          sortedRows[at] = rows[p]!;
          sortedLevel[at] = level[p]!;
        }
      } else {
        // Fewer rows than levels: sort keys level·length + offset (distinct, so the sort is stable)
        // in O(length·log length).
        const run = keys.subarray(0, length);
        for (let i = 0; i < length; i++) run[i] = level[begin + i]! * length + i;
        run.sort();
        for (let i = 0; i < length; i++) {
          sortedRows[begin + i] = rows[begin + (run[i]! % length)]!;
          sortedLevel[begin + i] = Math.floor(run[i]! / length);
        }
      }
      for (let p = begin + 1; p < end; p++) if (sortedLevel[p] !== sortedLevel[p - 1]) this.runStart[p] = 1;
      begin = end;
    }
    this.order = sortedRows;
  }
}

/**
 * A sequence of m levels holding level l exactly counts[l] times (Σ counts = m), spread so that every
 * run of L consecutive positions, counted cyclically, holds level l within 2 of L·counts[l]/m: the
 * systematic sampling of survey practice, where a list sorted by auxiliary variables gives each of
 * their strata a proportional share (implicit stratification; Cochran 1977, Sampling Techniques, §8.1).
 *
 * Construction: the j-th occurrence of level l (j = 0 … c_l − 1) must sit at a position p with
 * ⌊j·m/c_l⌋ ≤ p ≤ ⌈(j + 1)·m/c_l⌉ − 1, so the first t positions hold level l within 1 of t·c_l/m. The
 * real intervals [j·m/c_l, (j + 1)·m/c_l) of one level are disjoint and of length m/c_l, so the
 * occurrences confined to positions a … b number at most Σ_l (b + 1 − a)·c_l/m = b + 1 − a: Hall's
 * condition holds, and earliest-deadline-first fills every position (Jackson's rule for unit jobs with
 * release times). A run is the difference of two prefixes (or, wrapping, a suffix plus a prefix),
 * hence within 2. The sequence is then rotated by a uniform offset, so every position holds level l
 * with probability exactly c_l/m. The bounds are kept as exact integer quotients and remainders, so
 * they hold for any m below 2⁵³. Cost O(m log k) for k levels.
 */
export function spreadLevels(rng: Rng, counts: ArrayLike<number>, m: number): Uint32Array {
  const sequence =
    counts.length <= SCAN_LEVELS ? earliestDeadlineByScan(counts, m) : earliestDeadlineFirst(counts, m);
  const shift = m > 1 ? uniformInt(rng, m) : 0;
  const rotated = new Uint32Array(m);
  for (let p = 0; p < m; p++) rotated[(p + shift) % m] = sequence[p]!;
  return rotated;
}

/**
 * Earliest deadline first over the occurrences of the levels (see spreadLevels), ties to the smaller
 * level. Each level has one pending occurrence at a time: released levels wait in a heap by deadline,
 * the others in buckets by release position (linked lists through the levels), emptied as the
 * position reaches them. O(m·log k + k). Written by hand: it runs once per synthetic row and attribute.
 */
export function earliestDeadlineFirst(counts: ArrayLike<number>, m: number): Uint32Array {
  const k = counts.length;
  const clocks = Array.from({ length: k }, (_, l) => new OccurrenceClock(m, counts[l]!));
  const left = Float64Array.from({ length: k }, (_, l) => counts[l]!);
  const releasing = new Int32Array(m + 1).fill(-1); // first level released at each position
  const next = new Int32Array(k).fill(-1); // the next level released at the same position
  const ready = new LevelHeap(k);
  for (let l = 0; l < k; l++) if (counts[l]! > 0) ready.push(l, clocks[l]!.deadline()); // released at 0
  const sequence = new Uint32Array(m);
  for (let p = 0; p < m; p++) {
    for (let l = releasing[p]!; l >= 0; l = next[l]!) ready.push(l, clocks[l]!.deadline());
    if (ready.size === 0) throw new Error(`spreadLevels: the counts do not sum to ${m}`);
    const chosen = ready.pop();
    sequence[p] = chosen;
    if (--left[chosen]! === 0) continue;
    const clock = clocks[chosen]!;
    clock.advance();
    if (clock.release <= p + 1) ready.push(chosen, clock.deadline());
    else {
      next[chosen] = releasing[clock.release]!;
      releasing[clock.release] = chosen;
    }
  }
  if (ready.size > 0 || left.some((c) => c > 0))
    throw new Error(`spreadLevels: the counts do not sum to ${m}`);
  return sequence;
}

/** Up to this many levels, scanning them all at each position is faster than a heap. */
export const SCAN_LEVELS = 8;

/** The same sequence as earliestDeadlineFirst, by scanning every level at every position: O(m·k). */
export function earliestDeadlineByScan(counts: ArrayLike<number>, m: number): Uint32Array {
  const k = counts.length;
  const clocks = Array.from({ length: k }, (_, l) => new OccurrenceClock(m, counts[l]!));
  const left = Float64Array.from({ length: k }, (_, l) => counts[l]!);
  const release = new Float64Array(k);
  const deadline = Float64Array.from({ length: k }, (_, l) => clocks[l]!.deadline());
  const sequence = new Uint32Array(m);
  for (let p = 0; p < m; p++) {
    let best = -1;
    for (let l = 0; l < k; l++) {
      if (left[l] === 0 || release[l]! > p) continue;
      if (best < 0 || deadline[l]! < deadline[best]!) best = l;
    }
    if (best < 0) throw new Error(`spreadLevels: the counts do not sum to ${m}`);
    sequence[p] = best;
    if (--left[best]! === 0) continue;
    const clock = clocks[best]!;
    clock.advance();
    release[best] = clock.release;
    deadline[best] = clock.deadline();
  }
  if (left.some((c) => c > 0)) throw new Error(`spreadLevels: the counts do not sum to ${m}`);
  return sequence;
}

/**
 * The window of the j-th occurrence of a level with c occurrences among m positions: release
 * ⌊j·m/c⌋ and deadline ⌈(j + 1)·m/c⌉ − 1 = ⌊((j + 1)·m − 1)/c⌋, kept as an exact integer quotient and
 * remainder of j·m by c and advanced by m from one j to the next, so j·m (which can pass 2⁵³) is
 * never formed. Starts at j = 0.
 */
export class OccurrenceClock {
  /** ⌊j·m/c⌋. */
  release = 0;
  /** j·m mod c. */
  private over = 0;
  private readonly step: number;
  private readonly stepOver: number;

  constructor(
    m: number,
    private readonly c: number,
  ) {
    this.step = c > 0 ? Math.floor(m / c) : 0;
    this.stepOver = c > 0 ? m % c : 0;
  }

  /** j → j + 1. */
  advance(): void {
    this.release += this.step;
    this.over += this.stepOver;
    if (this.over >= this.c) {
      this.release += 1;
      this.over -= this.c;
    }
  }

  /** ⌊((j + 1)·m − 1)/c⌋: (j + 1)·m = q·c + r, and the floor is q − 1 when r = 0, else q. */
  deadline(): number {
    let q = this.release + this.step;
    let r = this.over + this.stepOver;
    if (r >= this.c) {
      q += 1;
      r -= this.c;
    }
    return r === 0 ? q - 1 : q;
  }
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

  push(level: number, key: number): void {
    let i = this.size++;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const pk = this.keys[parent]!;
      if (pk < key || (pk === key && this.levels[parent]! < level)) break;
      this.keys[i] = pk;
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
        (this.keys[right]! < this.keys[child]! ||
          (this.keys[right] === this.keys[child] && this.levels[right]! < this.levels[child]!))
      )
        child = right;
      const ck = this.keys[child]!;
      if (ck > key || (ck === key && this.levels[child]! > level)) break;
      this.keys[i] = ck;
      this.levels[i] = this.levels[child]!;
      i = child;
    }
    this.keys[i] = key;
    this.levels[i] = level;
    return top;
  }
}
