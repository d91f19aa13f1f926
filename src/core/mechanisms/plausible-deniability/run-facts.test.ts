import { describe, expect, it } from 'vitest';
import { SeededRng } from '../../rng/seeded-rng';
import { mixedTable, runContext } from '../common/testing/fixtures';
import { resolveParams } from '../params';
import { plausibleDeniability } from './index';
import { plausibleDeniabilityMeta } from './meta';

// The public diagnostics of a run and the refusal of a table whose size is not the context's n, on the
// worked configuration (n = 1,000, ε = 1,200, δ = 10⁻⁶, shares 0.25 and 0.25, 2 bins a column).

const { table, schema } = mixedTable(1000);
const params = resolveParams(plausibleDeniabilityMeta, {
  structureShare: 0.25,
  parameterShare: 0.25,
  bins: 2,
});
const context = () =>
  runContext(schema, 1000, { epsilon: '1200', delta: '1e-6', rng: new SeededRng('facts') });

describe('plausible-deniability run facts', () => {
  it('states the part sizes, T, k, t, ε0 rounded up, and the network’s parents and order', async () => {
    const release = await plausibleDeniability.run(table, schema, params, context());
    const diagnostics = release.diagnostics as {
      parents: Record<string, string[]>;
      order: string[];
    };
    // k = 19, t = 4 and ε0 = 1.2 − ln 1.25 = 0.9768564… rounded up to 6 digits (worked by hand in
    // plausible-deniability.test.ts).
    expect(release.diagnostics).toMatchObject({
      levelsPerColumn: { age: 3, income: 3, sex: 3 },
      partSizes: { structure: 250, parameters: 250, seeds: 500 },
      draws: 1000,
      k: 19,
      t: 4,
      testEpsilon: 0.976857,
    });
    // The order is a topological order of the network: every column once, each after its parents.
    expect([...diagnostics.order].sort()).toEqual(['age', 'income', 'sex']);
    expect(Object.keys(diagnostics.parents).sort()).toEqual(['age', 'income', 'sex']);
    for (const [child, parents] of Object.entries(diagnostics.parents))
      for (const parent of parents)
        expect(diagnostics.order.indexOf(parent)).toBeLessThan(diagnostics.order.indexOf(child));
  });

  it('refuses a table whose row count is not the context’s n', async () => {
    const other = mixedTable(999);
    await expect(plausibleDeniability.run(other.table, schema, params, context())).rejects.toThrow(
      'plausible-deniability: the table has 999 rows but the context says n = 1000.',
    );
  });
});
