import { describe, expect, it } from 'vitest';
import type { Schema } from '../../table/types';
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
