/**
 * MST with quantile bins and point masses through the registry: the bin-edge step comes first in the
 * claim and on the meter, every edge is one draw on it, the run settles; a run that skips or
 * undercharges the edge draws is refused; the claim is the same before the run as after.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MeterMismatchError, PrivacyMeter } from '../../../privacy/meter';
import * as metered from '../../../privacy/metered';
import { SeededRng } from '../../../rng/seeded-rng';
import type { Schema, Table } from '../../../table/types';
import { resolveParams } from '../../params';
import { getMechanism } from '../../registry';
import type { RunContext } from '../../types';
import { mixedTable, runContext } from '../testing/fixtures';
import { mstCountPlan } from '../../mst/run-mst';
import { numericThresholds } from '../../../counts/coder-probe';
import { planPgmDomain } from './pgm-domain';

const N = 300;
const base = mixedTable(N);
// income gets the point mass 0.5 (the fixture's values are k + 0.5, so 0.5 is held by some rows).
const schema: Schema = {
  ...base.schema,
  columns: base.schema.columns.map((column) =>
    column.name === 'income' ? { ...column, pointMasses: [0.5] } : column,
  ),
};
const table: Table = base.table;
const mst = getMechanism('mst')!;
// age [17, 90] holds 74 integers: with bins = 6 both numeric columns get 6 quantile bins, 5 edges each,
// and (pointMassShare 0.1 by default) candidate point masses: age 17 and 90, income 0 and 1000, one
// detection draw per column.
const PARAMS = { binning: 'quantile', bins: 6 };
const EDGES = 10;
const DETECTIONS = 2;
const D = schema.columns.length;
const context = (overrides: Partial<RunContext> = {}) =>
  runContext(schema, N, { epsilon: '1', delta: '1e-6', rng: new SeededRng(5), ...overrides });

afterEach(() => {
  vi.restoreAllMocks();
});

describe('MST with quantile bins through the registry', () => {
  it('reserves the bin-edge step first, charges one draw per edge and settles, after run and runInBlocks', async () => {
    for (const form of ['run', 'runInBlocks'] as const) {
      const meter = new PrivacyMeter();
      const release = await mst[form]!(table, schema, resolveParams(mst, PARAMS), context({ meter }));
      expect(meter.steps().map((s) => [s.charges(), s.settled()])).toEqual([
        [EDGES + DETECTIONS, true],
        [D, true],
        [D - 1, true],
        [D - 1, true],
      ]);
      expect(release.claim.steps[0]!.what).toMatch(
        /^quantile bin edges \(age 6, income 6 bins\): 10 exponential.*; candidate point masses of 2 columns/,
      );
      const claim = mst.claim(resolveParams(mst, PARAMS), context());
      expect(release.claim.steps.map((s) => [s.what, s.epsilon])).toEqual(
        claim.steps.map((s) => [s.what, s.epsilon]),
      );
      const diagnostics = release.diagnostics as {
        binEdges: Record<string, number[]>;
        pointMassesFound: Record<string, number[]>;
      };
      const edges = diagnostics.binEdges;
      // No candidate holds 10 % of the rows in the fixture (age 17 and 90 about 1/74 each; income 0 and 1000 none).
      expect(diagnostics.pointMassesFound).toEqual({ age: [], income: [] });
      expect(Object.keys(edges)).toEqual(['age', 'income']);
      expect(edges.age!.length).toBe(5);
    }
  });

  it('synthesizes the point mass as exactly itself and keeps every value inside the bounds', async () => {
    const release = await mst.run(table, schema, resolveParams(mst, PARAMS), context());
    const income = release.datasets[0]!.columns[1]!;
    if (income.kind !== 'numeric') throw new Error('income is numeric');
    const present = Array.from(income.values).filter((_, i) => income.missing[i] === 0);
    expect(present.every((v) => v >= 0 && v <= 1000)).toBe(true);
    // 0.5 is a level of its own, so it comes out exactly; inside a bin a continuous draw hits it with probability 0.
    expect(present.filter((v) => v === 0.5).length).toBeGreaterThan(0);
  });

  it('refuses a run whose edge draws are skipped or undercharged (MeterMismatchError)', async () => {
    const real = metered.meteredExponentialMechanism;
    for (const mutant of ['skip', 'half ε'] as const) {
      vi.spyOn(metered, 'meteredExponentialMechanism').mockImplementation(
        (step, query, scores, epsilon, rng) => {
          if (query.kind !== 'quantile-cell-score') return real(step, query, scores, epsilon, rng);
          return mutant === 'skip'
            ? 0
            : real(step, query, scores, epsilon.div(epsilon.add(epsilon)).mul(epsilon), rng);
        },
      );
      await expect(
        mst.run(table, schema, resolveParams(mst, PARAMS), context({ meter: new PrivacyMeter() })),
        mutant,
      ).rejects.toThrow(MeterMismatchError);
      vi.restoreAllMocks();
    }
  });

  it('with equal-width bins (the default) reserves no bin-edge step', async () => {
    const meter = new PrivacyMeter();
    await mst.run(table, schema, resolveParams(mst, { bins: 6 }), context({ meter }));
    expect(meter.steps().map((s) => s.charges())).toEqual([D, D - 1, D - 1]);
  });

  it('a count source is refused with quantile bins or point masses, whose levels it cannot code', () => {
    expect(() => mstCountPlan(schema, resolveParams(mst, PARAMS), context())).toThrow(
      /quantile bins learn their edges from the rows, so they need the data in memory/,
    );
    const { codings } = planPgmDomain(schema, { bins: 6 }, N);
    const income = schema.columns[1]!;
    expect(() => numericThresholds(schema, income, codings[1]!)).toThrow(/point masses or quantile bins/);
    // Without point masses the same column compiles to thresholds.
    const plainColumn = base.schema.columns[1]!;
    const plain = planPgmDomain(base.schema, { bins: 6 }, N).codings[1]!;
    expect(numericThresholds(base.schema, plainColumn, plain).thresholds.length).toBe(5);
  });
});
