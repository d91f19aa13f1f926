// Noisy counts on a large domain: exact geometric skipping over empty cells against noise drawn on
// every cell. Prints ONE JSON object.
//
// 1. The noise step alone: a 10,077,696-cell domain (6^9) with 93 occupied cells, ε = 0.1, 1 and 10
//    (Δ = 2). `perCell` draws the positive part of an exact discrete Laplace variate for every empty
//    cell (perturbAllCellCounts with makeDiscreteLaplacePositivePartSampler); `sparse` is
//    perturbCellCounts, which the mechanisms use. Median of REPEATS runs each, seeded.
// 2. laplace-histogram's run() on the 93-row, 10-column car table of the studio bench
//    (bench/support/car-table.ts; its inferred facts taken as declared here), ε = 1, default
//    parameters: median of REPEATS runs.
// Env: SPARSE_BENCH_REPEATS (default 5).
import { performance } from 'node:perf_hooks';
import { laplaceHistogram } from '../src/core/mechanisms/laplace-histogram';
import { countNoiseScale } from '../src/core/privacy/noisy-cell-counts';
import { perturbAllCellCounts, perturbCellCounts } from '../src/core/privacy/metered/testing';
import type { SparseCellCounts } from '../src/core/cells/sparse-cell-counts';
import { resolveParams } from '../src/core/mechanisms/params';
import {
  makeDiscreteLaplacePositivePartSampler,
  makeDiscreteLaplaceSampler,
} from '../src/core/rng/discrete-laplace';
import { parseRational } from '../src/core/rng/rational';
import { SeededRng } from '../src/core/rng/seeded-rng';
import { uniformInt } from '../src/core/rng/uniform-int';
import { buildTable, inferSchema, parseCsv } from '../src/core/table';
import type { Schema } from '../src/core/table/types';
import { makeCarCsv } from './support/car-table';

const REPEATS = Number(process.env.SPARSE_BENCH_REPEATS ?? 5);
const DOMAIN_CELLS = 6 ** 9;
const OCCUPIED = 93;
const idle = { aborted: false };

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

function timed(repeats: number, work: (repeat: number) => number): { seconds: number; kept: number } {
  const seconds: number[] = [];
  let kept = 0;
  for (let r = 0; r < repeats; r++) {
    const started = performance.now();
    kept = work(r);
    seconds.push((performance.now() - started) / 1000);
  }
  return { seconds: Number(median(seconds).toFixed(3)), kept };
}

function occupiedCells(): SparseCellCounts {
  const rng = new SeededRng('occupied cells');
  const cells = new Set<number>();
  while (cells.size < OCCUPIED) cells.add(uniformInt(rng, DOMAIN_CELLS));
  const sorted = Uint32Array.from([...cells].sort((a, b) => a - b));
  return { cells: sorted, counts: new Uint32Array(sorted.length).fill(1) };
}

const counts = occupiedCells();
const options = { domainCells: DOMAIN_CELLS, repair: 'zero', nRows: OCCUPIED, signal: idle } as const;
const noiseStep = ['0.1', '1', '10'].map((epsilonText) => {
  const epsilon = parseRational(epsilonText);
  const scale = countNoiseScale(epsilon);
  const perCell = timed(
    REPEATS,
    (r) =>
      perturbAllCellCounts(new SeededRng(`per cell ${r}`), counts, makeDiscreteLaplaceSampler(scale), {
        ...options,
        sampleEmptyCellNoise: makeDiscreteLaplacePositivePartSampler(scale),
      }).cells.length,
  );
  const sparse = timed(
    REPEATS,
    (r) => perturbCellCounts(new SeededRng(`sparse ${r}`), counts, epsilon, options).cells.length,
  );
  return {
    epsilon: Number(epsilonText),
    perCell,
    sparse,
    speedup: Number((perCell.seconds / sparse.seconds).toFixed(1)),
  };
});

const carCsv = makeCarCsv();
const raw = parseCsv(carCsv, { fileName: 'cars.csv' });
const inferred = inferSchema(raw);
const schema: Schema = {
  ...inferred,
  columns: inferred.columns.map((column) => ({ ...column, source: 'declared' })),
};
const table = buildTable(raw, schema).table;
const params = resolveParams(laplaceHistogram, {});
const context = { n: table.nRows, schema, epsilon: '1', delta: 0, releases: 1, seeded: true };
const problems = laplaceHistogram.check(schema, params, context);
if (problems.length > 0) throw new Error(problems.join(' '));
let domainCells = 0;
const carSeconds: number[] = [];
for (let r = 0; r < REPEATS; r++) {
  const started = performance.now();
  const release = await laplaceHistogram.run(table, schema, params, {
    ...context,
    rng: new SeededRng(`car ${r}`),
    progress: () => {},
    signal: idle,
  });
  carSeconds.push((performance.now() - started) / 1000);
  domainCells = release.diagnostics.domainCells as number;
}
const carRun = { seconds: Number(median(carSeconds).toFixed(3)) };

console.log(
  JSON.stringify({
    bench: 'sparse-cell-noise',
    repeats: REPEATS,
    noiseStep: { domainCells: DOMAIN_CELLS, occupiedCells: OCCUPIED, byEpsilon: noiseStep },
    carTableRun: {
      rows: table.nRows,
      columns: table.columns.length,
      domainCells,
      epsilon: 1,
      seconds: carRun.seconds,
    },
  }),
);
