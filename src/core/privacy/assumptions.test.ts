import { describe, expect, it } from 'vitest';
import type { Schema } from '../table/types';
import { inferredFields, schemaAssumptions, SEEDED_ASSUMPTION, standardAssumptions } from './assumptions';

const schema: Schema = {
  version: 1,
  columns: [
    { name: 'age', type: 'numeric', bounds: [17, 90], integer: true, source: 'inferred' },
    { name: 'income', type: 'numeric', bounds: [0, 1e6], source: 'declared' },
    { name: 'sex', type: 'categorical', categories: ['F', 'M'], source: 'inferred' },
    { name: 'note', type: 'categorical', source: 'inferred' },
  ],
  missing: ['', 'NA'],
};

describe('schemaAssumptions', () => {
  it('names each inferred column and the facts read from the data', () => {
    expect(schemaAssumptions(schema)).toEqual([
      'Column `age`: its type (numeric), bounds and whole-number flag were read from the data ' +
        'instead of declared; the guarantee assumes they are public knowledge.',
      'Column `sex`: its type (categorical) and list of categories were read from the data instead of ' +
        'declared; the guarantee assumes they are public knowledge.',
      'Column `note`: its type (categorical) was read from the data instead of declared; the guarantee ' +
        'assumes it is public knowledge.',
    ]);
  });

  it('names only the facts still inferred in a partly declared column', () => {
    const partly: Schema = {
      ...schema,
      columns: [
        {
          name: 'age',
          type: 'numeric',
          bounds: [0, 120],
          integer: true,
          source: 'inferred',
          sources: { bounds: ['declared', 'declared'] },
        },
      ],
    };
    expect(schemaAssumptions(partly)).toEqual([
      'Column `age`: its type (numeric) and whole-number flag were read from the data instead of declared; ' +
        'the guarantee assumes they are public knowledge.',
    ]);
    expect(inferredFields(partly)).toEqual(['age.type', 'age.integer']);
  });

  it('names the one bound end still read from the data, never its value', () => {
    const oneEnd: Schema = {
      ...schema,
      columns: [
        {
          name: 'income',
          type: 'numeric',
          bounds: [0, 987654],
          source: 'inferred',
          sources: { type: 'declared', bounds: ['declared', 'inferred'] },
        },
      ],
    };
    expect(schemaAssumptions(oneEnd)).toEqual([
      'Column `income`: its upper bound was read from the data instead of declared; the guarantee assumes ' +
        'it is public knowledge.',
    ]);
    expect(inferredFields(oneEnd)).toEqual(['income.upper']);
    expect(JSON.stringify(standardAssumptions(oneEnd, true))).not.toContain('987654');
  });

  it('is empty when everything is declared', () => {
    const declared: Schema = {
      ...schema,
      columns: schema.columns.map((c) => ({ ...c, source: 'declared' as const })),
    };
    expect(schemaAssumptions(declared)).toEqual([]);
    expect(inferredFields(declared)).toEqual([]);
    expect(standardAssumptions(declared, false)).toEqual([]);
  });
});

describe('inferredFields', () => {
  it('lists the inferred facts as column.field paths', () => {
    expect(inferredFields(schema)).toEqual([
      'age.type',
      'age.lower',
      'age.upper',
      'age.integer',
      'sex.type',
      'sex.categories',
      'note.type',
    ]);
  });
});

describe('standardAssumptions', () => {
  it('adds the seed sentence last when seeded', () => {
    const seeded = standardAssumptions(schema, true);
    expect(seeded).toHaveLength(4);
    expect(seeded[3]).toBe(SEEDED_ASSUMPTION);
    expect(SEEDED_ASSUMPTION).toBe(
      'A seed was set: the random numbers are reproducible, so this output is for demonstration, not for release.',
    );
    expect(standardAssumptions(schema, false)).not.toContain(SEEDED_ASSUMPTION);
  });
});

describe('schemaAssumptions wording', () => {
  it('names a lone inferred lower bound and a not-whole-number flag', () => {
    const lowerOnly: Schema = {
      ...schema,
      columns: [
        {
          name: 'income',
          type: 'numeric',
          bounds: [0, 987654],
          integer: false,
          source: 'inferred',
          sources: { type: 'declared', bounds: ['inferred', 'declared'] },
        },
      ],
    };
    expect(schemaAssumptions(lowerOnly)).toEqual([
      'Column `income`: its lower bound and not-whole-number flag were read from the data instead of ' +
        'declared; the guarantee assumes they are public knowledge.',
    ]);
  });

  it('names an inferred category list alone when the type was declared', () => {
    const categoriesOnly: Schema = {
      ...schema,
      columns: [
        {
          name: 'sex',
          type: 'categorical',
          categories: ['F', 'M'],
          source: 'inferred',
          sources: { type: 'declared' },
        },
      ],
    };
    expect(schemaAssumptions(categoriesOnly)).toEqual([
      'Column `sex`: its list of categories was read from the data instead of declared; the guarantee ' +
        'assumes it is public knowledge.',
    ]);
  });
});
