import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { chiSquareGoodnessOfFit } from '../stats/chi-square-goodness-of-fit';
import { SeededRng } from './seeded-rng';

describe('SeededRng (xoshiro128**)', () => {
  it('reproduces the reference implementation', () => {
    // Values from the reference C code xoshiro128starstar.c (Blackman & Vigna, prng.di.unimi.it),
    // compiled with gcc: state {1, 2, 3, 4}, the first six outputs, then output 1,000,001.
    const rng = SeededRng.fromState(1, 2, 3, 4);
    expect([1, 2, 3, 4, 5, 6].map(() => rng.nextUint32())).toEqual([
      11520, 0, 5927040, 70819200, 2031721883, 1637235492,
    ]);
    for (let i = 0; i < 999_994; i++) rng.nextUint32();
    expect(rng.nextUint32()).toBe(3175353485);
    // State {0xdeadbeef, 0x01234567, 0x89abcdef, 0xfedcba98}: first four outputs.
    const other = SeededRng.fromState(0xdeadbeef, 0x01234567, 0x89abcdef, 0xfedcba98);
    expect([1, 2, 3, 4].map(() => other.nextUint32())).toEqual([2576977298, 1162350735, 558593417, 7144843]);
  });

  it('derives its state from the seed string as described (SplitMix64 over UTF-16 code units)', () => {
    // From tests/reference/rng/seed_words.py, a Python implementation of the seeding as documented in
    // seeded-rng.ts: the four state words per seed and the first four outputs from them.
    const fixture = JSON.parse(
      readFileSync(new URL('../../../tests/fixtures/rng/seed-words.json', import.meta.url), 'utf8'),
    ) as { rows: { seed: string; state: number[]; first: number[] }[] };
    expect(fixture.rows.length).toBeGreaterThanOrEqual(8);
    for (const { seed, state, first } of fixture.rows) {
      const rng = new SeededRng(seed);
      expect(
        [1, 2, 3, 4].map(() => rng.nextUint32()),
        JSON.stringify(seed),
      ).toEqual(first);
      const fromState = SeededRng.fromState(state[0]!, state[1]!, state[2]!, state[3]!);
      expect(
        [1, 2, 3, 4].map(() => fromState.nextUint32()),
        JSON.stringify(seed),
      ).toEqual(first);
    }
  });

  it('is reproducible per seed, different across seeds, and treats 42 and "42" alike', () => {
    const draw = (seed: number | string) => {
      const rng = new SeededRng(seed);
      return Array.from({ length: 8 }, () => rng.nextUint32());
    };
    expect(draw(42)).toEqual(draw(42));
    expect(draw(42)).toEqual(draw('42'));
    expect(draw(42)).not.toEqual(draw(43));
    expect(draw('a')).not.toEqual(draw('b'));
    expect(draw('')).not.toEqual(draw('\u0000'));
    expect(new SeededRng(1).seeded).toBe(true);
  });

  it('gives uniform words and floats in [0, 1) (chi-square on 16 buckets, α = 1e−6)', () => {
    const rng = new SeededRng('buckets');
    const words = new Float64Array(16);
    const floats = new Float64Array(16);
    let outOfRange = 0;
    for (let i = 0; i < 200_000; i++) {
      words[rng.nextUint32() >>> 28]++;
      const u = rng.nextFloat();
      if (u >= 0 && u < 1) floats[Math.floor(u * 16)]++;
      else outOfRange++;
    }
    expect(outOfRange).toBe(0);
    const uniform = new Float64Array(16).fill(1 / 16);
    expect(chiSquareGoodnessOfFit(words, uniform).pValue).toBeGreaterThan(1e-6);
    expect(chiSquareGoodnessOfFit(floats, uniform).pValue).toBeGreaterThan(1e-6);
  });

  it('forms a float from the top 27 bits of one word and the top 26 of the next', () => {
    // The reference outputs from state {1, 2, 3, 4} (above) are 11520, 0, 5927040, 70819200.
    const rng = SeededRng.fromState(1, 2, 3, 4);
    expect(rng.nextFloat()).toBe(((11520 >>> 5) * 2 ** 26 + (0 >>> 6)) / 2 ** 53);
    expect(rng.nextFloat()).toBe(((5927040 >>> 5) * 2 ** 26 + (70819200 >>> 6)) / 2 ** 53);
  });

  it('uses all 53 bits of a float', () => {
    const rng = new SeededRng('bits');
    let lowBitsSeen = 0;
    for (let i = 0; i < 1000; i++) if ((rng.nextFloat() * 2 ** 53) % 2 === 1) lowBitsSeen++;
    // The lowest of the 53 bits is set about half the time: 500 ± 6·15.8.
    expect(Math.abs(lowBitsSeen - 500)).toBeLessThan(95);
  });

  it('rejects non-finite seeds and invalid states', () => {
    expect(() => new SeededRng(NaN)).toThrow(RangeError);
    expect(() => new SeededRng(Infinity)).toThrow(/finite/);
    expect(() => SeededRng.fromState(0, 0, 0, 0)).toThrow(/not all zero/);
    expect(() => SeededRng.fromState(1, 2, 3, 2 ** 32)).toThrow(RangeError);
    // The largest word is a valid state word: from {2^32 − 1, 0, 0, 0} the first outputs are 0 and
    // 4294962679 (xoshiro128starstar in tests/reference/rng/seed_words.py).
    const top = SeededRng.fromState(0xffffffff, 0, 0, 0);
    expect([top.nextUint32(), top.nextUint32()]).toEqual([0, 4294962679]);
  });

  it('copies its state: the copy gives the next numbers, and each then runs on alone', () => {
    const rng = new SeededRng('copy');
    rng.nextUint32();
    const twin = rng.copy();
    const ahead = Array.from({ length: 5 }, () => rng.nextUint32());
    expect(Array.from({ length: 5 }, () => twin.nextUint32())).toEqual(ahead);
    rng.nextUint32(); // the original moves on; the copy stays where it was
    expect(twin.nextUint32()).not.toBe(rng.nextUint32());
  });
});
