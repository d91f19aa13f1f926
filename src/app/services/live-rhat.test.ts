import { describe, expect, it } from 'vitest';
import type { LiveChainTrace } from '../state/live-mcmc-store';
import { liveRhat } from './live-rhat';

/** A chain trace with points every 10 iterations and the given u values. */
function chain(u: number[]): LiveChainTrace {
  return { iterations: u.map((_, i) => (i + 1) * 10), u, acceptance: u.map(() => 0.25) };
}

/** A deterministic wiggle with mean `level`: ±0.01 alternating. */
const wiggle = (points: number, level: number) =>
  Array.from({ length: points }, (_, i) => level + (i % 2 === 0 ? 0.01 : -0.01));

describe('liveRhat', () => {
  it('waits for 8 points after burn-in in every chain', () => {
    // Burn-in ends at iteration 100 = point 10; chain 2 has only 7 points after it.
    expect(liveRhat([chain(wiggle(20, 0.1)), chain(wiggle(17, 0.1))], 100)).toBeNull();
    expect(liveRhat([chain(wiggle(18, 0.1)), chain(wiggle(18, 0.1))], 100)).not.toBeNull();
  });

  it('is 1 − O(1/n) for chains around the same level and large for chains apart', () => {
    // Same level: between-chain variance 0, so R̂ = √((n−1)/n) with n = 10 per half: 0.949.
    const same = liveRhat([chain(wiggle(30, 0.1)), chain(wiggle(30, 0.1))], 100)!;
    expect(same).toBeCloseTo(Math.sqrt(9 / 10), 6);
    // Levels 0.1 and 0.2 with within-half SD ≈ 0.0105: R̂ ≫ 1.1.
    expect(liveRhat([chain(wiggle(30, 0.1)), chain(wiggle(30, 0.2))], 100)!).toBeGreaterThan(3);
  });

  it('compares the same iterations of chains that ran different distances', () => {
    // Chain 2 is ahead; its extra points (far off) must not enter the comparison.
    const behind = chain(wiggle(30, 0.1));
    const ahead = chain([...wiggle(30, 0.1), ...wiggle(20, 5)]);
    expect(liveRhat([behind, ahead], 100)).toBeCloseTo(Math.sqrt(9 / 10), 6);
  });
});
