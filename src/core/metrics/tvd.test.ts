import { describe, expect, it } from 'vitest';
import { testTable } from './testing/test-table';
import { encodeMarginalCells, equalWidthBin } from './marginal-cells';
import { fullTableTvd, kMarginalScore, lexicographicCombinations, tvdKWay, tvdOfEncodedSubset } from './tvd';

describe('tvdKWay', () => {
  it('computes a hand-checked one-way TVD with categories aligned by token', () => {
    // real a: x,x,y,y ; synth a: y,x,x,x (different dictionary order) → ½(|2/4−3/4| + |2/4−1/4|) = 0.25
    const real = testTable({ a: ['x', 'x', 'y', 'y'] });
    const synth = testTable({ a: ['y', 'x', 'x', 'x'] });
    expect(tvdKWay(real, synth, 1).mean).toBe(0.25);
  });

  it('keeps missing values in their own cell and bins numbers over the pooled range', () => {
    // pooled range [0, 10], 10 bins: real bins {0, 5, 9, NA}, synth bins {0, 5, 9, 9}
    // → bin 9 differs by 1/4 and the NA cell by 1/4: ½(1/4 + 1/4) = 0.25
    const real = testTable({ v: [0, 5, 10, null] });
    const synth = testTable({ v: [0, 5, 9.5, 10] });
    expect(tvdKWay(real, synth, 1).mean).toBe(0.25);
  });

  it('averages two-way subsets in lexicographic order and names them', () => {
    const real = testTable({ a: ['x', 'y'], b: ['p', 'q'], c: [1, 2] });
    const synth = testTable({ c: [1, 2], b: ['q', 'p'], a: ['x', 'y'] });
    const result = tvdKWay(real, synth, 2);
    expect(result.subsets.map((s) => s.columns.join('|'))).toEqual(['a|b', 'a|c', 'b|c']);
    // (a,b): real {xp, yq}, synth {xq, yp} → 1; (a,c) identical → 0; (b,c): real {p1,q2} synth {q1,p2} → 1
    expect(result.subsets.map((s) => s.tvd)).toEqual([1, 0, 1]);
    expect(result.mean).toBe(2 / 3);
  });

  it('puts every value of a constant numeric column into bin 0', () => {
    const real = testTable({ v: [3, 3, 3] });
    const synth = testTable({ v: [3, 3] });
    expect(tvdKWay(real, synth, 1).mean).toBe(0);
  });

  it('rejects k outside 1…m and mismatched columns', () => {
    const real = testTable({ a: ['x'] });
    expect(() => tvdKWay(real, real, 2)).toThrow(/k must be/);
    expect(() => tvdKWay(real, testTable({ b: ['x'] }), 1)).toThrow(/different columns/);
  });
});

describe('helpers', () => {
  it('bins by the normative formula, with x = hi in the last bin', () => {
    expect(equalWidthBin(10, 0, 10, 10)).toBe(9);
    expect(equalWidthBin(0, 0, 10, 10)).toBe(0);
    expect(equalWidthBin(4, 4, 4, 10)).toBe(0);
  });

  it('lists combinations as itertools.combinations does', () => {
    expect(lexicographicCombinations(4, 2)).toEqual([
      [0, 1],
      [0, 2],
      [0, 3],
      [1, 2],
      [1, 3],
      [2, 3],
    ]);
  });

  it('scores SDNist k-marginal on 0–1000', () => {
    expect(kMarginalScore(0)).toBe(1000);
    expect(kMarginalScore(0.25)).toBe(750);
  });

  it('compares the full joint table when small', () => {
    const real = testTable({ a: ['x', 'y'], b: ['p', 'q'] });
    const synth = testTable({ a: ['x', 'y'], b: ['q', 'p'] });
    expect(fullTableTvd(real, synth)).toBe(1);
  });
});

describe('encodeMarginalCells', () => {
  it('keeps cell codes in one byte a row up to 256 cells and two up to 65,536, with the same TVD', () => {
    const n = 600;
    const values = Array.from({ length: n }, (_, i) => (i * 37) % 101);
    const labels = Array.from({ length: n }, (_, i) => `level ${(i * 13) % 300}`);
    const real = testTable({ x: values, g: labels });
    const synth = testTable({ x: values.map((v) => (v * 3) % 101), g: labels.slice().reverse() });
    const encoded = encodeMarginalCells(real, synth, 10);
    expect(encoded.columns[0]!.realCells).toBeInstanceOf(Uint8Array); // 10 bins + missing
    expect(encoded.columns[1]!.synthCells).toBeInstanceOf(Uint16Array); // 300 tokens + missing
    // The codes themselves: the bins tvd_ref.py gives (equalWidthBin over the pooled range [0, 100]).
    expect(Array.from(encoded.columns[0]!.realCells.subarray(0, 4))).toEqual(
      values.slice(0, 4).map((v) => equalWidthBin(v, 0, 100, 10)),
    );
    expect(tvdOfEncodedSubset(encoded, [0, 1])).toBe(tvdKWay(real, synth, 2).mean);
  });
});
