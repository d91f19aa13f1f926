const IS_LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;
const HIGH_WORD = IS_LITTLE_ENDIAN ? 1 : 0;
const LOW_WORD = 1 - HIGH_WORD;
const DIGIT_BITS = 11;
const BUCKETS = 1 << DIGIT_BITS;
const DIGIT_MASK = BUCKETS - 1;
/** Passes over a 32-bit word: bits 0–10, 11–21, 22–31. */
const PASSES = 3;
/** Runs of equal high words up to this length are finished by insertion sort. */
const SHORT_RUN = 32;

/**
 * Sorts doubles ascending and reports the permutation, in O(n) with reusable buffers (no
 * allocation per call once the capacity is reached).
 *
 * Method: the IEEE-754 bit pattern made order-preserving (negative numbers: all 64 bits flipped;
 * others: sign bit set) is sorted by its high 32 bits with a least-significant-digit radix sort
 * (3 passes of 11 bits; a pass is skipped when every key has the same digit there), then runs of
 * equal high words are finished by insertion sort on the low 32 bits (runs are short unless many
 * values agree to ~6 significant digits). Every step is stable, so equal values keep their input
 * order. −0 sorts just before +0 (they are adjacent, and compare equal in the tree's `!==`
 * test). NaN is not expected (callers replace missing values).
 */
export class DoubleRadixSorter {
  private capacity = 0;
  private keyDoubles: Float64Array = new Float64Array(0);
  private keyWords: Uint32Array = new Uint32Array(0);
  private highA: Uint32Array = new Uint32Array(0);
  private lowA: Uint32Array = new Uint32Array(0);
  private indexA: Int32Array = new Int32Array(0);
  private highB: Uint32Array = new Uint32Array(0);
  private lowB: Uint32Array = new Uint32Array(0);
  private indexB: Int32Array = new Int32Array(0);
  private readonly histogram = new Int32Array(PASSES * BUCKETS);
  private readonly runHistogram = new Int32Array(BUCKETS);

  private ensureCapacity(n: number): void {
    if (n <= this.capacity) return;
    this.capacity = n;
    this.keyDoubles = new Float64Array(n);
    this.keyWords = new Uint32Array(this.keyDoubles.buffer);
    this.highA = new Uint32Array(n);
    this.lowA = new Uint32Array(n);
    this.indexA = new Int32Array(n);
    this.highB = new Uint32Array(n);
    this.lowB = new Uint32Array(n);
    this.indexB = new Int32Array(n);
  }

  /**
   * Writes into `sortedIndex[0..n)` the positions of `values[0..n)` in ascending order of value and,
   * when given, the sorted values themselves into `sortedValues[0..n)`.
   */
  sort(values: Float64Array, n: number, sortedIndex: Int32Array, sortedValues?: Float64Array): void {
    this.ensureCapacity(n);
    const keyDoubles = this.keyDoubles;
    const keyWords = this.keyWords;
    const histogram = this.histogram;
    histogram.fill(0);
    let high = this.highA;
    let low = this.lowA;
    let index = this.indexA;
    for (let i = 0; i < n; i++) keyDoubles[i] = values[i]!;
    for (let i = 0; i < n; i++) {
      let h = keyWords[2 * i + HIGH_WORD]!;
      let l = keyWords[2 * i + LOW_WORD]!;
      if (h >= 0x80000000) {
        h = ~h >>> 0;
        l = ~l >>> 0;
      } else {
        h = (h | 0x80000000) >>> 0;
      }
      high[i] = h;
      low[i] = l;
      index[i] = i;
      histogram[h & DIGIT_MASK]!++;
      histogram[BUCKETS + ((h >>> DIGIT_BITS) & DIGIT_MASK)]!++;
      histogram[2 * BUCKETS + (h >>> (2 * DIGIT_BITS))]!++;
    }
    let nextHigh = this.highB;
    let nextLow = this.lowB;
    let nextIndex = this.indexB;
    for (let pass = 0; pass < PASSES && n > 1; pass++) {
      const base = pass * BUCKETS;
      const shift = pass * DIGIT_BITS;
      if (histogram[base + ((high[0]! >>> shift) & DIGIT_MASK)] === n) continue;
      let running = 0;
      for (let b = 0; b < BUCKETS; b++) {
        const count = histogram[base + b]!;
        histogram[base + b] = running;
        running += count;
      }
      for (let i = 0; i < n; i++) {
        const h = high[i]!;
        const target = histogram[base + ((h >>> shift) & DIGIT_MASK)]!++;
        nextHigh[target] = h;
        nextLow[target] = low[i]!;
        nextIndex[target] = index[i]!;
      }
      const swapHigh = high;
      high = nextHigh;
      nextHigh = swapHigh;
      const swapLow = low;
      low = nextLow;
      nextLow = swapLow;
      const swapIndex = index;
      index = nextIndex;
      nextIndex = swapIndex;
    }
    // Runs of equal high words: stable sort by the low word (insertion sort for short runs, radix
    // passes for long ones, e.g. large values that agree to ~6 significant digits).
    let runStart = 0;
    for (let i = 1; i <= n; i++) {
      if (i < n && high[i] === high[runStart]) continue;
      if (i - runStart > SHORT_RUN) this.sortRunByLowWord(low, index, runStart, i, nextLow, nextIndex);
      else {
        for (let a = runStart + 1; a < i; a++) {
          const l = low[a]!;
          const idx = index[a]!;
          let b = a - 1;
          while (b >= runStart && low[b]! > l) {
            low[b + 1] = low[b]!;
            index[b + 1] = index[b]!;
            b--;
          }
          low[b + 1] = l;
          index[b + 1] = idx;
        }
      }
      runStart = i;
    }
    for (let i = 0; i < n; i++) sortedIndex[i] = index[i]!;
    if (sortedValues !== undefined) {
      for (let i = 0; i < n; i++) sortedValues[i] = values[index[i]!]!;
    }
  }

  /** Stable LSD radix sort of positions [from, to) by the low word, through the scratch arrays. */
  private sortRunByLowWord(
    low: Uint32Array,
    index: Int32Array,
    from: number,
    to: number,
    scratchLow: Uint32Array,
    scratchIndex: Int32Array,
  ): void {
    const counts = this.runHistogram;
    let sourceLow = low;
    let sourceIndex = index;
    let targetLow = scratchLow;
    let targetIndex = scratchIndex;
    for (let pass = 0; pass < PASSES; pass++) {
      const shift = pass * DIGIT_BITS;
      counts.fill(0);
      for (let i = from; i < to; i++) counts[(sourceLow[i]! >>> shift) & DIGIT_MASK]!++;
      let running = from;
      for (let b = 0; b < BUCKETS; b++) {
        const count = counts[b]!;
        counts[b] = running;
        running += count;
      }
      for (let i = from; i < to; i++) {
        const l = sourceLow[i]!;
        const target = counts[(l >>> shift) & DIGIT_MASK]!++;
        targetLow[target] = l;
        targetIndex[target] = sourceIndex[i]!;
      }
      const swapLow = sourceLow;
      sourceLow = targetLow;
      targetLow = swapLow;
      const swapIndex = sourceIndex;
      sourceIndex = targetIndex;
      targetIndex = swapIndex;
    }
    // An odd number of passes leaves the result in the scratch arrays: copy it back.
    for (let i = from; i < to; i++) {
      low[i] = sourceLow[i]!;
      index[i] = sourceIndex[i]!;
    }
  }
}
