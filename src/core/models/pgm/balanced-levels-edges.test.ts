import { describe, expect, it } from 'vitest';
import { SeededRng } from '../../rng/seeded-rng';
import { scriptedFloatRng } from '../../rng/testing/scripted-rng';
import { uniformInt } from '../../rng/uniform-int';
import { earliestDeadlineFirst, OccurrenceClock, spreadLevels, unbiasedCounts } from './balanced-levels';

// Edges of the balanced rule's parts that the tests of balanced-levels.test.ts do not reach: exact
// clock arithmetic where a remainder reaches the divisor, the heap path's refusals and its windows
// when a level is chosen at the very end of one, and the rounding slack of systematic sampling.

describe('OccurrenceClock on every small m and c', () => {
  it('gives ⌊j·m/c⌋ and ⌈(j + 1)·m/c⌉ − 1 for j = 0 … c, including where j·m mod c returns to 0', () => {
    for (let m = 1; m <= 12; m++)
      for (let c = 1; c <= m; c++) {
        const clock = new OccurrenceClock(m, c);
        for (let j = 0; j <= c; j++) {
          expect(clock.release, `m ${m}, c ${c}, j ${j}`).toBe(Math.floor((j * m) / c));
          expect(clock.deadline(), `m ${m}, c ${c}, j ${j}`).toBe(Math.ceil(((j + 1) * m) / c) - 1);
          clock.advance();
        }
      }
  });
});

describe('earliest deadline first with more levels than the scan takes', () => {
  it('keeps every prefix within 1 of its share, for any counts over 9 to 20 levels', () => {
    // The guarantee of spreadLevels: the first t positions hold level l within 1 of t·c_l/m (each
    // occurrence inside its window). Counts drawn at random, many of them small, so that a level is
    // often chosen at the last position of its window, where its next window already began.
    const rng = new SeededRng('deadline windows');
    for (let trial = 0; trial < 200; trial++) {
      const k = 9 + uniformInt(rng, 12);
      const counts = Array.from({ length: k }, () => uniformInt(rng, 4) + (uniformInt(rng, 3) === 0 ? 5 : 0));
      const m = counts.reduce((a, b) => a + b, 0);
      if (m === 0) continue;
      const sequence = earliestDeadlineFirst(counts, m);
      const seen = new Array<number>(k).fill(0);
      let worst = 0;
      sequence.forEach((level, p) => {
        seen[level]!++;
        for (let l = 0; l < k; l++) worst = Math.max(worst, Math.abs(seen[l]! - ((p + 1) * counts[l]!) / m));
      });
      expect(worst, `trial ${trial}: counts ${counts.join(', ')}`).toBeLessThan(1);
      expect(seen).toEqual(counts);
    }
  });

  it('refuses counts that do not sum to the number of positions', () => {
    const nine = [1, 1, 1, 1, 1, 1, 1, 1, 1];
    expect(() => earliestDeadlineFirst(nine, 10)).toThrow('spreadLevels: the counts do not sum to 10');
    expect(() => earliestDeadlineFirst(nine, 8)).toThrow('spreadLevels: the counts do not sum to 8');
    expect(() => spreadLevels(new SeededRng(1), nine, 8)).toThrow('spreadLevels: the counts do not sum to 8');
  });
});

describe('unbiasedCounts at the edges of systematic sampling', () => {
  it('gives the rows that rounding leaves after the last point to the largest fractions not yet hit', () => {
    // Weights (1/7, 1/3, 2/11), one row: shares 0.217…, 0.507…, 0.276…, all floors 0. The fractions,
    // scaled to sum to 1, sum in doubles to just below the largest uniform 1 − 2^−53: no interval holds
    // it, and the row goes to the largest fraction, level 1.
    expect(Array.from(unbiasedCounts(scriptedFloatRng([1 - 2 ** -53]), [1 / 7, 1 / 3, 2 / 11], 1))).toEqual([
      0, 1, 0,
    ]);
    // Weights (1/7, 1/3, 1/11), three rows: shares 0.756, 1.763, 0.481, floors (0, 1, 0), two rows
    // left. The points u and u + 1 (u = 1 − 2^−53): the first falls in level 1's interval; the second
    // is past the end, so it goes to the largest fraction not hit, level 0's 0.756.
    expect(Array.from(unbiasedCounts(scriptedFloatRng([1 - 2 ** -53]), [1 / 7, 1 / 3, 1 / 11], 3))).toEqual([
      1, 2, 0,
    ]);
  });

  it('draws nothing when every share is whole', () => {
    // Weights (1, 3), eight rows: shares exactly 2 and 6.
    const none = scriptedFloatRng([]);
    expect(Array.from(unbiasedCounts(none, [1, 3], 8))).toEqual([2, 6]);
    expect(none.used).toBe(0);
  });

  it('gives a single level every row, with no draw, where count·w/w falls below count in floating point', () => {
    // 189·10.97/10.97 = 188.99999999999997 in doubles: the floor leaves one row and a one-level group
    // has nowhere else to put it (this used to throw after the budget was spent).
    expect((189 * 10.97) / 10.97).toBeLessThan(189);
    const none = scriptedFloatRng([]);
    expect(Array.from(unbiasedCounts(none, [10.97], 189))).toEqual([189]);
    expect(Array.from(unbiasedCounts(none, [0.5], 0))).toEqual([0]);
    expect(none.used).toBe(0);
  });

  it('clamps a leftover of k or more rows (every share whole up to rounding) with no draw', () => {
    // Weights (1.8, 0.9 − 2^−53·…): shares 126 and 63 exactly, computed as 125.99… and 62.99…, so the
    // floors place 187 of 189 rows: both levels get one more.
    const weights = [1.8, 0.8999999999999999];
    const total = weights[0]! + weights[1]!;
    expect(weights.map((w) => Math.floor((189 * w) / total))).toEqual([125, 62]);
    const none = scriptedFloatRng([]);
    expect(Array.from(unbiasedCounts(none, weights, 189))).toEqual([126, 63]);
    expect(none.used).toBe(0);
  });

  it('refuses weights whose shares are not numbers', () => {
    expect(() => unbiasedCounts(new SeededRng(1), [Number.NaN, 1], 3)).toThrow(
      'unbiasedCounts: NaN rows left over with fractional mass NaN',
    );
  });
});
