import { describe, expect, it } from 'vitest';
import { SeededRng } from '../rng';
import { potentialScaleReduction, splitRhat, splitRhatFromHalves } from './rhat';
import { makeRunningMoments, summarizeRunningMoments, updateRunningMoments } from './running-moments';

/** Independent N(mean, 1) draws from the Box–Muller transform (test data only). */
function normalDraws(rng: SeededRng, length: number, mean: number): Float64Array {
  const out = new Float64Array(length);
  for (let i = 0; i < length; i++) {
    const u = 1 - rng.nextFloat();
    out[i] = mean + Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rng.nextFloat());
  }
  return out;
}

describe('potentialScaleReduction (BDA3 eqs. 11.2–11.4)', () => {
  it('is √((L−1)/L) for sequences with equal means and variances', () => {
    expect(potentialScaleReduction([0, 0], [1, 1], 100)).toBeCloseTo(Math.sqrt(0.99), 15);
  });

  it('matches a hand computation with different means', () => {
    // B = 10/(2−1)·((0−0.5)² + (1−0.5)²) = 5, W = 1, var⁺ = 0.9·1 + 5/10 = 1.4 → R̂ = √1.4.
    expect(potentialScaleReduction([0, 1], [1, 1], 10)).toBeCloseTo(Math.sqrt(1.4), 15);
  });

  it('is NaN for one sequence, 1 for identical constants, Infinity for distinct constants', () => {
    expect(potentialScaleReduction([0], [1], 10)).toBeNaN();
    expect(potentialScaleReduction([2, 2], [0, 0], 10)).toBe(1);
    expect(potentialScaleReduction([1, 2], [0, 0], 10)).toBe(Infinity);
  });
});

describe('split-R̂', () => {
  it('is near 1 for chains drawn from the same distribution and far above 1.1 for shifted ones', () => {
    const rng = new SeededRng(11);
    const same = [normalDraws(rng, 2000, 0), normalDraws(rng, 2000, 0), normalDraws(rng, 2000, 0)];
    const shifted = [normalDraws(rng, 2000, 0), normalDraws(rng, 2000, 0), normalDraws(rng, 2000, 1)];
    // With 6 half-chains of 1000 iid draws, B/L has mean 1/L and R̂ − 1 is O(1/L): 1.01 is ~10 sd away.
    expect(Math.abs(splitRhat(same) - 1)).toBeLessThan(0.01);
    // Half means ≈ (0, 0, 0, 0, 1, 1): B/L = Σ(mean − 1/3)²/5 = (4/9 + 8/9)/5 ≈ 0.267, W ≈ 1, so
    // R̂ ≈ √(1 + 0.267) ≈ 1.125; each half mean has sd 1/√1000 ≈ 0.03, far too little to reach 1.1.
    expect(splitRhat(shifted)).toBeGreaterThan(1.1);
  });

  it('detects a drift inside a single chain (the halves differ)', () => {
    const rng = new SeededRng(12);
    const drifting = Float64Array.from(normalDraws(rng, 2000, 0), (x, t) => x + (t < 1000 ? 0 : 2));
    expect(splitRhat([drifting])).toBeGreaterThan(1.3);
  });

  it('gives the same value from running half summaries as from raw draws', () => {
    const rng = new SeededRng(13);
    const chains = [normalDraws(rng, 501, 0), normalDraws(rng, 501, 0.2)];
    const halves = chains.flatMap((chain) => {
      const first = makeRunningMoments(1);
      const second = makeRunningMoments(1);
      for (let t = 0; t < 250; t++) updateRunningMoments(first, [chain[t]!]);
      for (let t = 251; t < 501; t++) updateRunningMoments(second, [chain[t]!]);
      return [summarizeRunningMoments(first), summarizeRunningMoments(second)];
    });
    expect(splitRhatFromHalves(halves, 0)).toBeCloseTo(splitRhat(chains), 12);
  });
});
