// pMSE end to end on Tables (real vs synthetic, 5,000 + 5,000 rows, 4 numeric columns with 5%
// missing values in one, 2 categorical columns with 4 and 12 levels): CART without and with the
// 50-permutation null (synthpop defaults), logit with main effects and with all pairwise
// interactions (synthpop's maxorder = 1), and the MCMC fast path on the numeric columns.
// Medians of 5 repeats (the fast path: of 101 calls), wall clock. Prints ONE JSON object.
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { computePmse, makeCartPmseEvaluator } from '../src/core/metrics/pmse';
import { SYNTHPOP_CART_DEFAULTS } from '../src/core/models/cart';
import { SeededRng } from '../src/core/rng/seeded-rng';
import type { Rng } from '../src/core/rng/types';
import type { Column, Table } from '../src/core/table/types';

const ROWS = 5000;

function normal(rng: Rng): number {
  return Math.sqrt(-2 * Math.log(1 - rng.nextFloat())) * Math.cos(2 * Math.PI * rng.nextFloat());
}

function numericColumn(name: string, values: Float64Array, missingRate: number, rng: Rng): Column {
  const missing = new Uint8Array(values.length);
  for (let i = 0; i < values.length; i++) {
    if (rng.nextFloat() < missingRate) {
      missing[i] = 1;
      values[i] = NaN;
    }
  }
  return { kind: 'numeric', name, values, missing };
}

function categoricalColumn(name: string, levels: number, rng: Rng, tilt: number): Column {
  const dictionary = Array.from({ length: levels }, (_, k) => `${name}-${k}`);
  const codes = Uint32Array.from({ length: ROWS }, () =>
    Math.min(levels - 1, Math.floor(levels * rng.nextFloat() ** (1 + tilt))),
  );
  return { kind: 'categorical', name, codes, dictionary, missing: new Uint8Array(ROWS) };
}

function makeTable(rng: Rng, shift: number): Table {
  const a = Float64Array.from({ length: ROWS }, () => normal(rng) + shift);
  const b = Float64Array.from({ length: ROWS }, (_, i) => 0.5 * a[i]! + normal(rng));
  const c = Float64Array.from({ length: ROWS }, () => Math.round(normal(rng) * 3));
  const d = Float64Array.from({ length: ROWS }, () => Math.exp(normal(rng) * (1 + shift)));
  return {
    nRows: ROWS,
    columns: [
      numericColumn('a', a, 0, rng),
      numericColumn('b', b, 0, rng),
      numericColumn('c', c, 0.05, rng),
      numericColumn('d', d, 0, rng),
      categoricalColumn('g', 4, rng, shift),
      categoricalColumn('h', 12, rng, 0),
    ],
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[sorted.length >> 1]!;
}

function time<T>(repeats: number, run: () => T): { ms: number; last: T } {
  let last = run();
  const times: number[] = [];
  for (let r = 0; r < repeats; r++) {
    const t0 = performance.now();
    last = run();
    times.push(performance.now() - t0);
  }
  return { ms: median(times), last };
}

const rng = new SeededRng(2024);
const real = makeTable(rng, 0);
const synth = makeTable(rng, 0.2);

const cartNoNull = time(5, () => computePmse(real, synth, { model: 'cart', permutations: 0 }, rng));
const cartNull = time(3, () => computePmse(real, synth, { model: 'cart', permutations: 50 }, rng));
const logitMain = time(5, () => computePmse(real, synth, { model: 'logit', maxOrder: 0 }, rng));
const logitPairs = time(3, () => computePmse(real, synth, { model: 'logit', maxOrder: 1 }, rng));

const numeric = (table: Table) => [0, 1, 3].map((j) => (table.columns[j] as { values: Float64Array }).values);
const evaluator = makeCartPmseEvaluator(numeric(real), ROWS, SYNTHPOP_CART_DEFAULTS);
const fastPath = time(101, () => evaluator.evaluate(numeric(synth)));

console.log(
  JSON.stringify({
    bench: 'pmse',
    rows: { real: ROWS, synth: ROWS },
    loadavg1: loadavg()[0],
    unit: 'milliseconds (median wall clock)',
    cart_synthpop_no_null: { ms: cartNoNull.ms, pMSE: cartNoNull.last.value, leaves: cartNoNull.last.leaves },
    cart_synthpop_50_permutations: {
      ms: cartNull.ms,
      pMSE: cartNull.last.value,
      S_pMSE: cartNull.last.ratio,
      nullMean: cartNull.last.nullMean,
    },
    logit_main_effects: {
      ms: logitMain.ms,
      pMSE: logitMain.last.value,
      S_pMSE: logitMain.last.ratio,
      k: logitMain.last.k,
    },
    logit_pairwise: {
      ms: logitPairs.ms,
      pMSE: logitPairs.last.value,
      S_pMSE: logitPairs.last.ratio,
      k: logitPairs.last.k,
    },
    cart_fast_path_3_numeric_columns: {
      ms: fastPath.ms,
      pMSE: fastPath.last,
      leaves: evaluator.lastLeafCount(),
    },
  }),
);
