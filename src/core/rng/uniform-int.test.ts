import { describe, expect, it } from 'vitest';
import { chiSquareGoodnessOfFit } from '../stats/chi-square-goodness-of-fit';
import { chiSquareUpperQuantile } from '../stats/chi-square';
import { SeededRng } from './seeded-rng';
import { scriptedRng } from './testing/scripted-rng';
import { uniformBigInt, uniformInt, uniformIntBelowSafe } from './uniform-int';

const ALPHA = 1e-6;
const TWO_POW_32 = 4294967296;

describe('uniformInt (rejection sampling)', () => {
  for (const n of [3, 7, 1000, 64]) {
    it(`is uniform on {0…${n - 1}} (chi-square on 300,000 draws, α = 1e−6)`, () => {
      const rng = new SeededRng(`uniform ${n}`);
      const counts = new Float64Array(n);
      for (let i = 0; i < 300_000; i++) counts[uniformInt(rng, n)]++;
      const fit = chiSquareGoodnessOfFit(counts, new Float64Array(n).fill(1 / n));
      expect(fit.pValue, `X² = ${fit.statistic} on ${fit.degreesOfFreedom} df`).toBeGreaterThan(ALPHA);
    });
  }

  it('is uniform for n = 2^32 − 1 in its top 6 bits and never returns n or more', () => {
    const n = TWO_POW_32 - 1;
    const rng = new SeededRng('uniform 2^32-1');
    const counts = new Float64Array(64);
    let largest = 0;
    for (let i = 0; i < 400_000; i++) {
      const value = uniformInt(rng, n);
      largest = Math.max(largest, value);
      counts[Math.floor(value / 2 ** 26)]++;
    }
    expect(largest).toBeLessThan(n);
    // Buckets of 2^26 values each; the last holds 2^26 − 1 of the n values.
    const probabilities = Array.from({ length: 64 }, (_, j) => (j < 63 ? 2 ** 26 : 2 ** 26 - 1) / n);
    const fit = chiSquareGoodnessOfFit(counts, probabilities);
    expect(fit.pValue, `X² = ${fit.statistic}`).toBeGreaterThan(ALPHA);
  });

  it('passes where reducing a word modulo n would fail, and the test is shown to have the power', () => {
    // n = 3·2^30: a word mod n (no rejection) puts 2^32 − n = 2^30 extra words on {0 … 2^30 − 1}, so the
    // thirds [0, 2^30), [2^30, 2^31), [2^31, n) get 1/2, 1/4, 1/4 instead of 1/3 each. With N = 90,000
    // the noncentrality λ = N·Σ(p′ − p)²/p = N·(1/12 + 1/48 + 1/48) = 11,250 against a critical value
    // of 27.6 on 2 df (α = 1e−6): mean − 5 sd of X² under the bug is about 10,300.
    const n = 3 * 2 ** 30;
    const draws = 90_000;
    const thirds = (draw: () => number) => {
      const counts = new Float64Array(3);
      for (let i = 0; i < draws; i++) counts[Math.floor(draw() / 2 ** 30)]++;
      return chiSquareGoodnessOfFit(counts, [1 / 3, 1 / 3, 1 / 3]);
    };
    const expectedBiased = Float64Array.from([1 / 2, 1 / 4, 1 / 4], (p) => draws * p);
    const lambda = chiSquareGoodnessOfFit(expectedBiased, [1 / 3, 1 / 3, 1 / 3]).statistic;
    expect(lambda).toBeCloseTo(11_250, 6);
    expect(2 + lambda - 5 * Math.sqrt(2 * (2 + 2 * lambda))).toBeGreaterThan(
      chiSquareUpperQuantile(ALPHA, 2),
    );
    const rng = new SeededRng('modulo');
    const fit = thirds(() => uniformInt(rng, n));
    expect(fit.pValue, `X² = ${fit.statistic}`).toBeGreaterThan(ALPHA);
    const modulo = thirds(() => rng.nextUint32() % n);
    expect(modulo.pValue, `X² = ${modulo.statistic}`).toBeLessThan(ALPHA);
  });

  it('discards exactly the words that would bias the result', () => {
    // n = 2^32 − 1 (threshold rule): word 2^32 − 1 would map to 0 a second time and is rejected.
    const big = scriptedRng([TWO_POW_32 - 1, 5]);
    expect(uniformInt(big, TWO_POW_32 - 1)).toBe(5);
    expect(big.used).toBe(2);
    // n = 3 (Lemire): 2^32 mod 3 = 1, so only w with w·3 mod 2^32 = 0, i.e. w = 0, is rejected.
    const small = scriptedRng([0, 0x80000000, 0xffffffff]);
    expect(uniformInt(small, 3)).toBe(1); // ⌊2^31·3 / 2^32⌋ = 1
    expect(small.used).toBe(2);
    expect(uniformInt(small, 3)).toBe(2);
    // Powers of two take the top bits: n = 4 maps 0xc0000000 to 3, with no rejection.
    const power = scriptedRng([0xc0000000, 0x3fffffff]);
    expect([uniformInt(power, 4), uniformInt(power, 4)]).toEqual([3, 0]);
    expect(uniformInt(scriptedRng([]), 1)).toBe(0);
    // n = 2^32 takes the word as it is.
    expect(uniformInt(scriptedRng([123456789]), TWO_POW_32)).toBe(123456789);
  });

  it('rejects n outside [1, 2^32] or not an integer', () => {
    const rng = new SeededRng(1);
    for (const bad of [0, -3, 2.5, TWO_POW_32 + 1, NaN, Infinity]) {
      expect(() => uniformInt(rng, bad), String(bad)).toThrow(RangeError);
    }
    expect(uniformInt(rng, 1)).toBe(0);
  });

  it('draws uniformly below n up to 2^53 with two words (uniformIntBelowSafe)', () => {
    const n = 3 * 2 ** 50 + 1;
    const rng = new SeededRng('safe');
    const counts = new Float64Array(3);
    let largest = 0;
    for (let i = 0; i < 90_000; i++) {
      const value = uniformIntBelowSafe(rng, n);
      largest = Math.max(largest, value);
      counts[Math.min(2, Math.floor(value / 2 ** 50))]++;
    }
    expect(largest).toBeLessThan(n);
    const fit = chiSquareGoodnessOfFit(counts, [2 ** 50 / n, 2 ** 50 / n, (2 ** 50 + 1) / n]);
    expect(fit.pValue, `X² = ${fit.statistic}`).toBeGreaterThan(ALPHA);
  });
});

describe('uniformBigInt', () => {
  for (const n of [10n ** 30n + 7n, (1n << 64n) + 1n]) {
    it(`is uniform below ${n} (50 equal-probability buckets, chi-square α = 1e−6)`, () => {
      const rng = new SeededRng(`bigint ${n}`);
      const buckets = 50n;
      const counts = new Float64Array(Number(buckets));
      let outOfRange = 0;
      for (let i = 0; i < 100_000; i++) {
        const value = uniformBigInt(rng, n);
        if (value < 0n || value >= n) outOfRange++;
        else counts[Number((value * buckets) / n)]++;
      }
      expect(outOfRange).toBe(0);
      // Bucket j holds the v with ⌊v·50/n⌋ = j: exactly ⌈(j+1)n/50⌉ − ⌈jn/50⌉ values.
      const ceilDiv = (a: bigint, b: bigint) => (a + b - 1n) / b;
      const probabilities = Array.from({ length: 50 }, (_, j) => {
        const size = ceilDiv(BigInt(j + 1) * n, buckets) - ceilDiv(BigInt(j) * n, buckets);
        return Number((size * 10n ** 18n) / n) / 1e18;
      });
      const fit = chiSquareGoodnessOfFit(counts, probabilities);
      expect(fit.pValue, `X² = ${fit.statistic}`).toBeGreaterThan(ALPHA);
    });
  }

  it('handles small n and rejects n < 1', () => {
    const rng = new SeededRng(2);
    expect(uniformBigInt(rng, 1n)).toBe(0n);
    const seen = new Set<bigint>();
    for (let i = 0; i < 200; i++) seen.add(uniformBigInt(rng, 5n));
    expect([...seen].sort()).toEqual([0n, 1n, 2n, 3n, 4n]);
    expect(() => uniformBigInt(rng, 0n)).toThrow(RangeError);
  });
});

describe('uniform integers word by word', () => {
  it('keeps a Lemire word exactly when (w·n mod 2^32) >= 2^32 mod n', () => {
    // n = 3, 2^32 mod 3 = 1. w = 1431655766: 3w = 2^32 + 2, low part 2 (>= 1 but < n): kept, high part 1.
    const lowTwo = scriptedRng([1431655766]);
    expect(uniformInt(lowTwo, 3)).toBe(1);
    expect(lowTwo.used).toBe(1);
    // w = 2863311531: 3w = 2·2^32 + 1, low part exactly 2^32 mod 3 = 1: kept, high part 2.
    const lowOne = scriptedRng([2863311531]);
    expect(uniformInt(lowOne, 3)).toBe(2);
    expect(lowOne.used).toBe(1);
  });

  it('rejects a Lemire word whose low part is below 2^32 mod n even when its high part is not 0', () => {
    // n = 7, 2^32 mod 7 = 4. w = 0x24924925: 7w = 2^32 + 3, high part 1, low part 3 (< 4): rejected.
    // w = 0xdb6db6dc: 7w = 6·2^32 + 4, low part exactly 4: kept, high part 6.
    const rng = scriptedRng([0x24924925, 0xdb6db6dc]);
    expect(uniformInt(rng, 7)).toBe(6);
    expect(rng.used).toBe(2);
  });

  it('rejects a 53-bit value equal to the largest multiple of n below 2^53', () => {
    // n = 3·2^50 + 1: 2^53 mod n = 2^53 − 2n = 2^51 − 2, so the bound is 2^53 − 2^51 + 2 =
    // 6755399441055746 = 1572864·2^32 + 2, read from the words (1572864·2^11, 2). That value is
    // rejected; the next pair (0, 5) gives 5.
    const n = 3 * 2 ** 50 + 1;
    expect(2 ** 53 - (2 ** 53 % n)).toBe(6755399441055746);
    const rng = scriptedRng([1572864 * 2 ** 11, 2, 0, 5]);
    expect(uniformIntBelowSafe(rng, n)).toBe(5);
    expect(rng.used).toBe(4);
  });

  it('joins two words into a 53-bit value above 2^32 (high 21 bits, then 32)', () => {
    expect(uniformIntBelowSafe(scriptedRng([0, 5]), 2 ** 40)).toBe(5);
    // (2^11 >>> 11)·2^32 + 9 = 2^32 + 9.
    expect(uniformIntBelowSafe(scriptedRng([2 ** 11, 9]), 2 ** 40)).toBe(2 ** 32 + 9);
  });

  it('rejects a bigint draw equal to n and uses the full top word when the bit length is a multiple of 32', () => {
    // n = 2^32 + 1: 33 bits, the top word masked to 1 bit. (1, 1) gives 2^32 + 1 = n: rejected; (0, 7) gives 7.
    const edge = scriptedRng([1, 1, 0, 7]);
    expect(uniformBigInt(edge, 2n ** 32n + 1n)).toBe(7n);
    expect(edge.used).toBe(4);
    // n = 2^64: 64 bits, two full words. A draw is below 2^32 with probability 2^−32, so 20 draws
    // all below it would be a masked top word (probability 2^−640 otherwise).
    const rng = new SeededRng('top word');
    const draws = Array.from({ length: 20 }, () => uniformBigInt(rng, 2n ** 64n));
    expect(draws.some((draw) => draw >= 2n ** 32n)).toBe(true);
    expect(draws.every((draw) => draw < 2n ** 64n)).toBe(true);
  });
});
