import { afterEach, describe, expect, it, vi } from 'vitest';
import { chiSquareGoodnessOfFit } from '../stats/chi-square-goodness-of-fit';
import { CryptoRng } from './crypto-rng';
import { makeRng } from './make-rng';
import { SeededRng } from './seeded-rng';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('CryptoRng', () => {
  it('works with the platform generator and gives uniform words (chi-square, α = 1e−6)', () => {
    const rng = new CryptoRng();
    expect(rng.seeded).toBe(false);
    const counts = new Float64Array(16);
    for (let i = 0; i < 100_000; i++) counts[rng.nextUint32() >>> 28]++;
    expect(chiSquareGoodnessOfFit(counts, new Float64Array(16).fill(1 / 16)).pValue).toBeGreaterThan(1e-6);
    const floats = Array.from({ length: 1000 }, () => rng.nextFloat());
    expect(floats.every((u) => u >= 0 && u < 1)).toBe(true);
  });

  it('throws a clear error when crypto is missing', () => {
    vi.stubGlobal('crypto', undefined);
    expect(() => new CryptoRng()).toThrow(
      'CryptoRng: globalThis.crypto.getRandomValues is not available in this environment; ' +
        'a secure random source is required (use a browser, a worker or Node >= 20).',
    );
    vi.stubGlobal('crypto', {});
    expect(() => new CryptoRng()).toThrow(/getRandomValues is not available/);
  });

  it('refills its 16,384-word buffer in 64 KiB calls and loses no words', () => {
    let counter = 0;
    const requestSizes: number[] = [];
    const fake = {
      getRandomValues(array: Uint32Array) {
        requestSizes.push(array.byteLength);
        for (let i = 0; i < array.length; i++) array[i] = counter++;
        return array;
      },
    };
    vi.stubGlobal('crypto', fake);
    const rng = new CryptoRng();
    vi.unstubAllGlobals(); // captured at construction: later changes do not matter
    const words = Array.from({ length: 40_000 }, () => rng.nextUint32());
    expect(words.every((word, i) => word === i)).toBe(true);
    expect(requestSizes).toEqual([65536, 65536, 65536]);
    // A float takes two words: 27 high bits of the first, 26 of the second.
    const expected = ((40_000 >>> 5) * 2 ** 26 + (40_001 >>> 6)) / 2 ** 53;
    expect(rng.nextFloat()).toBe(expected);
  });
});

describe('makeRng', () => {
  it('gives a SeededRng for a seed and a CryptoRng otherwise', () => {
    expect(makeRng()).toBeInstanceOf(CryptoRng);
    expect(makeRng(7)).toBeInstanceOf(SeededRng);
    expect(makeRng('x').seeded).toBe(true);
    expect(makeRng(7).nextUint32()).toBe(new SeededRng(7).nextUint32());
  });
});
