import { describe, expect, it } from 'vitest';
import { columnFacts, factSource, inferredFactsOf, withFactSources } from './schema-facts';
import type { ColumnSchema } from './types';

const inferredAge: ColumnSchema = {
  name: 'age',
  type: 'numeric',
  bounds: [17, 90],
  integer: true,
  source: 'inferred',
};

describe('schema facts', () => {
  it('lists the facts a column states', () => {
    expect(columnFacts(inferredAge)).toEqual(['type', 'bounds', 'integer']);
    expect(columnFacts({ name: 'x', type: 'numeric', source: 'declared' })).toEqual(['type']);
    expect(columnFacts({ name: 'g', type: 'categorical', categories: [], source: 'inferred' })).toEqual([
      'type',
      'categories',
    ]);
  });

  it('declares an edited fact and keeps the others inferred', () => {
    const edited = withFactSources({ ...inferredAge, bounds: [0, 120] }, ['bounds'], 'declared');
    expect(edited).toEqual({ ...inferredAge, bounds: [0, 120], declaredFields: ['bounds'] });
    expect(factSource(edited, 'bounds')).toBe('declared');
    expect(inferredFactsOf(edited)).toEqual(['type', 'integer']);
  });

  it('becomes declared, without a list, once every fact is declared', () => {
    const step = withFactSources(inferredAge, ['bounds', 'type'], 'declared');
    expect(withFactSources(step, ['integer'], 'declared')).toEqual({
      name: 'age',
      type: 'numeric',
      bounds: [17, 90],
      integer: true,
      source: 'declared',
    });
  });

  it('marks a fact read from the data as inferred in a declared column', () => {
    const declared: ColumnSchema = { name: 'g', type: 'categorical', categories: ['a'], source: 'declared' };
    const filled = withFactSources({ ...declared, categories: ['a', 'b'] }, ['categories'], 'inferred');
    expect(filled).toEqual({
      name: 'g',
      type: 'categorical',
      categories: ['a', 'b'],
      source: 'inferred',
      declaredFields: ['type'],
    });
    expect(withFactSources(filled, ['type'], 'inferred')).toEqual({
      name: 'g',
      type: 'categorical',
      categories: ['a', 'b'],
      source: 'inferred',
    });
  });
});
