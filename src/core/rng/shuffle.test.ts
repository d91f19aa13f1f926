import { describe, expect, it } from 'vitest';
import { SeededRng } from './seeded-rng';
import { shuffleInPlace } from './shuffle';

describe('shuffleInPlace', () => {
  it('keeps the multiset of values, for typed arrays and plain arrays', () => {
    const values = Uint32Array.from({ length: 100 }, (_, i) => i);
    shuffleInPlace(new SeededRng(9), values);
    expect(Array.from(values).sort((a, b) => a - b)).toEqual(Array.from({ length: 100 }, (_, i) => i));
    const labels = Uint8Array.from([1, 1, 0, 0, 0]);
    shuffleInPlace(new SeededRng(9), labels);
    expect(labels.reduce((sum, label) => sum + label, 0)).toBe(2);
  });

  it('puts each of 3 values first about a third of the time', () => {
    // 6,000 shuffles of [0, 1, 2]: each count of "value v first" is Binomial(6000, 1/3), SD ≈ 36.5;
    // a band of ± 5 SD (183) fails by chance with probability below 1e-6.
    const rng = new SeededRng(4);
    const firsts = [0, 0, 0];
    for (let k = 0; k < 6000; k++) {
      const values = [0, 1, 2];
      shuffleInPlace(rng, values);
      firsts[values[0]!]! += 1;
    }
    for (const count of firsts) expect(Math.abs(count - 2000)).toBeLessThan(183);
  });
});
