/**
 * A point mass declared in the schema through every binned mechanism of the registry: the column gets
 * one more level, the point-mass value comes out exactly, every value stays inside the bounds, and the
 * run settles its meter; MST with quantile bins also under add/remove neighbours.
 */
import { describe, expect, it } from 'vitest';
import { PrivacyMeter } from '../../../privacy/meter';
import { SeededRng } from '../../../rng/seeded-rng';
import type { Schema } from '../../../table/types';
import { resolveParams } from '../../params';
import { getMechanism } from '../../registry';
import { mixedTable, runContext } from '../testing/fixtures';

const N = 400;
const { table: base, schema: plain } = mixedTable(N);
// A tenth of the rows have income 0.5 (the point mass, a level of its own); the rest keep the fixture's.
const income = base.columns[1]!;
if (income.kind !== 'numeric') throw new Error('income is numeric');
const table = {
  ...base,
  columns: [
    base.columns[0]!,
    { ...income, values: income.values.map((v, i) => (i % 10 === 3 ? 0.5 : v)) },
    base.columns[2]!,
  ],
};
const schema: Schema = {
  ...plain,
  columns: plain.columns.map((column) =>
    column.name === 'income' ? { ...column, pointMasses: [0.5] } : column,
  ),
};

function incomeValues(columns: { kind: string; values?: Float64Array; missing: Uint8Array }[]): number[] {
  const income = columns[1]!;
  return Array.from(income.values!).filter((_, i) => income.missing[i] === 0);
}

describe('declared point masses through the binned mechanisms', () => {
  for (const id of ['laplace-histogram', 'smoothed-histogram', 'dp-marginals', 'mst', 'aim']) {
    it(`${id}: the point mass comes out exactly, values stay in the bounds, the meter settles`, async () => {
      const mechanism = getMechanism(id)!;
      const meter = new PrivacyMeter();
      // ε = 20: the point mass's level (40 rows) stays far above the noise, so its rows are synthesized.
      const ctx = runContext(schema, N, { epsilon: '20', delta: '1e-6', rng: new SeededRng(7), meter });
      const release = await mechanism.run(table, schema, resolveParams(mechanism, { bins: 5 }), ctx);
      const values = incomeValues(release.datasets[0]!.columns as never);
      expect(values.every((v) => v >= 0 && v <= 1000)).toBe(true);
      expect(meter.steps().every((step) => step.settled())).toBe(true);
      // Inside a bin a value is drawn continuously (0.5 with probability 0): only the point-mass level gives it.
      expect(values.filter((v) => v === 0.5).length).toBeGreaterThan(0);
    });
  }

  it('mst with quantile bins under add/remove neighbours: settles, and the claim names the relation', async () => {
    const mst = getMechanism('mst')!;
    const meter = new PrivacyMeter('add-remove');
    const ctx = runContext(schema, N, {
      epsilon: '1',
      delta: '1e-6',
      rng: new SeededRng(8),
      meter,
      neighbouring: 'add-remove',
    });
    const release = await mst.run(table, schema, resolveParams(mst, { binning: 'quantile', bins: 6 }), ctx);
    expect(meter.steps().map((s) => s.settled())).toEqual([true, true, true, true]);
    expect(release.claim.neighbouring).toBe('add-remove');
    expect(release.claim.steps[0]!.what).toMatch(/^quantile bin edges/);
  });
});
