import { describe, expect, it } from 'vitest';
import type { Schema } from '../../../table/types';
import type { ColumnCoding } from '../coding/column-coding';
import { schemaAssumptions } from '../../../privacy/assumptions';
import { binnedDomainAssumptions } from './public-assumptions';

const schemaWith = (source: 'declared' | 'inferred'): Schema => ({
  version: 1,
  columns: [
    { name: 'age', type: 'numeric', bounds: [0, 100], source: 'declared' },
    { name: 'sex', type: 'categorical', categories: ['F', 'M'], source },
  ],
  missing: [''],
});

describe('binnedDomainAssumptions', () => {
  it('says the domain was not read from the data only when every column is declared', () => {
    const [first] = binnedDomainAssumptions([], schemaWith('declared'));
    expect(first).toMatch(/not read from the data/);
  });

  it('does not claim a fully declared domain when a column was inferred from the data', () => {
    const [first] = binnedDomainAssumptions([], schemaWith('inferred'));
    expect(first).not.toMatch(/not read from the data|never from the data/);
    expect(first).toMatch(/read from the data are treated as public/);
  });
});

describe('binnedDomainAssumptions, sentence by sentence', () => {
  const numeric: ColumnCoding = { kind: 'real', name: 'age', lo: 0, hi: 100, bins: 4, levels: 5 };
  const categorical: ColumnCoding = { kind: 'categorical', name: 'sex', categories: ['F', 'M'], levels: 3 };
  const clamped = ' Numeric values outside the bounds were clamped into the edge bins.';
  const missing =
    'Every column the schema allows to be missing has one extra missing-value cell, whether or not the ' +
    'data has missing values, so missing values are synthesized at a DP rate.';

  it('for a declared domain without categorical columns: where the domain came from, clamping, missing values', () => {
    expect(binnedDomainAssumptions([numeric], schemaWith('declared'))).toEqual([
      'Bounds, categories and bin counts are public: declared in the schema or set as parameters, not read ' +
        `from the data.${clamped}`,
      missing,
    ]);
  });

  it('for a domain partly learned with DP, and categories without an "other" level', () => {
    const learned: Schema = {
      ...schemaWith('declared'),
      columns: [
        { name: 'age', type: 'numeric', bounds: [0, 100], source: 'dp' },
        { name: 'sex', type: 'categorical', categories: ['F', 'M'], source: 'declared' },
      ],
    };
    expect(binnedDomainAssumptions([numeric, categorical], learned)).toEqual([
      'Bounds, categories and bin counts are public: declared in the schema, learned from the data with DP in ' +
        `the domain steps of this claim, or set as parameters.${clamped}`,
      missing,
      'Categorical values outside the declared categories were counted, and synthesized, as missing.',
    ]);
  });

  it('for a domain read from the data and learned with DP, and a column with an "other" level', () => {
    const mixed: Schema = {
      ...schemaWith('inferred'),
      columns: [
        { name: 'age', type: 'numeric', bounds: [0, 100], source: 'dp' },
        { name: 'sex', type: 'categorical', categories: ['F', 'M', 'X'], other: 'X', source: 'inferred' },
      ],
    };
    expect(binnedDomainAssumptions([numeric, categorical], mixed)).toEqual([
      'Bounds, categories and bin counts come from the schema and the parameters; the schema facts named ' +
        `above as read from the data are treated as public, the others were declared or learned with DP.${clamped}`,
      missing,
      'Categorical values outside the category list were counted as the column\'s "other" level where the ' +
        'schema names one (a category like any other), and as missing elsewhere.',
    ]);
    const inferredOnly = binnedDomainAssumptions([numeric], schemaWith('inferred'));
    expect(inferredOnly[0]).toBe(
      'Bounds, categories and bin counts come from the schema and the parameters; the schema facts named ' +
        `above as read from the data are treated as public, the others were declared.${clamped}`,
    );
    expect(inferredOnly).toHaveLength(2);
  });

  it('names the "other" level only when a categorical column has one', () => {
    // A numeric column carrying an `other` field (not part of the numeric schema) does not count.
    const numericOther = {
      ...schemaWith('declared'),
      columns: [
        { name: 'age', type: 'numeric', bounds: [0, 100], other: 'X', source: 'declared' },
        { name: 'sex', type: 'categorical', categories: ['F', 'M'], source: 'declared' },
      ],
    } as unknown as Schema;
    expect(binnedDomainAssumptions([categorical], numericOther)[2]).toBe(
      'Categorical values outside the declared categories were counted, and synthesized, as missing.',
    );
  });
});

describe('missingness read from the data stays out of the assumption texts', () => {
  // Neighbouring tables: `income` has no missing value, or one row's income replaced by a missing
  // value. Their inferred schemas differ only in canBeMissing; the texts the report carries must not.
  const schemaWith = (canBeMissing: boolean): Schema => ({
    version: 1,
    columns: [
      {
        name: 'income',
        type: 'numeric',
        bounds: [0, 100],
        source: 'declared',
        canBeMissing,
        sources: { canBeMissing: 'inferred' },
      } as Schema['columns'][number],
    ],
    missing: [''],
  });
  const codingWith = (complete: boolean): ColumnCoding =>
    ({
      kind: 'numeric',
      name: 'income',
      lower: 0,
      upper: 100,
      bins: 10,
      levels: complete ? 10 : 11,
      complete,
    }) as unknown as ColumnCoding;

  it('says the same for a complete column and one with a missing value', () => {
    const complete = [
      ...schemaAssumptions(schemaWith(false)),
      ...binnedDomainAssumptions([codingWith(true)], schemaWith(false)),
    ];
    const withMissing = [
      ...schemaAssumptions(schemaWith(true)),
      ...binnedDomainAssumptions([codingWith(false)], schemaWith(true)),
    ];
    expect(complete).toEqual(withMissing);
    expect(complete.join(' ')).toContain('whether it can be missing');
  });
});
