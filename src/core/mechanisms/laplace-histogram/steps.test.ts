import { describe, expect, it } from 'vitest';
import { Accountant } from '../../privacy/accountant';
import { parseBudget } from '../../privacy/budget';
import { PrivacyMeter } from '../../privacy/meter';
import { countInMemory } from '../../counts/memory-count-source';
import { SeededRng } from '../../rng/seeded-rng';
import type { CategoricalColumn } from '../../table/types';
import { WHOLE_TABLES } from '../common/rows/dataset-form';
import { mixedTable, runContext } from '../common/testing/fixtures';
import { resolveParams } from '../params';
import { laplaceHistogram, laplaceHistogramCountPlan, runLaplaceHistogram } from '.';
import { laplaceHistogramSettings } from './params';

// The Laplace histogram's reports, its row count and clamp under each relation, and its texts, on the
// mixed table binned in 5 (K = 6 · 6 · 3 = 108 cells).

const fiveBins = resolveParams(laplaceHistogram, { bins: 5 });
const { table, schema } = mixedTable(60);
const domainLines = [
  'Cross-tabulation of 108 cells: age 6, income 6, sex 3 (each count includes a missing-value cell).',
  'Bins of consecutive whole numbers, synthetic values drawn uniformly among the integers of their bin: age (74 integers in 5 bins).',
];

describe('laplace-histogram run', () => {
  it('reports each release at (r + 0.9·f)/M, then done, and states its public diagnostics', async () => {
    const reports: [number, string][] = [];
    const ctx = runContext(schema, 60, { releases: 2, progress: (f, what) => reports.push([f, what!]) });
    const release = await laplaceHistogram.run(table, schema, fiveBins, ctx);
    // 108 cells: the noise reports once, when every cell is done (f = 1): (r + 0.9)/2.
    expect(reports).toEqual([
      [0.45, 'release 1 of 2: noisy counts'],
      [0.45, 'release 1 of 2: drawing rows'],
      [0.95, 'release 2 of 2: noisy counts'],
      [0.95, 'release 2 of 2: drawing rows'],
      [1, 'done'],
    ]);
    const { domainCells, levelsPerColumn, positiveNoisyCells } = release.diagnostics;
    expect({ domainCells, levelsPerColumn }).toEqual({
      domainCells: 108,
      levelsPerColumn: { age: 6, income: 6, sex: 3 },
    });
    expect(positiveNoisyCells).toHaveLength(2);
    expect(positiveNoisyCells.every((cells) => cells > 0 && cells <= 108)).toBe(true);
  });

  it('draws n rows under replace-one and a row count from the noisy sum under add/remove', async () => {
    const replace = await laplaceHistogram.run(
      table,
      schema,
      fiveBins,
      runContext(schema, 60, { epsilon: '0.3' }),
    );
    expect(replace.datasets[0]!.nRows).toBe(60);
    // Under add/remove n is private: at ε = 0.3 (noise scale 1/0.3 on 108 cells) the seeded estimate
    // from the noisy sum is not n; drawing n rows would read the private count.
    const meter = new PrivacyMeter('add-remove');
    const ctx = runContext(schema, 60, { epsilon: '0.3', neighbouring: 'add-remove', meter });
    const added = await laplaceHistogram.run(table, schema, fiveBins, ctx);
    expect(added.datasets[0]!.nRows).not.toBe(60);
  });

  it("takes the relation from the run's meter, not from the context", async () => {
    // The accountant's meter is replace-one, so n is public to the draw although the context says add/remove.
    const ctx = runContext(schema, 60, { epsilon: '0.3', neighbouring: 'add-remove' });
    const release = await runLaplaceHistogram(
      table,
      schema,
      fiveBins,
      ctx,
      new Accountant(parseBudget('0.3')),
    );
    expect(release.datasets[0]!.nRows).toBe(60);
  });

  it('clamps noisy counts to n under boundary-inflated: the seeded draw differs from the one with negatives set to 0', async () => {
    // ε = 0.01: noise of scale 200 on every cell, so many noisy counts exceed n = 60 and are cut to 60.
    const sexCodes = async (negatives: string) => {
      const params = resolveParams(laplaceHistogram, { bins: 5, negatives });
      const ctx = runContext(schema, 60, { epsilon: '0.01', rng: new SeededRng(7) });
      const release = await laplaceHistogram.run(table, schema, params, ctx);
      return Array.from((release.datasets[0]!.columns[2] as CategoricalColumn).codes);
    };
    expect(await sexCodes('boundary-inflated')).not.toEqual(await sexCodes('zero'));
  });

  it('refuses counts taken for another n than the context’s', async () => {
    const plan = laplaceHistogramCountPlan(schema, fiveBins, runContext(schema, 60));
    const counts = countInMemory(mixedTable(59).table, plan);
    await expect(
      laplaceHistogram.drawFrom(counts, schema, fiveBins, runContext(schema, 60), WHOLE_TABLES),
    ).rejects.toThrow('laplace-histogram: the counts are for 59 rows but the context says n = 60.');
  });

  it('refuses counts without the cross-tabulation', async () => {
    const { codings } = laplaceHistogramCountPlan(schema, fiveBins, runContext(schema, 60));
    const noCells = countInMemory(table, { codings, cells: false, marginals: [] });
    await expect(
      laplaceHistogram.drawFrom(noCells, schema, fiveBins, runContext(schema, 60), WHOLE_TABLES),
    ).rejects.toThrow('laplace-histogram: the counts are for 60 rows but the context says n = 60.');
  });

  it('refuses to plan the counts of a domain with problems, naming each', () => {
    const unbounded = {
      ...schema,
      columns: ['x', 'y'].map((name) => ({ name, type: 'numeric' as const, source: 'declared' as const })),
    };
    expect(() => laplaceHistogramCountPlan(unbounded, fiveBins, runContext(unbounded, 60))).toThrow(
      'laplace-histogram cannot run: needs bounds for numeric column `x`: declare them in the schema. ' +
        'needs bounds for numeric column `y`: declare them in the schema.',
    );
  });
});

describe('laplace-histogram texts', () => {
  it('warns when noise dominates, only while n is public', () => {
    expect(laplaceHistogram.describe!(fiveBins, runContext(schema, 60, { epsilon: '0.01' }))).toEqual([
      ...domainLines,
      'With 108 cells, 60 rows and ε = 0.01 per release, up to about 99.4% of the synthetic rows are expected to ' +
        'come from noise in cells the data may not occupy: choose fewer bins or columns, or spend more ε.',
    ]);
    const addRemove = runContext(schema, 60, { epsilon: '0.01', neighbouring: 'add-remove' });
    expect(laplaceHistogram.describe!(fiveBins, addRemove)).toEqual(domainLines);
    expect(laplaceHistogram.describe!(fiveBins, runContext(schema, 60, { epsilon: 'abc' }))).toEqual(
      domainLines,
    );
    const empty = { version: 1 as const, missing: [], columns: [] };
    expect(laplaceHistogram.describe!(fiveBins, runContext(empty, 60, { epsilon: '0.01' }))).toEqual([]);
  });

  it('reads negative counts set to 0 unless boundary-inflated is asked for', () => {
    expect(laplaceHistogramSettings({}).repair).toBe('zero');
    expect(laplaceHistogramSettings({ negatives: 'boundary-inflated' }).repair).toBe('boundary-inflated');
  });

  it('refuses the clamp to [0, n] under add/remove only, and states how the row count is estimated', () => {
    const clamp = resolveParams(laplaceHistogram, { bins: 5, negatives: 'boundary-inflated' });
    expect(
      laplaceHistogram.check(schema, clamp, runContext(schema, 60, { neighbouring: 'add-remove' })),
    ).toEqual([
      'clamping noisy counts to [0, n] (boundary inflated) reads n, which is private under add/remove neighbours: set negative noisy counts to 0.',
    ]);
    expect(laplaceHistogram.check(schema, clamp, runContext(schema, 60))).toEqual([]);
    expect(
      laplaceHistogram.check(schema, fiveBins, runContext(schema, 60, { neighbouring: 'add-remove' })),
    ).toEqual([]);
    const claim = laplaceHistogram.claim(fiveBins, runContext(schema, 60, { neighbouring: 'add-remove' }));
    expect(claim.assumptions).toContain(
      'The number of rows n is private (add/remove neighbours): each release has as many rows as the sum of its ' +
        'noisy counts (negatives set to 0) less K·E[max(Z, 0)], the positive noise its K cells add on average, ' +
        'rounded, at least 0 (post-processing; it can fall below n by up to that much, and over a large domain it ' +
        'is itself very noisy); nothing else reads n, and no public fact (domain, bins, defaults) depends on it.',
    );
  });
});
