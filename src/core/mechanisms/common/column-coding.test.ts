import { describe, expect, it } from 'vitest';
import type { Schema } from '../../table/types';
import { cellStrides, domainCellCount, domainLimitProblem, planColumnCodings } from './column-coding';

const scott = { rule: 'scott' as const, fixedBins: 10 };
const fixed = (bins: number) => ({ rule: 'fixed' as const, fixedBins: bins });

function schemaOf(columns: Schema['columns']): Schema {
  return { version: 1, missing: [''], columns };
}

describe('planColumnCodings', () => {
  it('gives every column one extra missing level', () => {
    const { codings, problems } = planColumnCodings(
      schemaOf([
        { name: 'age', type: 'numeric', bounds: [17, 90], integer: true, source: 'declared' },
        { name: 'sex', type: 'categorical', categories: ['F', 'M'], source: 'declared' },
      ]),
      scott,
      1000,
    );
    expect(problems).toEqual([]);
    expect(codings.map((c) => c.levels)).toEqual([19, 3]); // 18 Scott bins + missing; 2 categories + missing
    expect(domainCellCount(codings)).toBe(57);
  });

  it('caps integer columns at the number of integers in their bounds', () => {
    const { codings } = planColumnCodings(
      schemaOf([{ name: 'kids', type: 'numeric', bounds: [0, 4], integer: true, source: 'declared' }]),
      fixed(50),
      100,
    );
    expect(codings[0]).toMatchObject({ kind: 'integer', first: 0, count: 5, bins: 5, levels: 6 });
  });

  it('says which column needs bounds or categories, in a sentence', () => {
    const { problems } = planColumnCodings(
      schemaOf([
        { name: 'age', type: 'numeric', source: 'declared' },
        { name: 'sex', type: 'categorical', source: 'inferred' },
        { name: 'w', type: 'numeric', bounds: [3, 3], source: 'declared' },
        { name: 'k', type: 'numeric', bounds: [0.2, 0.8], integer: true, source: 'declared' },
      ]),
      scott,
      100,
    );
    expect(problems).toEqual([
      'needs bounds for numeric column `age`: declare them in the schema.',
      'needs categories for categorical column `sex`: declare them in the schema.',
      'needs bounds lower < upper for numeric column `w`; got [3, 3].',
      'needs at least one whole number inside the bounds of integer column `k`; got [0.2, 0.8].',
    ]);
  });
});

describe('domain size', () => {
  it('suggests fewer bins or columns above the limit', () => {
    const { codings } = planColumnCodings(
      schemaOf([
        { name: 'a', type: 'numeric', bounds: [0, 1], source: 'declared' },
        { name: 'b', type: 'numeric', bounds: [0, 1], source: 'declared' },
        { name: 'c', type: 'numeric', bounds: [0, 1], source: 'declared' },
      ]),
      fixed(1000),
      10,
    );
    expect(domainCellCount(codings)).toBe(1001 ** 3);
    expect(domainLimitProblem(codings)).toBe(
      'the cross-tabulation has 1,003,003,001 cells (a 1001 × b 1001 × c 1001, each count including the ' +
        'missing-value cell), more than the limit of 20,000,000: choose fewer bins (a smaller `bins` ' +
        'parameter) or synthesize fewer columns.',
    );
    expect(domainLimitProblem(codings.slice(0, 2))).toBeUndefined();
  });

  it('lays cells out in mixed radix with the last column fastest', () => {
    const { codings } = planColumnCodings(
      schemaOf([
        { name: 'x', type: 'categorical', categories: ['a', 'b', 'c'], source: 'declared' },
        { name: 'y', type: 'categorical', categories: ['p'], source: 'declared' },
      ]),
      scott,
      1,
    );
    expect(cellStrides(codings)).toEqual([2, 1]);
  });
});
