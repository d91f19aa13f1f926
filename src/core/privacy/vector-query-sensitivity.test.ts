import { describe, expect, it } from 'vitest';
import { Rational } from '../rng/rational';
import { SeededRng } from '../rng/seeded-rng';
import { querySensitivity } from './query-sensitivity';

const R = (n: number) => Rational.of(n);

describe('sensitivities of cell sums, Gram matrices and grid entropies', () => {
  it('states the derived bounds under both relations', () => {
    const ballSums = { kind: 'ball-sums', radius: 4 } as const;
    expect(querySensitivity(ballSums, 'replace-one')).toEqual({ l1: R(32), l2Squared: R(64) });
    expect(querySensitivity(ballSums, 'add-remove')).toEqual({ l1: R(16), l2Squared: R(16) });
    const bounded = { kind: 'partition-bounded-sums', upper: 16 } as const;
    expect(querySensitivity(bounded, 'replace-one')).toEqual({ l1: R(32), l2Squared: R(512) });
    expect(querySensitivity(bounded, 'add-remove')).toEqual({ l1: R(16), l2Squared: R(256) });
    const gram = { kind: 'ball-gram', radius: 4 } as const;
    expect(querySensitivity(gram, 'replace-one')).toEqual({ l1: R(272), l2Squared: R(512) });
    expect(querySensitivity(gram, 'add-remove')).toEqual({ l1: R(136), l2Squared: R(256) });
    const entropies = { kind: 'grid-entropies', entropies: 6, gridSteps: 16 } as const;
    expect(querySensitivity(entropies, 'replace-one')).toEqual({ l1: R(102), l2Squared: R(1734) });
    expect(() => querySensitivity(entropies, 'add-remove')).toThrow(RangeError);
    expect(() => querySensitivity({ kind: 'ball-sums', radius: 0 }, 'replace-one')).toThrow(RangeError);
  });

  it('bounds the change of random integer vectors of norm <= r, two cells, and their Gram upper triangle', () => {
    // 2·10⁴ random replace-one pairs with r = 5 (vectors of 3 integers), both in one cell or in two.
    const r = 5;
    const rng = new SeededRng('vectors');
    const vector = () => {
      for (;;) {
        const v = [0, 1, 2].map(() => (rng.nextUint32() % 11) - 5);
        if (v.reduce((s, x) => s + x * x, 0) <= r * r) return v;
      }
    };
    const gramUpper = (v: number[]) => v.flatMap((a, i) => v.slice(i).map((b) => a * b));
    let sums2 = 0;
    let sums1 = 0;
    let gram2 = 0;
    let gram1 = 0;
    for (let trial = 0; trial < 20_000; trial++) {
      const v = vector();
      const w = vector();
      const sameCell = trial % 2 === 0;
      const change = sameCell ? v.map((x, j) => w[j]! - x) : [...v.map((x) => -x), ...w];
      sums2 = Math.max(
        sums2,
        change.reduce((s, x) => s + x * x, 0),
      );
      sums1 = Math.max(
        sums1,
        change.reduce((s, x) => s + Math.abs(x), 0),
      );
      const g = gramUpper(v).map((x, j) => gramUpper(w)[j]! - x);
      gram2 = Math.max(
        gram2,
        g.reduce((s, x) => s + x * x, 0),
      );
      gram1 = Math.max(
        gram1,
        g.reduce((s, x) => s + Math.abs(x), 0),
      );
    }
    const ball = querySensitivity({ kind: 'ball-sums', radius: r }, 'replace-one');
    const gram = querySensitivity({ kind: 'ball-gram', radius: r }, 'replace-one');
    expect(sums2).toBeLessThanOrEqual(ball.l2Squared.toNumber());
    expect(sums1).toBeLessThanOrEqual(ball.l1.toNumber());
    expect(gram2).toBeLessThanOrEqual(gram.l2Squared.toNumber());
    expect(gram1).toBeLessThanOrEqual(gram.l1.toNumber());
    // Opposite vectors of norm r in one cell reach L2² = 4r²: (3, 4, 0) and (−3, −4, 0).
    expect([3, 4, 0].map((x) => 2 * x).reduce((s, x) => s + x * x, 0)).toBe(ball.l2Squared.toNumber());
  });
});
