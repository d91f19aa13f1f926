import { powerBracketAt, type RatioBracket } from './ratio-brackets';
import type { Rng } from './types';

const WORD_BITS = 32;
const LARGEST_TABLE = 4096;
const TABLE_WORK_BITS = 96;
/** The guide table splits the first word's range into 2^GUIDE_BITS buckets. */
const GUIDE_BITS = 10;
const GUIDE_SHIFT = WORD_BITS - GUIDE_BITS;

/**
 * Exact geometric draws G on {0, 1, 2, …} with P(G ≥ k) = r^k for an irrational ratio r in (0, 1)
 * known only through rigorous brackets, by inversion: for U uniform on (0, 1), G = #{k ≥ 1 : U < r^k}.
 *
 * Written by hand because geometric skipping over millions of empty cells needs about one random
 * word per draw, where a generic exact sampler (Canonne, Kamath & Steinke 2020) needs several and
 * cannot take r = 1/(1 + e^(−γ)) at all. How a draw goes:
 * - The table holds w_k = floor(r^k·2^32) for k = 1 … T (exact: from brackets, refined when the
 *   floor is in doubt). With u the first 32 bits of U, u < w_k means U < r^k and u > w_k means
 *   U > r^k. The k with w_k > u are counted by a linear scan that starts at a guide entry: for each
 *   of the 1,024 ranges of u sharing their top 10 bits, the count at the range's largest u (a lower
 *   bound for every u in it), so a scan usually takes one or two comparisons (Chen & Asau's guide
 *   table, as in Devroye 1986, §III.2.4).
 * - When u = w_k (probability about 2^−32 per entry) U and r^k are compared on more bits, U's next
 *   words drawn lazily, r^k's from powerBracketAt, until they differ; r^k is irrational, so they do.
 * - If U < r^T, then G ≥ T and, the geometric law being memoryless, G − T is again geometric with
 *   ratio r: add T and draw again. T = 4096, or the first k with w_k = 0 if that comes earlier.
 * `draw(rng, cap)` stops adding once the total reaches `cap`, for callers that only need to know
 * whether G ≥ cap; then it returns a value ≥ cap.
 */
export class GeometricByInversion {
  private readonly words: Uint32Array;
  private readonly guide: Uint16Array;

  constructor(private readonly ratio: RatioBracket) {
    this.words = firstWordsOfPowers(ratio);
    this.guide = guideOf(this.words);
  }

  /** Table length T. */
  get tableSize(): number {
    return this.words.length;
  }

  draw(rng: Rng, cap: number = Number.MAX_SAFE_INTEGER): number {
    const words = this.words;
    const size = words.length;
    let total = 0;
    for (;;) {
      const first = rng.nextUint32();
      // Count the k (1-based) with w_k > first, i.e. the entries words[0 … count − 1].
      let count = this.guide[first >>> GUIDE_SHIFT]!;
      while (count < size && words[count]! > first) count++;
      if (count < size && words[count] === first) count = this.resolveTies(rng, first, count);
      if (count < size) return total + count;
      total += size;
      if (total >= cap) return total;
    }
  }

  /** Extends the count over the entries equal to U's first word by exact comparisons. */
  private resolveTies(rng: Rng, first: number, count: number): number {
    const uniform = new LazyUniform(rng, first);
    let k = count;
    while (k < this.words.length && this.words[k] === first && uniform.isBelow(this.ratio, k + 1)) k++;
    return k;
  }
}

/** guide[b] = #{k : w_k > the largest u whose top GUIDE_BITS bits are b}; the words are non-increasing. */
function guideOf(words: Uint32Array): Uint16Array {
  const guide = new Uint16Array(1 << GUIDE_BITS);
  let count = words.length;
  for (let bucket = 0; bucket < guide.length; bucket++) {
    const largest = (bucket + 1) * 2 ** GUIDE_SHIFT - 1;
    while (count > 0 && words[count - 1]! <= largest) count--;
    guide[bucket] = count;
  }
  return guide;
}

/** w_k = floor(r^k·2^32) for k = 1 … T, from chained brackets, each checked exact. */
function firstWordsOfPowers(ratio: RatioBracket): Uint32Array {
  const shift = BigInt(TABLE_WORK_BITS);
  const toWord = BigInt(TABLE_WORK_BITS - WORD_BITS);
  const [rLo, rHi] = ratio(TABLE_WORK_BITS);
  const words: number[] = [];
  let lo = 1n << shift;
  let hi = lo;
  for (let k = 1; k <= LARGEST_TABLE; k++) {
    lo = (lo * rLo) >> shift;
    hi = (hi * rHi + (1n << shift) - 1n) >> shift;
    let word = lo >> toWord;
    if (word !== hi >> toWord) word = exactFirstWord(ratio, k);
    words.push(Number(word));
    if (word === 0n) break;
  }
  return Uint32Array.from(words);
}

function exactFirstWord(ratio: RatioBracket, k: number): bigint {
  for (let bits = 2 * TABLE_WORK_BITS; ; bits *= 2) {
    const [lo, hi] = powerBracketAt(ratio, k, bits);
    const shift = BigInt(bits - WORD_BITS);
    if (lo >> shift === hi >> shift) return lo >> shift;
  }
}

/** The bits of one uniform U in (0, 1), drawn 32 at a time as comparisons need them. */
class LazyUniform {
  private prefix: bigint;
  private bits = WORD_BITS;

  constructor(
    private readonly rng: Rng,
    firstWord: number,
  ) {
    this.prefix = BigInt(firstWord);
  }

  /** Whether U < r^k, exactly: U lies in [prefix, prefix + 1)/2^bits, r^k in [lo, hi]/2^bits. */
  isBelow(ratio: RatioBracket, k: number): boolean {
    // Start at the bits already drawn, so that prefix always holds exactly `bits` bits.
    for (let bits = Math.max(2 * WORD_BITS, this.bits); ; bits *= 2) {
      while (this.bits < bits) {
        this.prefix = (this.prefix << 32n) | BigInt(this.rng.nextUint32());
        this.bits += WORD_BITS;
      }
      const [lo, hi] = powerBracketAt(ratio, k, bits);
      if (this.prefix + 1n <= lo) return true;
      if (this.prefix >= hi) return false;
    }
  }
}
