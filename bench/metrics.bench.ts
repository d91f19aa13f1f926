// Utility metric speed. Prints ONE JSON object.
//
// Data: two independent draws (seeds 1 and 2, the second slightly shifted) of 100,000 rows × 8
// mixed columns: 4 numeric (normal, lognormal with 5 % missing, integer 0–99, uniform) and 4
// categorical (2, 5 with 2 % missing, 12 and 40 levels).
// Timed (median of 3 runs after a warm-up, wall clock): one-time encoding, TVD k = 1, 2, 3 from the
// shared encoding and tvdKWay end to end; per-column comparison; association matrices.
// When /usr/bin/python3 and ../shared/reference/tvd_ref.py exist, the reference TVD (k = 1, 2) is
// timed on the same rows written as CSV, in the same run; otherwise those fields are null.
// Random forest: ml-random-forest (the installed package) against bagging the rpart-semantics CART
// (src/core/metrics/ml/classifiers.ts) on 500 training rows: same rows, 10 trees each, bootstrap
// rows, every predictor available to every tree; one-hot design for ml-random-forest (it takes
// numbers only), native categories for ours. Then our forest at its default size (50 trees, ⌈√q⌉
// predictors per tree) on 10,000 rows, and one evaluateUtility on 10,000 rows with one release.
// Env: METRICS_BENCH_ROWS (default 100000), METRICS_BENCH_SKIP_RF_PACKAGE=1 skips ml-random-forest.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { RandomForestClassifier } from 'ml-random-forest';
import { compareAssociations } from '../src/core/metrics/correlation';
import { evaluateUtility } from '../src/core/metrics/evaluate';
import { encodeMarginalCells } from '../src/core/metrics/marginal-cells';
import { stackForClassifier } from '../src/core/metrics/ml/classifier-data';
import { FOREST_TREES, scoreWithForest } from '../src/core/metrics/ml/classifiers';
import { rocAucMannWhitney } from '../src/core/metrics/ml/roc-auc';
import { compareColumns } from '../src/core/metrics/per-column';
import { selectRows } from '../src/core/metrics/select-rows';
import { tvdKWay, tvdKWayFromEncoded } from '../src/core/metrics/tvd';
import { buildDesignMatrix } from '../src/core/models/design-matrix';
import { SeededRng } from '../src/core/rng/seeded-rng';
import type { Rng } from '../src/core/rng/types';
import { writeCsv } from '../src/core/table';
import type { Column, Table } from '../src/core/table/types';

const ROWS = Number(process.env.METRICS_BENCH_ROWS ?? 100_000);
const REFERENCE_TVD = join(dirname(fileURLToPath(import.meta.url)), '../../shared/reference/tvd_ref.py');

function normal(rng: Rng): number {
  const u = 1 - rng.nextFloat();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rng.nextFloat());
}

function numericColumn(name: string, n: number, draw: () => number | null): Column {
  const values = new Float64Array(n);
  const missing = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const v = draw();
    if (v === null) {
      values[i] = NaN;
      missing[i] = 1;
    } else values[i] = Number(v.toFixed(4));
  }
  return { kind: 'numeric', name, values, missing };
}

function categoricalColumn(name: string, n: number, levels: number, rng: Rng, missingShare = 0): Column {
  const codes = new Uint32Array(n);
  const missing = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    if (rng.nextFloat() < missingShare) missing[i] = 1;
    else codes[i] = Math.floor(levels * rng.nextFloat() ** 1.5);
  }
  return {
    kind: 'categorical',
    name,
    codes,
    missing,
    dictionary: Array.from({ length: levels }, (_, j) => `${name}${j}`),
  };
}

function mixedTable(n: number, seed: number, shift: number): Table {
  const rng = new SeededRng(seed);
  return {
    nRows: n,
    columns: [
      numericColumn('x1', n, () => normal(rng) + shift),
      numericColumn('x2', n, () => (rng.nextFloat() < 0.05 ? null : Math.exp(normal(rng)))),
      numericColumn('x3', n, () => Math.floor(100 * rng.nextFloat())),
      numericColumn('x4', n, () => rng.nextFloat() + shift / 10),
      categoricalColumn('c1', n, 2, rng),
      categoricalColumn('c2', n, 5, rng, 0.02),
      categoricalColumn('c3', n, 12, rng),
      categoricalColumn('c4', n, 40, rng),
    ],
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[sorted.length >> 1]!;
}

/** Median wall-clock milliseconds of `repeats` runs after one warm-up run. */
function time(run: () => unknown, repeats = 3): number {
  run();
  const times: number[] = [];
  for (let r = 0; r < repeats; r++) {
    const start = performance.now();
    run();
    times.push(performance.now() - start);
  }
  return Number(median(times).toFixed(2));
}

function referenceTvdMs(real: Table, synth: Table): Record<string, number> | null {
  if (!existsSync('/usr/bin/python3') || !existsSync(REFERENCE_TVD)) return null;
  const dir = mkdtempSync(join(tmpdir(), 'dpsynth-metrics-bench-'));
  try {
    writeFileSync(join(dir, 'real.csv'), writeCsv(real));
    writeFileSync(join(dir, 'synth.csv'), writeCsv(synth));
    const out: Record<string, number> = {};
    for (const k of [1, 2]) {
      const start = performance.now();
      const result = spawnSync('/usr/bin/python3', [
        REFERENCE_TVD,
        join(dir, 'real.csv'),
        join(dir, 'synth.csv'),
        '--k',
        String(k),
      ]);
      if (result.status !== 0) return null;
      out[String(k)] = Number((performance.now() - start).toFixed(0));
    }
    return out;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function forestComparison(train: Table, test: Table, trainRows: number, trees: number, withPackage: boolean) {
  const labelOf = (table: Table) => {
    const x1 = table.columns[0]!;
    const c1 = table.columns[4]!;
    if (x1.kind !== 'numeric' || c1.kind !== 'categorical') throw new Error('bench table layout');
    return Uint8Array.from(x1.values, (v, i) => (v + (c1.codes[i] === 1 ? 0.8 : 0) > 0.3 ? 1 : 0));
  };
  const trainPart = selectRows(
    train,
    Uint32Array.from({ length: trainRows }, (_, i) => i),
  );
  const testPart = selectRows(
    test,
    Uint32Array.from({ length: 2000 }, (_, i) => i),
  );
  // The label is computed from x1 and c1; predictors are the other six columns plus a noisy copy of x1.
  const predictors = ['x2', 'x3', 'x4', 'c2', 'c3', 'c4'];
  const withSignal = (table: Table, rng: Rng): Table => {
    const x1 = table.columns[0]!;
    if (x1.kind !== 'numeric') throw new Error('bench table layout');
    const noisy = Float64Array.from(x1.values, (v) => v + 0.5 * normal(rng));
    return {
      ...table,
      columns: [...table.columns, { kind: 'numeric', name: 'x1noisy', values: noisy, missing: x1.missing }],
    };
  };
  const rng = new SeededRng(9);
  const data = stackForClassifier(
    [{ table: withSignal(trainPart, rng), labels: labelOf(trainPart) }],
    [{ table: withSignal(testPart, rng), labels: labelOf(testPart) }],
    [...predictors, 'x1noisy'],
  );
  let ourScores: Float64Array = new Float64Array(0);
  // Same feature budget for both: every predictor available to every tree.
  const oursMs = time(
    () => (ourScores = scoreWithForest(data, new SeededRng(3), trees, withPackage ? Infinity : undefined)),
    1,
  );
  let packageMs: number | null = null;
  let packageAuc: number | null = null;
  if (withPackage && process.env.METRICS_BENCH_SKIP_RF_PACKAGE !== '1') {
    const trainDesign = buildDesignMatrix(data.pooled, { rows: [0, data.nTrain], intercept: false });
    const testDesign = buildDesignMatrix(data.pooled, {
      rows: [data.nTrain, data.nTrain + data.nTest],
      intercept: false,
    });
    const rows = (d: typeof trainDesign) =>
      Array.from({ length: d.nRows }, (_, i) =>
        Array.from(d.X.subarray(i * d.nColumns, (i + 1) * d.nColumns)),
      );
    const start = performance.now();
    const forest = new RandomForestClassifier({
      nEstimators: trees,
      maxFeatures: 1.0,
      seed: 7,
      useSampleBagging: true,
      replacement: false,
      noOOB: true,
      treeOptions: { minNumSamples: 5 },
    } as ConstructorParameters<typeof RandomForestClassifier>[0]);
    forest.train(rows(trainDesign), Array.from(data.yTrain));
    const probabilities = (
      forest as unknown as { predictProbability(x: number[][], label: number): number[] }
    ).predictProbability(rows(testDesign), 1);
    packageMs = Number((performance.now() - start).toFixed(0));
    packageAuc = rocAucMannWhitney(probabilities, data.yTest);
  }
  return {
    trainRows,
    testRows: data.nTest,
    trees,
    baggedCartMs: oursMs,
    baggedCartAuc: rocAucMannWhitney(ourScores, data.yTest),
    mlRandomForestMs: packageMs,
    mlRandomForestAuc: packageAuc,
  };
}

const real = mixedTable(ROWS, 1, 0);
const synth = mixedTable(ROWS, 2, 0.1);
const encoded = encodeMarginalCells(real, synth);
const tvdMeans = [1, 2, 3].map((k) => tvdKWayFromEncoded(encoded, k).mean);

const small = (table: Table, n: number) =>
  selectRows(
    table,
    Uint32Array.from({ length: n }, (_, i) => i),
  );
const evaluateStart = performance.now();
const evaluation = evaluateUtility(small(real, 10_000), [small(synth, 10_000)], {}, new SeededRng(5));
const evaluateMs = Number((performance.now() - evaluateStart).toFixed(0));

const result = {
  bench: 'metrics',
  machine: { cpus: cpus().length, model: cpus()[0]?.model ?? null, loadavg1: loadavg()[0] },
  node: process.version,
  rows: { real: ROWS, synth: ROWS, columns: 8 },
  tvdMeans,
  ms: {
    encodeOnce: time(() => encodeMarginalCells(real, synth)),
    tvdFromEncoded: {
      k1: time(() => tvdKWayFromEncoded(encoded, 1)),
      k2: time(() => tvdKWayFromEncoded(encoded, 2)),
      k3: time(() => tvdKWayFromEncoded(encoded, 3)),
    },
    tvdKWayEndToEnd: {
      k1: time(() => tvdKWay(real, synth, 1)),
      k2: time(() => tvdKWay(real, synth, 2)),
      k3: time(() => tvdKWay(real, synth, 3)),
    },
    perColumn: time(() => compareColumns(real, synth)),
    correlation: time(() => compareAssociations(real, synth)),
  },
  referenceTvdPythonMs: referenceTvdMs(real, synth),
  randomForest: {
    smallComparison: forestComparison(real, synth, 500, 10, true),
    // ml-random-forest is far too slow at this size (see smallComparison), so ours alone.
    defaultForest10k: forestComparison(real, synth, 10_000, FOREST_TREES, false),
  },
  evaluateUtility10k: { ms: evaluateMs, stagesMs: evaluation.timingsMs },
};
console.log(JSON.stringify(result));
