import { describe, expect, it } from 'vitest';
import type { Schema } from '../../table/types';
import {
  buildSynthesisModel,
  countModelParameters,
  describeOrderProblems,
  designFeatureNames,
  modelNeutralPoint,
  modelParameterNames,
} from './model';

const paperSchema: Schema = {
  version: 1,
  columns: [
    { name: 'x1', type: 'numeric', source: 'declared' },
    { name: 'x2', type: 'numeric', source: 'declared' },
  ],
  missing: [''],
};

const mixedSchema: Schema = {
  version: 1,
  columns: [
    { name: 'age', type: 'numeric', bounds: [18, 90], integer: true, source: 'declared' },
    { name: 'sex', type: 'categorical', categories: ['F', 'M'], source: 'declared' },
    { name: 'region', type: 'categorical', categories: ['N', 'S', 'E'], source: 'inferred' },
    { name: 'income', type: 'numeric', source: 'declared' },
  ],
  missing: [''],
};

describe('buildSynthesisModel', () => {
  it('has the 5 parameters of the paper’s example X1 ~ N(θ1, θ2), X2 ~ N(θ3 + θ4·x1, θ5)', () => {
    const model = buildSynthesisModel(paperSchema, ['x1', 'x2'], new Set());
    expect(countModelParameters(model)).toBe(5);
    expect(modelParameterNames(model)).toEqual([
      'x1 | intercept',
      'x1 | log σ',
      'x2 | intercept',
      'x2 | x1',
      'x2 | log σ',
    ]);
  });

  it('counts parameters of a mixed model with a missing flag (worked by hand)', () => {
    const model = buildSynthesisModel(mixedSchema, ['sex', 'age', 'region', 'income'], new Set(['income']));
    // sex (K=2) on (1): 1; age on (1, sex=M): 2 + 1; region (K=3) on (1, sex=M, age): 2·3 = 6;
    // income missing flag on (1, sex=M, age, region=S, region=E): 5; income value: 5 + 1.
    expect(model.columns.map((column) => column.parameterCount)).toEqual([1, 3, 6, 11]);
    expect(countModelParameters(model)).toBe(21);
    expect(modelParameterNames(model)).toHaveLength(21);
    expect(designFeatureNames(model)).toEqual([
      'intercept',
      'sex=M',
      'age',
      'region=S',
      'region=E',
      'income',
      'income missing',
    ]);
    const income = model.columns[3]!;
    expect(income.missingOffset).toBe(10);
    expect(income.valueOffset).toBe(15);
    expect(modelParameterNames(model)[10]).toBe('income missing | intercept');
    expect(modelParameterNames(model)[20]).toBe('income | log σ');
  });

  it('standardises and clamps with declared bounds only (center = midpoint, scale = width / 4)', () => {
    const model = buildSynthesisModel(mixedSchema, ['age', 'sex', 'region', 'income'], new Set());
    expect(model.columns[0]).toMatchObject({ center: 54, scale: 18, bounds: [18, 90], integer: true });
    expect(model.columns[3]).toMatchObject({ center: 0, scale: 1, bounds: null });
    const inferred = buildSynthesisModel(
      { ...paperSchema, columns: [{ name: 'x1', type: 'numeric', bounds: [0, 8], source: 'inferred' }] },
      ['x1'],
      new Set(),
    );
    // Inferred bounds are the data's own extremes: they neither move the start point nor clamp.
    expect(inferred.columns[0]).toMatchObject({ center: 0, scale: 1, bounds: null });
    const partlyDeclared = buildSynthesisModel(
      {
        ...paperSchema,
        columns: [
          {
            name: 'x1',
            type: 'numeric',
            bounds: [0, 8],
            source: 'inferred',
            sources: { bounds: ['declared', 'declared'] },
          },
        ],
      },
      ['x1'],
      new Set(),
    );
    expect(partlyDeclared.columns[0]).toMatchObject({ center: 4, scale: 2, bounds: [0, 8] });
  });

  it('starts at the neutral point 0, which depends on the schema only', () => {
    const model = buildSynthesisModel(paperSchema, ['x2', 'x1'], new Set());
    expect(Array.from(modelNeutralPoint(model))).toEqual([0, 0, 0, 0, 0]);
  });

  it('reports order problems as sentences and refuses to build', () => {
    expect(describeOrderProblems(paperSchema, ['x1', 'x1', 'y'])).toEqual([
      'Column order names `x1` twice.',
      'Column order names `y`, which is not in the schema.',
      'Column order leaves out `x2`.',
    ]);
    expect(() => buildSynthesisModel(paperSchema, ['x1'], new Set())).toThrow(/leaves out `x2`/);
    const noLevels: Schema = {
      ...paperSchema,
      columns: [{ name: 'c', type: 'categorical', source: 'declared' }],
    };
    expect(describeOrderProblems(noLevels, ['c'])).toEqual([
      'Categorical column `c` needs its list of categories.',
    ]);
  });
});
