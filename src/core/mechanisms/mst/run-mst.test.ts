import { describe, expect, it } from 'vitest';
import { countInMemory } from '../../counts/memory-count-source';
import { InputError } from '../../table/errors';
import { mixedTable, runContext } from '../common/testing/fixtures';
import { resolveParams } from '../params';
import { mstCountPlan, readMst, runMst, mst } from './run-mst';
import { planMst } from './meta';

// Quick tests of MST's run around its draws: what it reads, what it refuses, what it reports.

const n = 200;
const { table, schema } = mixedTable(n);
const params = resolveParams(mst, { bins: 6, iterations: 20 });
const ctx = runContext(schema, n, { epsilon: '1', delta: '1e-9' });

describe('MST reads', () => {
  it('every one- and two-way marginal on the planned levels, and nothing from a table of another size', () => {
    const plan = mstCountPlan(schema, params, ctx);
    expect(plan.marginals).toEqual([[0], [1], [2], [0, 1], [0, 2], [1, 2]]);
    expect(plan.cells).toBe(false);
    expect(plan.codings.map((coding) => coding.levels)).toEqual([7, 7, 3]);
    expect(() => readMst(table, planMst(schema, params, ctx), { ...ctx, n: 199 })).toThrow(
      'mst: the table has 200 rows but the context says n = 199.',
    );
    // With quantile bins the draw takes the table: its edges are drawn after the reservation.
    const quantile = resolveParams(mst, { bins: 6, binning: 'quantile' });
    expect(readMst(table, planMst(schema, quantile, ctx), ctx)).toEqual({ table });
  });

  it('refuses a count plan for a plan with problems, and quantile bins without the rows', () => {
    expect(() => mstCountPlan(schema, params, { ...ctx, delta: 0 })).toThrow(InputError);
    const quantile = resolveParams(mst, { bins: 6, binning: 'quantile' });
    expect(() => mstCountPlan(schema, quantile, ctx)).toThrow(
      'mst cannot run: quantile bins learn their edges from the rows, so they need the data in memory: use equal-width bins with a count source.',
    );
    // With the learned codings the counts are planned on them.
    const learned = [...mstCountPlan(schema, params, ctx).codings];
    expect(mstCountPlan(schema, quantile, ctx, learned).codings).toBe(learned);
  });

  it('refuses counts for another number of rows, and quantile bins from counts, before any draw', async () => {
    const counts = countInMemory(table, mstCountPlan(schema, params, ctx));
    await expect(mst.drawFrom(counts, schema, params, { ...ctx, n: 201 }, {} as never)).rejects.toThrow(
      'mst: the counts are for 200 rows but the context says n = 201.',
    );
    const quantile = resolveParams(mst, { bins: 6, binning: 'quantile' });
    await expect(mst.drawFrom(counts, schema, quantile, ctx, {} as never)).rejects.toThrow(
      /^mst cannot run: quantile bins learn their edges from the rows/,
    );
  });
});

describe('MST reports', () => {
  it('its stages in order, and diagnostics that match its plan', async () => {
    const reports: [number, string][] = [];
    // 50 iterations: the fit reports its 50th, at 0.15 + 0.7·50/50 = 0.85.
    const release = await runMst(table, schema, resolveParams(mst, { bins: 6, iterations: 50 }), {
      ...ctx,
      releases: 2,
      progress: (fraction, message) => reports.push([fraction, message ?? '']),
    });
    expect(reports.slice(0, 4)).toEqual([
      [0, 'measuring one-way histograms'],
      [0.05, 'choosing the tree of column pairs'],
      [0.1, 'measuring the tree’s two-way histograms'],
      [0.85, 'fitting the model: iteration 50'],
    ]);
    // Releases share the last 15 %: 0.85 and 0.85 + 0.15/2.
    expect(reports.slice(-3)).toEqual([
      [0.85, 'drawing release 1 of 2'],
      [0.85 + (0.15 * 1) / 2, 'drawing release 2 of 2'],
      [1, 'done'],
    ]);
    const diagnostics = release.diagnostics;
    // σ₁ = √(9/ρ) = 24.51, σ₂ = √(6/ρ) = 20.01, ε = 0.141295 at ε = 1, δ = 1e-9 (mst.test.ts).
    expect(diagnostics).toMatchObject({
      oneWaySigma: '24.51',
      twoWaySigma: '20.01',
      selectionEpsilonPerRound: '0.141295',
      levelsBeforeMerging: { age: 7, income: 7, sex: 3 },
    });
    expect(diagnostics.tree).toHaveLength(2);
    expect(diagnostics.iterations).toBe(50);
    // The model's cells: the two tree edges' cells on the merged levels (a tree of three columns is
    // a chain, whose junction tree has one clique per edge).
    const after = diagnostics.levelsAfterMerging;
    const cells = diagnostics.tree.reduce((sum, [a, b]) => sum + after[a]! * after[b]!, 0);
    expect(diagnostics.modelCells).toBe(cells);
    for (const name of ['age', 'income', 'sex']) {
      expect(after[name]).toBeGreaterThanOrEqual(1);
      expect(after[name]).toBeLessThanOrEqual(diagnostics.levelsBeforeMerging[name]!);
    }
    expect(release.datasets).toHaveLength(2);
    expect(release.datasets.map((dataset) => dataset.nRows)).toEqual([n, n]);
  });

  it('keeps every level without merging when compress is off', async () => {
    const release = await runMst(
      table,
      schema,
      resolveParams(mst, { bins: 6, iterations: 5, compress: false }),
      ctx,
    );
    expect(release.diagnostics.levelsAfterMerging).toEqual({ age: 7, income: 7, sex: 3 });
  });
});
