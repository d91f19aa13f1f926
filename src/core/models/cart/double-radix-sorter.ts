const IS_LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;
const HIGH_WORD = IS_LITTLE_ENDIAN ? 1 : 0;
const LOW_WORD = 1 - HIGH_WORD;
const DIGIT_BITS = 8;
const BUCKETS = 1 << DIGIT_BITS;
const PASSES = 8;

/**
 * Sorts doubles ascending and reports the permutation, in O(n) with reusable buffers (no
 * allocation per call once the capacity is reached).
 *
 * Method: least-significant-digit radix sort on the IEEE-754 bit pattern made order-preserving
 * (negative numbers: all 64 bits flipped; others: sign bit set), 8 passes of 8 bits; a pass is
 * skipped when every key has the same digit there. Each pass is stable, so equal values keep their
 * input order. −0 sorts just before +0 (they are adjacent, and compare equal in the tree's `!==`
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
      histogram[l & 0xff]!++;
      histogram[BUCKETS + ((l >>> 8) & 0xff)]!++;
      histogram[2 * BUCKETS + ((l >>> 16) & 0xff)]!++;
      histogram[3 * BUCKETS + (l >>> 24)]!++;
      histogram[4 * BUCKETS + (h & 0xff)]!++;
      histogram[5 * BUCKETS + ((h >>> 8) & 0xff)]!++;
      histogram[6 * BUCKETS + ((h >>> 16) & 0xff)]!++;
      histogram[7 * BUCKETS + (h >>> 24)]!++;
    }
    let nextHigh = this.highB;
    let nextLow = this.lowB;
    let nextIndex = this.indexB;
    for (let pass = 0; pass < PASSES && n > 1; pass++) {
      const base = pass * BUCKETS;
      const useHigh = pass >= 4;
      const shift = (pass & 3) * DIGIT_BITS;
      const firstDigit = ((useHigh ? high[0]! : low[0]!) >>> shift) & 0xff;
      if (histogram[base + firstDigit] === n) continue;
      let running = 0;
      for (let b = 0; b < BUCKETS; b++) {
        const count = histogram[base + b]!;
        histogram[base + b] = running;
        running += count;
      }
      for (let i = 0; i < n; i++) {
        const h = high[i]!;
        const l = low[i]!;
        const digit = ((useHigh ? h : l) >>> shift) & 0xff;
        const target = histogram[base + digit]!++;
        nextHigh[target] = h;
        nextLow[target] = l;
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
    for (let i = 0; i < n; i++) sortedIndex[i] = index[i]!;
    if (sortedValues !== undefined) {
      for (let i = 0; i < n; i++) sortedValues[i] = values[index[i]!]!;
    }
  }
}
