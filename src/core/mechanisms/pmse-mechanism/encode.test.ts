import { describe, expect, it } from 'vitest';
import type { Schema, Table } from '../../table/types';
import {
  countPmseFeatures,
  encodeTableInModelSpace,
  makePmseFeatureColumns,
  writePmseFeatures,
} from './encode';
import { buildSynthesisModel } from './model';

const schema: Schema = {
  version: 1,
  columns: [
    { name: 'age', type: 'numeric', bounds: [20, 60], source: 'declared' },
    { name: 'sex', type: 'categorical', categories: ['F', 'M'], source: 'declared' },
    { name: 'region', type: 'categorical', categories: ['N', 'S', 'E'], source: 'declared' },
  ],
  missing: [''],
};

// Dictionaries in a different order from the schema's categories, one undeclared label, one missing row.
const table: Table = {
  nRows: 4,
  columns: [
    {
      kind: 'numeric',
      name: 'age',
      values: Float64Array.of(25, NaN, 40, 59),
      missing: Uint8Array.of(0, 1, 0, 0),
    },
    {
      kind: 'categorical',
      name: 'sex',
      codes: Uint32Array.of(0, 1, 1, 0),
      dictionary: ['M', 'F'],
      missing: Uint8Array.of(0, 0, 0, 0),
    },
    {
      kind: 'categorical',
      name: 'region',
      codes: Uint32Array.of(2, 0, 1, 0),
      dictionary: ['E', 'S', 'W'],
      missing: Uint8Array.of(0, 0, 0, 1),
    },
  ],
};

describe('pMSE encoding', () => {
  it('maps a table to model space by column name and category label', () => {
    const model = buildSynthesisModel(schema, ['region', 'sex', 'age'], new Set(['age']));
    const [region, sex, age] = encodeTableInModelSpace(table, model);
    expect(Array.from(age!)).toEqual([25, NaN, 40, 59]);
    expect(Array.from(sex!)).toEqual([1, 0, 0, 1]);
    // W is not a declared region, and row 4 is missing.
    expect(Array.from(region!)).toEqual([NaN, 2, 1, NaN]);
  });

  it('writes value, one-hot and missing-indicator predictors', () => {
    const model = buildSynthesisModel(schema, ['age', 'sex', 'region'], new Set(['age']));
    // age value + indicator, sex one column (K = 2), region three columns.
    expect(countPmseFeatures(model)).toBe(6);
    const features = makePmseFeatureColumns(model, 4);
    writePmseFeatures(model, encodeTableInModelSpace(table, model), features);
    expect(features.map((column) => Array.from(column))).toEqual([
      [25, 40, 40, 59], // missing age → centre 40, told apart by the indicator
      [0, 1, 0, 0],
      [1, 0, 0, 1],
      [0, 0, 0, 0],
      [0, 0, 1, 0],
      [0, 1, 0, 0],
    ]);
  });

  it('refuses a table without a model column', () => {
    const model = buildSynthesisModel(schema, ['age', 'sex', 'region'], new Set());
    expect(() => encodeTableInModelSpace({ nRows: 0, columns: [] }, model)).toThrow(/no column `age`/);
  });
});
