import { beforeEach, describe, expect, expectTypeOf, it } from 'vitest';
import type { Schema, Table } from '../core/table/types';
import { dataWorker } from './data-worker';
import { poolWorker, type PoolWorkerApi } from './pool-worker';
import {
  evaluatedOnHeldReleases,
  evaluatedOnPool,
  evaluationInputsAsSent,
  handTableOver,
  releasesKeptByDataWorker,
  runAsPage,
  tableAsSent,
} from './testing/worker-routes';
import { runSynthesisJob } from './synthesis-job';
import { computePmse } from '../core/metrics/pmse';
import { SYNTHPOP_CART_DEFAULTS } from '../core/models/cart';
import { makeRng } from '../core/rng';
import { tvdKWay } from '../core/metrics/tvd';
import { categoricalColumn, numericColumn } from '../core/mechanisms/common/testing/fixtures';
import { isAbortError } from '../core/abort';
import { NOISY_LINE_CSV, NOISY_LINE_SCHEMA } from './testing/noisy-line';

// A small file with a formula-like category ("=cmd"), a missing value and a value above the
// bound that the test declares for x.
const CSV = ['x,g', '1,a', '2,=cmd', '3,a', '4,b', ',b', '50,a', '6,b', '7,a'].join('\n');

/** x declared integer in [0, 10]; g declared with its three categories. */
const DECLARED_SCHEMA: Schema = {
  version: 1,
  columns: [
    { name: 'x', type: 'numeric', bounds: [0, 10], integer: true, source: 'declared' },
    { name: 'g', type: 'categorical', categories: ['=cmd', 'a', 'b'], source: 'declared' },
  ],
  missing: ['', 'NA'],
};

describe('the data worker and a pool worker, run directly in Node', () => {
  // The data worker holds one loaded file; every test starts from tiny.csv so that each passes alone
  // and in any order.
  beforeEach(async () => {
    await dataWorker.loadCsvText(CSV, 'tiny.csv', () => {});
  });

  it('reads a dropped file as a stream of chunks, as the text of the same file', async () => {
    // A Blob's stream() hands the bytes over in chunks, as File.stream() does in the browser.
    const text = `${CSV}\n"8",b\n`;
    const overview = await dataWorker.loadCsvFile(new Blob([text]), 'dropped.csv', () => {});
    expect(overview.nRows).toBe(9);
    expect(overview.bytes).toBe(new TextEncoder().encode(text).length);
    expect(dataWorker.previewRows(0, 3)).toEqual([
      ['1', 'a'],
      ['2', '=cmd'],
      ['3', 'a'],
    ]);
    expect(dataWorker.previewRows(8, 5)).toEqual([['8', 'b']]);
    await expect(dataWorker.loadCsvFile(new Blob(['a,b\n1,2\n3\n']), 'bad.csv', () => {})).rejects.toThrow(
      'bad.csv, line 3: expected 2 fields',
    );
  });

  it('loads a file, pages rows, validates a declared schema, runs a mechanism and exports the release', async () => {
    const messages: string[] = [];
    const overview = await dataWorker.loadCsvText(CSV, 'tiny.csv', (_fraction, message) =>
      messages.push(message),
    );
    expect(overview.nRows).toBe(8);
    expect(overview.header).toEqual(['x', 'g']);
    expect(overview.profiles.map((profile) => profile.kind)).toEqual(['numeric', 'categorical']);
    expect(messages.at(-1)).toBe('Loaded');
    expect(dataWorker.previewRows(6, 10)).toEqual([
      ['6', 'b'],
      ['7', 'a'],
    ]);
    expect(dataWorker.distinctTokens('g', ['', 'NA'], 10)).toEqual({
      tokens: ['=cmd', 'a', 'b'],
      truncated: false,
    });

    const schema = DECLARED_SCHEMA;
    const validation = dataWorker.validateSchema(schema);
    expect(validation.columns[0]).toMatchObject({ name: 'x', clampedAbove: 1, missing: 1 });

    expect(poolWorker.holdsTable('key-1')).toBe(false);
    await handTableOver(schema, 'key-1');
    expect(poolWorker.holdsTable('key-1')).toBe(true);
    const summary = await runAsPage({
      jobId: 'job-1',
      tableKey: 'key-1',
      schema,
      mechanismId: 'laplace-histogram',
      params: {},
      epsilon: '2',
      delta: '0',
      releases: 2,
      seed: 'engine-test',
    });
    expect(summary).toMatchObject({ rows: 8, columns: 2, releases: 2 });
    expect(summary.claim).toMatchObject({ notion: 'pure-dp', epsilon: 2 });
    expect(summary.comparison.tvdOneWay).toHaveLength(2);
    expect(summary.comparison.overlays.map((overlay) => overlay.column)).toEqual(['x', 'g']);

    // The releases reached the data worker over the channel.
    const csv = (await dataWorker.releaseCsvBlob('job-1', 0).text()).trim().split('\n');
    expect(csv[0]).toBe('x,g');
    expect(csv).toHaveLength(9);
    for (const line of csv.slice(1)) {
      const [x, g] = line.split(',');
      if (x !== '') expect(Number(x) >= 0 && Number(x) <= 10 && Number.isInteger(Number(x))).toBe(true);
      expect(['', 'a', 'b', "'=cmd"]).toContain(g);
    }
  });

  it('escapes formula-like text on export and measures the joint TVD of a known pair', async () => {
    // Two hand-made releases of the 8 real rows: the real table itself (TVD 0), and the same x
    // values with every g set to "=cmd". The real joint has one "=cmd" row (x = 2), so the second
    // pair shares only that 1/8 of mass: TVD = 1 − Σ min(p, q) = 1 − 1/8 = 0.875, whatever the
    // binning of x (both sides have the same x values).
    const schema = DECLARED_SCHEMA;
    const real = await tableAsSent(schema);
    expect(real.nRows).toBe(8);
    const x = real.columns[0]!;
    if (x.kind !== 'numeric') throw new Error('x is numeric');
    const xs = Array.from(x.values, (v, i) => (x.missing[i] ? null : v));
    const allCmd: Table = {
      nRows: 8,
      columns: [numericColumn('x', xs), categoricalColumn('g', Array<string>(8).fill('=cmd'))],
    };
    await releasesKeptByDataWorker('job-known', schema, [real, allCmd]);
    const csv = (await dataWorker.releaseCsvBlob('job-known', 1).text()).trim().split('\n');
    expect(csv.slice(1).map((line) => line.split(',')[1])).toEqual(Array<string>(8).fill("'=cmd"));
    expect(dataWorker.pairHeatmap('job-known', 0, schema, 'x', 'g').tvd).toBe(0);
    expect(dataWorker.pairHeatmap('job-known', 1, schema, 'x', 'g').tvd).toBeCloseTo(0.875, 12);
  });

  it('refuses a job whose mechanism cannot run on the schema, with the check sentence', async () => {
    const schema: Schema = {
      version: 1,
      columns: [
        { name: 'x', type: 'numeric', source: 'inferred' },
        { name: 'g', type: 'categorical', categories: ['=cmd', 'a', 'b'], source: 'declared' },
      ],
      missing: [''],
    };
    await handTableOver(schema, 'key-2');
    const refused = {
      jobId: 'job-2',
      tableKey: 'key-2',
      schema,
      mechanismId: 'laplace-histogram',
      params: {},
      epsilon: '1',
      delta: '0',
      releases: 1,
    };
    // The data worker waiting for the releases hears the same sentence (it is not left waiting).
    const { port1, port2 } = new MessageChannel();
    const kept = dataWorker.receiveReleases('job-2', schema, port1);
    await expect(poolWorker.synthesize(refused, () => {}, port2)).rejects.toThrow(/bounds/);
    await expect(kept).rejects.toThrow(/bounds/);
    expect(() => dataWorker.releaseCsvBlob('job-2', 0)).toThrow('no longer held');
    await expect(runAsPage({ ...refused, jobId: 'job-3', mechanismId: 'no-such-mechanism' })).rejects.toThrow(
      'No mechanism is registered under "no-such-mechanism"; pick one from the catalogue.',
    );
  });

  it('keeps rows back from the mechanism when asked, and returns them only to the evaluation', async () => {
    const schema: Schema = {
      version: 1,
      columns: [
        { name: 'x', type: 'numeric', bounds: [0, 10], source: 'declared' },
        { name: 'g', type: 'categorical', categories: ['=cmd', 'a', 'b'], source: 'declared' },
      ],
      missing: [''],
    };
    await handTableOver(schema, 'key-3');
    const summary = await runAsPage({
      jobId: 'job-holdout',
      tableKey: 'key-3',
      schema,
      mechanismId: 'dp-marginals',
      params: {},
      epsilon: '1',
      delta: '0',
      releases: 1,
      seed: 'holdout-test',
      holdoutShare: 0.25,
    });
    // round(0.25 · 8) = 2 rows kept back; the mechanism saw 6 and released 6.
    expect(summary).toMatchObject({ trainRows: 6, holdoutRows: 2, rows: 6 });
    // The data worker received the release and the kept-back indices from the pool worker.
    const inputs = await evaluationInputsAsSent('job-holdout', schema);
    expect(inputs.real?.nRows).toBe(6);
    expect(inputs.holdout?.nRows).toBe(2);
    expect(inputs.releases[0]!.nRows).toBe(6);
    // To a pool worker that holds the table: the releases and the kept-back indices, no real rows.
    const held = await evaluationInputsAsSent('job-holdout', schema, true);
    expect(held.real).toBeNull();
    expect(held.holdout).toBeNull();
    expect(held.holdoutRows).toHaveLength(2);
    expect(held.releases[0]!.nRows).toBe(6);
    // The three routes of an evaluation see the same 6 real rows, 2 kept-back rows and release: the
    // pool worker's own releases and table (nothing sent), copies of the releases with its table split
    // by the indices, all copies (TVD and per-column figures draw no randomness, so they agree exactly).
    const settings = { pmsePermutations: 0 };
    expect(poolWorker.holdsReleases('job-holdout')).toBe(true);
    const onPool = await evaluatedOnHeldReleases('job-holdout', settings);
    const fromCopies = await evaluatedOnPool('job-holdout', schema, settings);
    const fromHeld = await evaluatedOnPool('job-holdout', schema, settings, 'key-3');
    expect(onPool.rows).toEqual({ real: 6, releases: [6] });
    expect(fromHeld.rows).toEqual({ real: 6, releases: [6] });
    expect(fromHeld.tvd).toEqual(fromCopies.tvd);
    expect(fromHeld.perColumn).toEqual(fromCopies.perColumn);
    expect(onPool.tvd).toEqual(fromCopies.tvd);
    expect(onPool.perColumn).toEqual(fromCopies.perColumn);
  });

  it('tells the pool worker why the data worker cannot build a table, instead of leaving it waiting', async () => {
    const schema: Schema = {
      version: 1,
      columns: [{ name: 'absent', type: 'numeric', bounds: [0, 1], source: 'declared' }],
      missing: [''],
    };
    const { port1, port2 } = new MessageChannel();
    const receiving = poolWorker.receiveTable('key-unbuildable', port2);
    let reason = '';
    try {
      dataWorker.sendTableForRun(schema, port1);
    } catch (error) {
      reason = (error as Error).message;
    }
    expect(reason).toMatch(/absent/);
    await expect(receiving).rejects.toThrow(reason);
    expect(poolWorker.holdsTable('key-unbuildable')).toBe(false);
  });

  it('reports a malformed file with its line and keeps the loaded one', async () => {
    await expect(dataWorker.loadCsvText('a,b\n1,2\n3,4,5\n', 'bad.csv', () => {})).rejects.toThrow(/line 3/);
    expect(dataWorker.previewRows(0, 1)).toEqual([['1', 'a']]);
  });
  it('scores a sweep point by TVD and by the raw CART pMSE of the release it makes', async () => {
    // 300 rows, x tied to g, so a noisy release at ε = 0.5 is told apart by a tree (pMSE > 0).
    const rows = Array.from(
      { length: 300 },
      (_, i) => `${(i % 3) * 3 + (i % 2)},${['a', 'b', '=cmd'][i % 3]}`,
    );
    await dataWorker.loadCsvText(['x,g', ...rows].join('\n'), 'sweep.csv', () => {});
    const schema = DECLARED_SCHEMA;
    const table = await tableAsSent(schema);
    await handTableOver(schema, 'key-sweep');
    const job = {
      jobId: 'sweep-1',
      tableKey: 'key-sweep',
      schema,
      mechanismId: 'laplace-histogram',
      params: {},
      epsilon: '0.5',
      delta: '0',
      releases: 1,
      seed: 'sweep-test',
    };
    const point = await poolWorker.sweepPoint(job, 0.5, 3);
    // The same seeded job run directly gives the same release, hence the same pMSE (no permutations).
    const release = await runSynthesisJob(table, job, () => {}, { aborted: false });
    const expected = computePmse(
      table,
      release.datasets[0]!,
      { model: 'cart', cart: SYNTHPOP_CART_DEFAULTS, permutations: 0 },
      makeRng('unused'),
    );
    expect(point).toMatchObject({ epsilon: 0.5, repeat: 3, pmse: expected.value });
    expect(point.pmse).toBeGreaterThan(0);
    expect(point.pmse).toBeLessThanOrEqual(0.25);
    expect(point.tvdOneWay).toBe(tvdKWay(table, release.datasets[0]!, 1).mean);
    expect(point.tvdOneWay).toBeGreaterThan(0);
  });

  it('scores every release of one run as a sweep point of its own (repeats from one run)', async () => {
    const rows = Array.from({ length: 300 }, (_, i) => `${(i % 3) * 3 + (i % 2)},${['a', 'b', 'c'][i % 3]}`);
    await dataWorker.loadCsvText(['x,g', ...rows].join('\n'), 'sweep-run.csv', () => {});
    const schema = DECLARED_SCHEMA;
    const table = await tableAsSent(schema);
    await handTableOver(schema, 'key-sweep-run');
    // Three releases at 3 × 0.5: each release spends 0.5, as the sweep's point at ε = 0.5 should.
    const job = {
      jobId: 'sweep-run-1',
      tableKey: 'key-sweep-run',
      schema,
      mechanismId: 'laplace-histogram',
      params: {},
      epsilon: '3/2',
      delta: '0',
      releases: 3,
      seed: 'sweep-run-test',
    };
    const points = await poolWorker.sweepPointsOfOneRun(job, 0.5, 0);
    const release = await runSynthesisJob(table, job, () => {}, { aborted: false });
    expect(release.claim.steps.map((step) => step.epsilon)).toEqual([0.5, 0.5, 0.5]);
    expect(points.map((point) => [point.epsilon, point.repeat])).toEqual([
      [0.5, 0],
      [0.5, 1],
      [0.5, 2],
    ]);
    release.datasets.forEach((dataset, r) => {
      expect(points[r]!.tvdOneWay).toBe(tvdKWay(table, dataset, 1).mean);
      expect(points[r]!.tvdTwoWay).toBe(tvdKWay(table, dataset, 2).mean);
    });
    // Three releases with fresh noise are three different tables.
    expect(new Set(points.map((point) => point.pmse)).size).toBe(3);
  });
});

/**
 * True when a value of type T can carry rows: a Table, a typed array or a buffer anywhere inside
 * (fields, array items, union members), looked for down to 12 levels.
 */
type CarriesRows<T, Depth extends 0[] = []> = T extends unknown // one union member at a time
  ? Depth['length'] extends 12
    ? false
    : T extends ArrayBufferView | ArrayBuffer | Table
      ? true
      : T extends readonly (infer Item)[]
        ? CarriesRows<Item, [...Depth, 0]>
        : T extends object
          ? true extends { [K in keyof T]-?: CarriesRows<T[K], [...Depth, 0]> }[keyof T]
            ? true
            : false
          : false
  : never;

/** Where `value` holds a typed array or buffer, or an array of at least `rows` items (a column's worth). */
function rowSizedParts(value: unknown, rows: number, path = '$'): string[] {
  if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer) return [path];
  if (Array.isArray(value)) {
    const items = value.flatMap((item, i) => rowSizedParts(item, rows, `${path}[${i}]`));
    return value.length >= rows ? [path, ...items] : items;
  }
  if (value !== null && typeof value === 'object') {
    return Object.entries(value).flatMap(([key, item]) => rowSizedParts(item, rows, `${path}.${key}`));
  }
  return [];
}

describe("a run's releases go from the pool worker to the data worker; the page gets a summary", () => {
  // 2,000 rows, so that any column of the real table or of a release would stand out by its length.
  const ROWS = 2000;
  const CSV_ROWS = [
    'x,g',
    ...Array.from({ length: ROWS }, (_, i) => `${i % 10},${['a', 'b', '=cmd'][i % 3]}`),
  ];
  const job = (jobId: string, tableKey = 'key-route') => ({
    jobId,
    tableKey,
    schema: DECLARED_SCHEMA,
    mechanismId: 'laplace-histogram',
    params: {},
    epsilon: '2',
    delta: '0',
    releases: 2,
    seed: `route-${jobId}`,
  });
  const settings = { pmsePermutations: 0 };

  beforeEach(async () => {
    await dataWorker.loadCsvText(CSV_ROWS.join('\n'), 'rows.csv', () => {});
    await handTableOver(DECLARED_SCHEMA, 'key-route');
  });

  it('answers the page with no table, and the data worker and the pool worker hold the releases', async () => {
    // What the page can get back from a run, by the types of the pool worker's API: no table anywhere.
    expectTypeOf<CarriesRows<Awaited<ReturnType<PoolWorkerApi['synthesize']>>>>().toEqualTypeOf<false>();
    expectTypeOf<CarriesRows<ReturnType<PoolWorkerApi['finishStages']>>>().toEqualTypeOf<false>();
    // The type test can fail: the answer runs gave before carried the releases.
    expectTypeOf<CarriesRows<{ summary: { rows: number }; datasets: Table[] }>>().toEqualTypeOf<true>();
    // So can a field that only may hold rows.
    expectTypeOf<CarriesRows<{ holdoutRows: Uint32Array | null }>>().toEqualTypeOf<true>();

    const summary = await runAsPage(job('route-1'));
    expect(summary).toMatchObject({ rows: ROWS, releases: 2 });
    // And by what it holds: no typed array, no array of a column's length (a release as it was
    // returned before would be found).
    expect(rowSizedParts(summary, ROWS)).toEqual([]);
    expect(rowSizedParts({ summary, datasets: [await tableAsSent(DECLARED_SCHEMA)] }, ROWS)).not.toEqual([]);

    // The data worker holds both releases (all their rows), for charts and export.
    for (const index of [0, 1]) {
      const lines = (await dataWorker.releaseCsvBlob('route-1', index).text()).trim().split('\n');
      expect(lines).toHaveLength(ROWS + 1);
    }
    // The pool worker keeps them too, for the evaluation that follows: the same figures as the
    // data worker's copies give (TVD and per-column figures draw no randomness).
    expect(poolWorker.holdsReleases('route-1')).toBe(true);
    const onPool = await evaluatedOnHeldReleases('route-1', settings);
    const fromCopies = await evaluatedOnPool('route-1', DECLARED_SCHEMA, settings, 'key-route');
    expect(onPool.rows).toEqual({ real: ROWS, releases: [ROWS, ROWS] });
    expect(onPool.tvd).toEqual(fromCopies.tvd);
    expect(onPool.perColumn).toEqual(fromCopies.perColumn);
  });

  it('drops the held releases when another run starts on the worker; the evaluation then takes copies', async () => {
    await runAsPage(job('route-a'));
    expect(poolWorker.holdsReleases('route-a')).toBe(true);
    await poolWorker.sweepPoint(job('route-sweep'), 2, 0);
    expect(poolWorker.holdsReleases('route-a')).toBe(false);
    await expect(evaluatedOnHeldReleases('route-a', settings)).rejects.toThrow('no longer holds');
    // The data worker still has them and sends copies (route 4).
    const report = await evaluatedOnPool('route-a', DECLARED_SCHEMA, settings, 'key-route');
    expect(report.rows).toEqual({ real: ROWS, releases: [ROWS, ROWS] });

    await runAsPage(job('route-b'));
    await runAsPage(job('route-c'));
    expect(poolWorker.holdsReleases('route-b')).toBe(false);
    expect(poolWorker.holdsReleases('route-c')).toBe(true);
  });

  it('drops the held releases with the table they were made on', async () => {
    await runAsPage(job('route-table'));
    expect(poolWorker.holdsReleases('route-table')).toBe(true);
    // A worker keeps two tables: two more push the run's table out, and its releases with it.
    await handTableOver(DECLARED_SCHEMA, 'key-other-1');
    expect(poolWorker.holdsReleases('route-table')).toBe(true);
    await handTableOver(DECLARED_SCHEMA, 'key-other-2');
    expect(poolWorker.holdsTable('key-route')).toBe(false);
    expect(poolWorker.holdsReleases('route-table')).toBe(false);
  });

  it('sends no table for a cancelled run: the data worker hears that it was cancelled', async () => {
    // The pMSE mechanism checks its signal at each progress call of its chains.
    await dataWorker.loadCsvText(NOISY_LINE_CSV, 'line.csv', () => {});
    await handTableOver(NOISY_LINE_SCHEMA, 'key-cancel');
    const cancelled = {
      jobId: 'route-cancelled',
      tableKey: 'key-cancel',
      schema: NOISY_LINE_SCHEMA,
      mechanismId: 'pmse-mechanism',
      params: { chains: 2, burnIn: 60, steps: 80, thinning: 20, treeDepth: '1' },
      epsilon: '1',
      delta: '0',
      releases: 1,
      seed: 'route-cancelled',
    };
    const { port1, port2 } = new MessageChannel();
    const kept = dataWorker.receiveReleases('route-cancelled', NOISY_LINE_SCHEMA, port1);
    const run = poolWorker.synthesize(cancelled, () => poolWorker.cancel('route-cancelled'), port2);
    await expect(run).rejects.toSatisfy(isAbortError);
    await expect(kept).rejects.toSatisfy(isAbortError);
    expect(() => dataWorker.releaseCsvBlob('route-cancelled', 0)).toThrow('no longer held');
    expect(poolWorker.holdsReleases('route-cancelled')).toBe(false);
  });

  it('stops waiting for releases whose sender ended when the page gives the run up', async () => {
    // A pool worker terminated mid-run never writes to its end of the channel.
    const { port1 } = new MessageChannel();
    const kept = dataWorker.receiveReleases('route-gone', DECLARED_SCHEMA, port1);
    dataWorker.abandonReleases('route-gone');
    await expect(kept).rejects.toSatisfy(isAbortError);
    // The run's id can be used again: a later run under it is kept.
    await runAsPage(job('route-gone'));
    expect(dataWorker.releaseCsvBlob('route-gone', 1).size).toBeGreaterThan(0);
  });
});
