import { describe, expect, it } from 'vitest';
import type { Schema } from '../../table/types';
import { mixedTable, runContext } from '../common/testing/fixtures';
import { resolveParams } from '../params';
import { clustmix } from './index';

const { schema } = mixedTable(10);
const defaults = resolveParams(clustmix, {});

describe('clustmix check', () => {
  it('accepts the declared mixed schema with and without a label', () => {
    const ctx = runContext(schema, 1000, { delta: '0.001' });
    expect(clustmix.check(schema, defaults, ctx)).toEqual([]);
    expect(clustmix.check(schema, resolveParams(clustmix, { label: 'sex' }), ctx)).toEqual([]);
  });

  it('refuses a numeric column without bounds and δ = 0, word for word', () => {
    const unbounded: Schema = {
      ...schema,
      columns: schema.columns.map((c) =>
        c.name === 'income' ? { name: 'income', type: 'numeric', source: 'declared' } : c,
      ),
    };
    expect(clustmix.check(unbounded, defaults, runContext(unbounded, 1000, { delta: 0 }))).toEqual([
      'needs bounds for numeric column `income`: declare them in the schema.',
      'clustmix needs δ > 0 (zero-concentrated DP gives no pure ε-DP guarantee): set δ, e.g. 1/n.',
    ]);
  });

  it('refuses an unknown or numeric label and shares that leave nothing for the final release', () => {
    expect(clustmix.check(schema, resolveParams(clustmix, { label: 'colour' }))).toEqual([
      'The label `colour` is not a column of the schema: name a categorical column or leave it empty.',
    ]);
    expect(clustmix.check(schema, resolveParams(clustmix, { label: 'age' }))).toEqual([
      'The label `age` is numeric: the label must be a categorical column.',
    ]);
    expect(clustmix.check(schema, resolveParams(clustmix, { approxShare: 0.6, adaptShare: 0.4 }))).toEqual([
      'approxShare + adaptShare must be below 1 so that the final release gets a share of ρ; got 0.6 + 0.4.',
    ]);
  });

  it('refuses d > 5,000 and K·d > 10⁶', () => {
    const wide: Schema = {
      version: 1,
      missing: [''],
      columns: [
        {
          name: 'code',
          type: 'categorical',
          categories: Array.from({ length: 5000 }, (_, i) => `c${i}`),
          source: 'declared',
        },
      ],
    };
    expect(clustmix.check(wide, defaults)).toEqual([
      'The encoded rows have 5,001 coordinates, above the limit of 5,000: leave out columns or categories.',
    ]);
    const fiveHundred: Schema = {
      ...wide,
      columns: [
        {
          name: 'code',
          type: 'categorical',
          categories: Array.from({ length: 2499 }, (_, i) => `c${i}`),
          source: 'declared',
        },
      ],
    };
    // d = 2,500; K = 1,000 → K·d = 2.5·10⁶.
    expect(clustmix.check(fiveHundred, resolveParams(clustmix, { clusters: 1000 }))).toEqual([
      'K·d = 1,000·2,500 is above the limit of 1,000,000: choose fewer clusters or columns.',
    ]);
    expect(clustmix.check(fiveHundred, resolveParams(clustmix, { clusters: 400 }))).toEqual([]);
  });
});
