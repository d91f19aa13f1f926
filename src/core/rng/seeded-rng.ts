import type { Rng } from './types';

/**
 * A reproducible generator for tests, demos and seeded runs (never for release: DESIGN.md rule 3).
 *
 * Algorithm: xoshiro128** 1.1 (Blackman & Vigna, "Scrambled Linear Pseudorandom Number Generators",
 * ACM TOMS 47(4), 2021, §4 and the reference code at prng.di.unimi.it), 128 bits of state, period
 * 2^128 − 1, passes BigCrush. The state is filled from the seed with SplitMix64 (Steele, Lea & Flood,
 * "Fast Splittable Pseudorandom Number Generators", OOPSLA 2014), the seeding the xoshiro authors
 * recommend: the seed is turned into the string `String(seed)` (so 42 and "42" give the same stream),
 * each UTF-16 code unit is absorbed into a 64-bit SplitMix64 state, and two SplitMix64 outputs give
 * the four 32-bit state words.
 *
 * Cost: a handful of 32-bit integer operations per word.
 * Example: `new SeededRng(1).nextUint32()` is the same number on every platform.
 */
export class SeededRng implements Rng {
  readonly seeded = true as const;
  private s0: number;
  private s1: number;
  private s2: number;
  private s3: number;

  /** Throws RangeError for a non-finite number seed. */
  constructor(seed: number | string) {
    if (typeof seed === 'number' && !Number.isFinite(seed)) {
      throw new RangeError(`SeededRng: seed must be a finite number or a string, got ${String(seed)}`);
    }
    const words = seedWordsFromString(String(seed));
    this.s0 = words[0] | 0;
    this.s1 = words[1] | 0;
    this.s2 = words[2] | 0;
    this.s3 = words[3] | 0;
  }

  /**
   * A generator started from an explicit xoshiro128** state (four 32-bit words, not all zero), for
   * known-answer tests against the reference implementation. Throws RangeError for an invalid state.
   */
  static fromState(s0: number, s1: number, s2: number, s3: number): SeededRng {
    const words = [s0, s1, s2, s3];
    if (
      !words.every((w) => Number.isInteger(w) && w >= 0 && w <= 0xffffffff) ||
      words.every((w) => w === 0)
    ) {
      throw new RangeError(
        `SeededRng.fromState: need four 32-bit words, not all zero, got ${words.join(', ')}`,
      );
    }
    const rng = new SeededRng('');
    rng.s0 = s0 | 0;
    rng.s1 = s1 | 0;
    rng.s2 = s2 | 0;
    rng.s3 = s3 | 0;
    return rng;
  }

  /** A generator in this one's state: it gives the numbers this one would give next (Rng.copy). */
  copy(): SeededRng {
    const twin = new SeededRng('');
    twin.s0 = this.s0;
    twin.s1 = this.s1;
    twin.s2 = this.s2;
    twin.s3 = this.s3;
    return twin;
  }

  nextUint32(): number {
    const s0 = this.s0;
    const s1 = this.s1;
    const s2 = this.s2;
    const s3 = this.s3;
    const times5 = Math.imul(s1, 5);
    const result = Math.imul((times5 << 7) | (times5 >>> 25), 9) >>> 0;
    const t = s1 << 9;
    const n2 = s2 ^ s0;
    const n3 = s3 ^ s1;
    this.s1 = s1 ^ n2;
    this.s0 = s0 ^ n3;
    this.s2 = n2 ^ t;
    this.s3 = (n3 << 11) | (n3 >>> 21);
    return result;
  }

  /** 53 random bits (27 from one word, 26 from the next) divided by 2^53: uniform on [0, 1). */
  nextFloat(): number {
    const high27 = this.nextUint32() >>> 5;
    const low26 = this.nextUint32() >>> 6;
    return (high27 * 67108864 + low26) / 9007199254740992;
  }
}

const MASK_64 = (1n << 64n) - 1n;
const GOLDEN_GAMMA = 0x9e3779b97f4a7c15n;

/** The SplitMix64 output function (Steele, Lea & Flood 2014, Fig. 16, "mix64" with Stafford's variant 13). */
function splitMix64Finalize(z: bigint): bigint {
  z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & MASK_64;
  z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & MASK_64;
  return z ^ (z >> 31n);
}

function seedWordsFromString(seed: string): [number, number, number, number] {
  let state = BigInt(seed.length);
  for (let i = 0; i < seed.length; i++) {
    state = splitMix64Finalize((state + GOLDEN_GAMMA + BigInt(seed.charCodeAt(i))) & MASK_64);
  }
  const words: number[] = [];
  for (let i = 0; i < 2; i++) {
    state = (state + GOLDEN_GAMMA) & MASK_64;
    const output = splitMix64Finalize(state);
    words.push(Number(output >> 32n), Number(output & 0xffffffffn));
  }
  // xoshiro must not start from the all-zero state; SplitMix64 outputs two zero words with probability 2^-128.
  if ((words[0] | words[1] | words[2] | words[3]) === 0) words[0] = 1;
  return [words[0], words[1], words[2], words[3]];
}
