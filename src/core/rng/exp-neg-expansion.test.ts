import { describe, expect, it } from 'vitest';
import { floorExpNegScaled, makeBernoulliExpNegWordSampler } from './exp-neg-expansion';
import { SeededRng } from './seeded-rng';
import { scriptedRng } from './testing/scripted-rng';

describe('floorExpNegScaled', () => {
  it('gives the exact leading binary digits of e^−x', () => {
    // Reference values from Python's decimal module at 60 significant digits:
    // int(Decimal(-1/2).exp() · 2^32), int(Decimal(-37/200).exp() · 2^64), int(Decimal(-25).exp() · 2^64).
    expect(floorExpNegScaled(1n, 2n, 32)).toBe(2_605_029_347n);
    expect(floorExpNegScaled(37n, 200n, 64)).toBe(15_331_168_022_783_819_997n);
    expect(floorExpNegScaled(25n, 1n, 64)).toBe(256_187_346n);
    expect(floorExpNegScaled(0n, 1n, 8)).toBe(256n);
  });

  it('agrees with Math.exp wherever the double is far from an integer boundary', () => {
    for (const [s, t] of [
      [1n, 3n],
      [7n, 2n],
      [1n, 1000n],
      [123n, 10n],
    ] as const) {
      const scaled = Math.exp(-Number(s) / Number(t)) * 2 ** 32;
      expect(Number(floorExpNegScaled(s, t, 32))).toBe(Math.floor(scaled));
    }
  });
});

describe('makeBernoulliExpNegWordSampler', () => {
  it('decides on the first word that differs from the expansion of e^−γ', () => {
    // γ = 1/2: first word 2,605,029,347; the second word of the expansion is floor(q·2^64) mod 2^32.
    const second = Number(floorExpNegScaled(1n, 2n, 64) % 2n ** 32n);
    const first = 2_605_029_347;
    expect(makeBernoulliExpNegWordSampler(1n, 2n)(scriptedRng([first - 1]))).toBe(true);
    expect(makeBernoulliExpNegWordSampler(1n, 2n)(scriptedRng([first + 1]))).toBe(false);
    expect(makeBernoulliExpNegWordSampler(1n, 2n)(scriptedRng([first, second - 1]))).toBe(true);
    expect(makeBernoulliExpNegWordSampler(1n, 2n)(scriptedRng([first, second + 1]))).toBe(false);
    expect(makeBernoulliExpNegWordSampler(0n, 1n)(scriptedRng([]))).toBe(true);
  });

  it('has success rate e^−γ', () => {
    // 400,000 draws at γ = 3/4 (q = 0.47237): sd of the rate √(q(1 − q)/N) = 0.00079; 5 sd allowed.
    const rng = new SeededRng('bernoulli words');
    const draw = makeBernoulliExpNegWordSampler(3n, 4n);
    const draws = 400_000;
    let successes = 0;
    for (let i = 0; i < draws; i++) if (draw(rng)) successes++;
    const q = Math.exp(-0.75);
    expect(Math.abs(successes / draws - q)).toBeLessThan(5 * Math.sqrt((q * (1 - q)) / draws));
  });

  it('hands large γ to the generic exact sampler, so a near-noiseless scale does not expand a huge series', () => {
    // γ = 250,000 is the count noise of ε = 10⁶ over 2 releases (scale 4·10⁻⁶): e^−γ underflows,
    // so every draw is false; γ = 17, just past the switch, has rate e^−17 = 4·10⁻⁸: 100,000 draws
    // are all false with probability 0.996, and the seed is fixed.
    const rng = new SeededRng('large gamma');
    const nearNoiseless = makeBernoulliExpNegWordSampler(250_000n, 1n);
    const pastSwitch = makeBernoulliExpNegWordSampler(17n, 1n);
    for (let i = 0; i < 100_000; i++) {
      expect(nearNoiseless(rng)).toBe(false);
      expect(pastSwitch(rng)).toBe(false);
    }
  });
});
