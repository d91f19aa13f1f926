import { describe, expect, it } from 'vitest';
import { testTable } from '../testing/test-table';
import { decideBinaryTarget, describeBinaryTarget, labelRows } from './binary-target';

describe('binary targets', () => {
  it('takes the second of two levels in code-point order, matched by token in other tables', () => {
    const real = testTable({ y: ['no', 'yes', 'no', null] });
    const rule = decideBinaryTarget(real, 'y');
    expect(describeBinaryTarget(rule)).toBe('y = yes');
    expect(Array.from(labelRows(real, rule))).toEqual([0, 1, 0, 255]);
    const synth = testTable({ y: ['yes', 'maybe'] });
    expect(Array.from(labelRows(synth, rule))).toEqual([1, 0]);
  });

  it('uses the most frequent level against the rest for many levels', () => {
    const rule = decideBinaryTarget(testTable({ y: ['a', 'b', 'b', 'c'] }), 'y');
    expect(describeBinaryTarget(rule)).toBe('y = b');
  });

  it('splits a numeric target at the real median and keeps 0/1 targets', () => {
    const rule = decideBinaryTarget(testTable({ v: [1, 5, 3, 10] }), 'v');
    expect(describeBinaryTarget(rule)).toBe('v > 4');
    expect(Array.from(labelRows(testTable({ v: [4, 4.5, null] }), rule))).toEqual([0, 1, 255]);
    expect(describeBinaryTarget(decideBinaryTarget(testTable({ v: [0, 1, 1] }), 'v'))).toBe('v = 1');
  });
});
