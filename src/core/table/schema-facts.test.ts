import { describe, expect, it } from 'vitest';
import {
  columnFacts,
  columnParts,
  factSource,
  inferredPartsOf,
  partSource,
  withFactSources,
  withPartSources,
} from './schema-facts';
import type { ColumnSchema } from './types';

const inferredAge: ColumnSchema = {
  name: 'age',
  type: 'numeric',
  bounds: [17, 90],
  integer: true,
  source: 'inferred',
};

describe('schema facts', () => {
  it('lists the facts a column states, and its parts with the bounds as two ends', () => {
    expect(columnFacts(inferredAge)).toEqual(['type', 'bounds', 'integer']);
    expect(columnParts(inferredAge)).toEqual(['type', 'lower', 'upper', 'integer']);
    expect(columnFacts({ name: 'x', type: 'numeric', source: 'declared' })).toEqual(['type']);
    expect(columnFacts({ name: 'g', type: 'categorical', categories: [], source: 'inferred' })).toEqual([
      'type',
      'categories',
    ]);
  });

  it('declares an edited fact and keeps the others inferred', () => {
    const edited = withFactSources({ ...inferredAge, bounds: [0, 120] }, ['bounds'], 'declared');
    expect(edited).toEqual({
      ...inferredAge,
      bounds: [0, 120],
      sources: { bounds: ['declared', 'declared'] },
    });
    expect(factSource(edited, 'bounds')).toBe('declared');
    expect(inferredPartsOf(edited)).toEqual(['type', 'integer']);
  });

  it('declares one bound end and keeps the other end inferred', () => {
    const oneEnd = withPartSources({ ...inferredAge, bounds: [17, 120] }, ['upper'], 'declared');
    expect(oneEnd.sources).toEqual({ bounds: ['inferred', 'declared'] });
    expect(oneEnd.source).toBe('inferred');
    expect(partSource(oneEnd, 'lower')).toBe('inferred');
    expect(partSource(oneEnd, 'upper')).toBe('declared');
    // The bounds as a whole are only as public as their less public end.
    expect(factSource(oneEnd, 'bounds')).toBe('inferred');
    expect(inferredPartsOf(oneEnd)).toEqual(['type', 'lower', 'integer']);
    const both = withPartSources(oneEnd, ['lower'], 'declared');
    expect(factSource(both, 'bounds')).toBe('declared');
  });

  it('becomes declared, without a list, once every value is declared', () => {
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
      sources: { type: 'declared' },
    });
    expect(withFactSources(filled, ['type'], 'inferred')).toEqual({
      name: 'g',
      type: 'categorical',
      categories: ['a', 'b'],
      source: 'inferred',
    });
  });

  it('keeps every source when nothing is marked, and ignores parts the column does not state', () => {
    const oneEnd = withPartSources(inferredAge, ['upper'], 'declared');
    expect(withPartSources(oneEnd, [], 'declared')).toEqual(oneEnd);
    expect(withPartSources(oneEnd, ['categories'], 'declared')).toEqual(oneEnd);
  });
});
