import { describe, expect, it } from 'vitest';
import { testTable } from '../metrics/testing/test-table';
import { buildDesignMatrix, cartInputFromPredictors, MISSING_LEVEL, poolPredictors } from './design-matrix';

describe('poolPredictors (reference/README.md "Common preprocessing")', () => {
  it('sorts pooled levels by code point, matches tokens across dictionaries and ignores unused entries', () => {
    const real = testTable({ g: ['b', 'a', 'B', 'b'] });
    const synth = testTable({ g: ['é', 'a', 'a', 'b'] });
    // A dictionary entry that no row uses is not a level.
    (synth.columns[0] as { dictionary: string[] }).dictionary.push('zz');
    const pooled = poolPredictors([real, synth]);
    const variable = pooled.variables[0]!;
    expect(variable.kind).toBe('categorical');
    if (variable.kind !== 'categorical') return;
    expect(variable.levels).toEqual(['B', 'a', 'b', 'é']);
    expect(Array.from(variable.codes)).toEqual([2, 1, 0, 2, 3, 1, 1, 2]);
  });

  it('makes a missing categorical value the level "<NA>" (sorted like any token)', () => {
    const pooled = poolPredictors([testTable({ g: ['x', null] }), testTable({ g: ['1', 'x'] })]);
    const variable = pooled.variables[0]!;
    if (variable.kind !== 'categorical') throw new Error('expected categorical');
    expect(variable.levels).toEqual(['1', MISSING_LEVEL, 'x']);
    expect(Array.from(variable.codes)).toEqual([2, 1, 0, 2]);
  });

  it('drops pooled-constant columns, missing counting as a value, and keeps "a in real, b in synthetic"', () => {
    const real = testTable({ c: [5, 5], m: [null, null], s: ['a', 'a'], t: [1, null], u: [2, 3] });
    const synth = testTable({ c: [5, 5], m: [null, null], s: ['b', 'b'], t: [1, 1], u: [4, 5] });
    const pooled = poolPredictors([real, synth]);
    expect(pooled.droppedConstant).toEqual(['c', 'm']);
    expect(pooled.variables.map((v) => v.name)).toEqual(['s', 't', 'u', 't_NA']);
  });

  it('replaces a missing number by 0 and appends a <name>_NA indicator after all columns', () => {
    const pooled = poolPredictors([
      testTable({ x: [1, null], k: ['p', 'q'] }),
      testTable({ x: [3, 4], k: ['p', 'p'] }),
    ]);
    expect(pooled.variables.map((v) => v.name)).toEqual(['x', 'k', 'x_NA']);
    const [x, , indicator] = pooled.variables;
    expect(Array.from((x as { values: Float64Array }).values)).toEqual([1, 0, 3, 4]);
    expect(Array.from((indicator as { values: Float64Array }).values)).toEqual([0, 1, 0, 0]);
    const input = cartInputFromPredictors(pooled);
    expect(Array.from(input.y)).toEqual([0, 0, 1, 1]);
    expect(input.columns.map((c) => c.kind)).toEqual(['numeric', 'categorical', 'numeric']);
  });

  it('throws when a column is missing or of another kind', () => {
    expect(() => poolPredictors([testTable({ x: [1] }), testTable({ y: [1] })])).toThrow(/missing/);
    expect(() => poolPredictors([testTable({ x: [1] }), testTable({ x: ['a'] })])).toThrow(/numeric/);
  });
});

describe('buildDesignMatrix (R model.matrix for t ~ . and t ~ .^2)', () => {
  const pooled = poolPredictors([
    testTable({ a: [1, 2, 3], f: ['u', 'v', 'w'], g: ['p', 'q', 'p'] }),
    testTable({ a: [4, 5, 6], f: ['w', 'v', 'u'], g: ['q', 'q', 'p'] }),
  ]);

  it('main effects: intercept, numeric values, treatment dummies for all levels but the first', () => {
    const design = buildDesignMatrix(pooled);
    expect(design.columnNames).toEqual(['(Intercept)', 'a', 'fv', 'fw', 'gq']);
    expect(Array.from(design.X.subarray(0, 10))).toEqual([1, 1, 0, 0, 0, 1, 2, 1, 0, 1]);
  });

  it('pairwise interactions in R term order, first variable varying fastest', () => {
    const design = buildDesignMatrix(pooled, { maxOrder: 1 });
    expect(design.columnNames).toEqual([
      '(Intercept)',
      'a',
      'fv',
      'fw',
      'gq',
      'a:fv',
      'a:fw',
      'a:gq',
      'fv:gq',
      'fw:gq',
    ]);
    // Row 4 (synthetic a = 5, f = v, g = q).
    const row = Array.from(design.X.subarray(4 * design.nColumns, 5 * design.nColumns));
    expect(row).toEqual([1, 5, 1, 0, 1, 5, 0, 5, 1, 0]);
    expect(design.columnTerms[8]).toEqual([1, 2]);
  });

  it('restricts to a row range', () => {
    const design = buildDesignMatrix(pooled, { rows: [3, 6], intercept: false });
    expect(design.nRows).toBe(3);
    expect(design.columnNames[0]).toBe('a');
    expect(design.X[0]).toBe(4);
  });
});
