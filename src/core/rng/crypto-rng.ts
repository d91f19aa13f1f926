import type { Rng } from './types';
import type { RandomValuesSource } from './web-crypto';

/** 16384 words = 64 KiB, the most crypto.getRandomValues accepts in one call. */
const BUFFER_WORDS = 16384;

/**
 * The default generator (DESIGN.md privacy rule 3): the platform's cryptographically secure
 * generator, `globalThis.crypto.getRandomValues` (browsers, workers, Node >= 20), read in buffered
 * chunks of 64 KiB so a draw costs an array read. The function is captured at construction, so later
 * changes to globalThis do not affect an existing instance.
 *
 * Throws Error at construction when `globalThis.crypto.getRandomValues` is missing.
 */
export class CryptoRng implements Rng {
  readonly seeded = false as const;
  private readonly fill: (words: Uint32Array) => void;
  private readonly buffer = new Uint32Array(BUFFER_WORDS);
  private position = BUFFER_WORDS;

  constructor() {
    const source = (globalThis as { crypto?: Partial<RandomValuesSource> }).crypto;
    const getRandomValues = source?.getRandomValues;
    if (source === undefined || typeof getRandomValues !== 'function') {
      throw new Error(
        'CryptoRng: globalThis.crypto.getRandomValues is not available in this environment; ' +
          'a secure random source is required (use a browser, a worker or Node >= 20).',
      );
    }
    this.fill = (words) => {
      getRandomValues.call(source, words);
    };
  }

  nextUint32(): number {
    if (this.position === BUFFER_WORDS) {
      this.fill(this.buffer);
      this.position = 0;
    }
    return this.buffer[this.position++];
  }

  /** 53 random bits (27 from one word, 26 from the next) divided by 2^53: uniform on [0, 1). */
  nextFloat(): number {
    const high27 = this.nextUint32() >>> 5;
    const low26 = this.nextUint32() >>> 6;
    return (high27 * 67108864 + low26) / 9007199254740992;
  }
}
