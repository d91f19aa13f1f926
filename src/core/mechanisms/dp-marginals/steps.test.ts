import { describe, expect, it } from 'vitest';
import { Accountant } from '../../privacy/accountant';
import { parseBudget } from '../../privacy/budget';
import { PrivacyMeter } from '../../privacy/meter';
import { Rational } from '../../rng/rational';
import { resolveParams } from '../params';
import { mixedTable, runContext } from '../common/testing/fixtures';
import { dpMarginals, runDpMarginals } from '.';
import { planDpMarginalsDomain, reserveMarginalBudgets } from './meta';

const fiveBins = resolveParams(dpMarginals, { bins: 5 });

describe('dp-marginals steps, relation and reports', () => {
  it('reports progress per release and column, in the order the marginals are drawn', async () => {
    const { table, schema } = mixedTable(60);
    const reports: [number, string][] = [];
    const ctx = runContext(schema, 60, { releases: 2, progress: (f, what) => reports.push([f, what!]) });
    const release = await dpMarginals.run(table, schema, fiveBins, ctx);
    // 2 releases × 3 columns = 6 marginals; marginal j of release r reports (3r + j)/6.
    expect(reports).toEqual([
      [0, 'release 1 of 2: age'],
      [1 / 6, 'release 1 of 2: income'],
      [2 / 6, 'release 1 of 2: sex'],
      [3 / 6, 'release 2 of 2: age'],
      [4 / 6, 'release 2 of 2: income'],
      [5 / 6, 'release 2 of 2: sex'],
      [1, 'done'],
    ]);
    // 5 bins + missing for the numeric columns, F/M + missing for sex.
    expect(release.diagnostics).toEqual({ levelsPerColumn: { age: 6, income: 6, sex: 3 } });
  });

  it('draws n rows under replace-one, and a row count from the noisy sums under add/remove', async () => {
    const n = 60;
    const { table, schema } = mixedTable(n);
    const replace = await dpMarginals.run(table, schema, fiveBins, runContext(schema, n, { epsilon: '0.3' }));
    expect(replace.datasets[0]!.nRows).toBe(n);
    // Under add/remove n is private: at ε = 0.3 (0.1 per marginal, noise scale 20 per cell) the seeded
    // estimate from the sums is not n; drawing n rows would read the private count.
    const meter = new PrivacyMeter('add-remove');
    const ctx = runContext(schema, n, { epsilon: '0.3', neighbouring: 'add-remove', meter });
    const added = await dpMarginals.run(table, schema, fiveBins, ctx);
    const rows = added.datasets[0]!.nRows;
    expect(rows).not.toBe(n);
    expect(added.datasets[0]!.columns.every((column) => column.missing.length === rows)).toBe(true);
  });

  it("takes the relation from the run's meter, not from the context", async () => {
    const n = 60;
    const { table, schema } = mixedTable(n);
    // The accountant's meter is replace-one: every step is charged under replace-one, so n is public
    // to the draw even though the context names add/remove.
    const accountant = new Accountant(parseBudget('0.3'));
    const ctx = runContext(schema, n, { epsilon: '0.3', neighbouring: 'add-remove' });
    const release = await runDpMarginals(table, schema, fiveBins, ctx, accountant);
    expect(release.datasets[0]!.nRows).toBe(n);
  });

  it('reserves nothing for a schema without columns', () => {
    const empty = { version: 1 as const, missing: [], columns: [] };
    const domain = planDpMarginalsDomain(empty, fiveBins, 10);
    const accountant = new Accountant(parseBudget('1'));
    expect(reserveMarginalBudgets(accountant, Rational.of(1), 2, domain)).toEqual([]);
  });

  it('states under add/remove how the row count is estimated', () => {
    const { schema } = mixedTable(10);
    const claim = dpMarginals.claim(fiveBins, runContext(schema, 10, { neighbouring: 'add-remove' }));
    expect(claim.assumptions).toContain(
      'The number of rows n is private (add/remove neighbours): each release has as many rows as the mean, ' +
        'weighted by 1/cells, of its noisy marginals’ sums (negatives set to 0) each less cells·E[max(Z, 0)], ' +
        'the positive noise its cells add on average; rounded, at least 0 (post-processing); nothing else ' +
        'reads n, and no public fact (domain, bins, defaults) depends on it.',
    );
  });
});
