import { describe, expect, it } from 'vitest';
import type { ColumnSchema, Schema } from '../../../table/types';
import { binningChoiceFromParams, parseColumnBins } from './binning-params';
import {
  cellStrides,
  domainCellCount,
  domainLimitProblem,
  INTEGER_LEVEL_CAP,
  planColumnCodings,
} from './column-coding';

const scott = { rule: 'scott' as const, fixedBins: 10, perColumn: {}, problems: [] };
const fixed = (bins: number) => ({ rule: 'fixed' as const, fixedBins: bins, perColumn: {}, problems: [] });

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
    // 74 integers in [17, 90] (at most 256): one level per integer + missing; 2 categories + missing.
    expect(codings.map((c) => c.levels)).toEqual([75, 3]);
    expect(domainCellCount(codings)).toBe(225);
  });

  it('gives whole-number columns one level per integer up to INTEGER_LEVEL_CAP, whole-integer bins beyond', () => {
    const columns: ColumnSchema[] = [
      { name: 'code', type: 'numeric', bounds: [0, 255], integer: true, source: 'declared' },
      { name: 'wide', type: 'numeric', bounds: [0, 256], integer: true, source: 'declared' },
    ];
    const { codings } = planColumnCodings(schemaOf([...columns]), scott, 1000);
    expect(INTEGER_LEVEL_CAP).toBe(256);
    expect(codings[0]).toMatchObject({ kind: 'integer', count: 256, bins: 256, levels: 257 });
    // 257 integers: Scott's 18 bins, each a run of 14 or 15 whole integers.
    expect(codings[1]).toMatchObject({ kind: 'integer', count: 257, bins: 18, levels: 19 });
    // An explicit bin count or a columnBins entry is kept.
    const named = planColumnCodings(
      schemaOf([...columns]),
      binningChoiceFromParams({ columnBins: 'code=8' }),
      1000,
    );
    expect(named.codings[0]).toMatchObject({ bins: 8 });
    expect(planColumnCodings(schemaOf([...columns]), fixed(10), 1000).codings[0]).toMatchObject({ bins: 10 });
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

describe('per-column bin counts (columnBins)', () => {
  const schema = schemaOf([
    { name: 'age', type: 'numeric', bounds: [17, 90], integer: true, source: 'declared' },
    { name: 'income', type: 'numeric', bounds: [0, 1e5], source: 'declared' },
    { name: 'sex', type: 'categorical', categories: ['F', 'M'], source: 'declared' },
  ]);

  it('override the rule for the named columns only', () => {
    const choice = binningChoiceFromParams({ bins: 12, columnBins: ' income = 40 ' });
    const { codings, problems } = planColumnCodings(schema, choice, 1000);
    expect(problems).toEqual([]);
    expect(codings.map((c) => c.levels)).toEqual([13, 41, 3]); // age 12 + missing, income 40 + missing
    const scottAge = planColumnCodings(
      schema,
      binningChoiceFromParams({ bins: 0, columnBins: 'income=5' }),
      1000,
    );
    // age holds 74 integers: one level per integer under the default rule.
    expect(scottAge.codings.map((c) => c.levels)).toEqual([75, 6, 3]);
  });

  it('report malformed entries, repeats, unknown and non-numeric columns as problems', () => {
    expect(parseColumnBins('age=0, x, =3, a=b, age=10, age=11').problems).toEqual([
      'columnBins entry "age=0" must be name=count with a whole count from 1 to 1000.',
      'columnBins entry "x" must be name=count with a whole count from 1 to 1000.',
      'columnBins entry "=3" must be name=count with a whole count from 1 to 1000.',
      'columnBins entry "a=b" must be name=count with a whole count from 1 to 1000.',
      'columnBins names `age` twice.',
    ]);
    // A count is digits only and from 1 to 1000; an entry without "=" is not a count for its digits.
    expect(parseColumnBins('a=x5, b=5x, c=1.5, d=1001, 12').problems).toEqual([
      'columnBins entry "a=x5" must be name=count with a whole count from 1 to 1000.',
      'columnBins entry "b=5x" must be name=count with a whole count from 1 to 1000.',
      'columnBins entry "c=1.5" must be name=count with a whole count from 1 to 1000.',
      'columnBins entry "d=1001" must be name=count with a whole count from 1 to 1000.',
      'columnBins entry "12" must be name=count with a whole count from 1 to 1000.',
    ]);
    expect(parseColumnBins('a=1, b=1000, c = 7')).toEqual({
      perColumn: { a: 1, b: 1000, c: 7 },
      problems: [],
    });
    const { problems } = planColumnCodings(
      schema,
      binningChoiceFromParams({ columnBins: 'weight=5, sex=3' }),
      100,
    );
    expect(problems).toEqual([
      'columnBins names `weight`, which is not in the schema.',
      'columnBins names `sex`, which is not numeric.',
    ]);
  });
});

describe('binningChoiceFromParams', () => {
  it("follows Scott's rule unless a positive bin count is given, and reads only text as columnBins", () => {
    expect(binningChoiceFromParams({})).toEqual({ rule: 'scott', fixedBins: 0, perColumn: {}, problems: [] });
    expect(binningChoiceFromParams({ bins: 0 }).rule).toBe('scott');
    expect(binningChoiceFromParams({ bins: 'many' }).rule).toBe('scott');
    expect(binningChoiceFromParams({ bins: 6, columnBins: 5 })).toEqual({
      rule: 'fixed',
      fixedBins: 6,
      perColumn: {},
      problems: [],
    });
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
        'or `columnBins`) or synthesize fewer columns.',
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
