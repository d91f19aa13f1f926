// CART speed against rpart and scikit-learn on the same data, and the MCMC pMSE fast path.
// Prints ONE JSON object.
//
// Data (shared/reference/time_cart.py's process): N/2 "real" rows of q iid N(0, 1) features and
// N/2 "synthetic" rows with feature 0 shifted by +0.3; label = half. Values are rounded to 6
// decimals so that the CSV tokens given to R and Python parse to the very doubles used here.
// Shapes: N = 2,000 / 10,000 / 100,000 × q = 2 / 10, each
//   full: rpart's full tree (cp = -1, minbucket 5, minsplit 10, maxdepth 30) — fit + in-sample predict
//   cp:   synthpop's tree (cp = 0.001, minbucket 5, minsplit 15, maxdepth 30) — fit + predict
// plus one CART pMSE on 2 × 5,000 rows × 2 columns with cp = 0.01 via makeCartPmseEvaluator.
// Medians of 15 / 7 / 5 repeats (N = 2,000 / 10,000 / 100,000), wall clock, after JIT warm-up;
// the pMSE path also reports the median CPU time per call (the machine may be shared).
// When Rscript with rpart and /usr/bin/python3 with scikit-learn exist, bench/time_cart_rpart.R and
// bench/time_cart_sklearn.py time them on the same CSVs in the same run; otherwise their fields are null.
// Env: CART_BENCH_SIZES (default 2000,10000,100000), CART_BENCH_QS (default 2,10).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PerformanceObserver, performance } from 'node:perf_hooks';
import { makeCartPmseEvaluator } from '../src/core/metrics/pmse-cart-evaluator';
import { pmseOfPropensities } from '../src/core/metrics/pmse-helpers';
import {
  CartWorkspace,
  fitCart,
  predictInSample,
  type CartInput,
  type CartOptions,
} from '../src/core/models/cart';
import { SeededRng } from '../src/core/rng/seeded-rng';
import type { Rng } from '../src/core/rng/types';

const BENCH_DIR = dirname(fileURLToPath(import.meta.url));
const SIZES = (process.env.CART_BENCH_SIZES ?? '2000,10000,100000').split(',').map(Number);
const QS = (process.env.CART_BENCH_QS ?? '2,10').split(',').map(Number);
const FULL: CartOptions = { cp: -1, minBucket: 5, minSplit: 10, maxDepth: 30 };
const SYNTHPOP: CartOptions = { cp: 0.001, minBucket: 5, minSplit: 15, maxDepth: 30 };

/** Standard normal by Box–Muller (bench data only), rounded to 6 decimals. */
function normalColumn(rng: Rng, n: number, shift: number): Float64Array {
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const u = 1 - rng.nextFloat();
    const v = rng.nextFloat();
    const z = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v) + shift;
    out[i] = Number(z.toFixed(6));
  }
  return out;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

function repeatsFor(n: number): number {
  return n <= 2000 ? 15 : n <= 10000 ? 7 : 5;
}

function writeCsv(path: string, columns: Float64Array[]): void {
  const header = columns.map((_, j) => `x${j + 1}`).join(',');
  const lines = [header];
  for (let i = 0; i < columns[0]!.length; i++)
    lines.push(columns.map((column) => column[i]!.toFixed(6)).join(','));
  writeFileSync(path, lines.join('\n') + '\n');
}

function runJsonLines(command: string, args: string[]): Record<string, number>[] | null {
  const result = spawnSync(command, args, { encoding: 'utf8', maxBuffer: 1 << 24 });
  if (result.status !== 0) return null;
  return result.stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, number>);
}

function available(command: string, args: string[]): boolean {
  const result = spawnSync(command, args, { encoding: 'utf8' });
  return result.status === 0;
}

const rng = new SeededRng(42);
const dir = mkdtempSync(join(tmpdir(), 'dpsynth-cart-bench-'));
const shapes: Record<string, number | null>[] = [];
const data = new Map<string, CartInput>();
for (const n of SIZES) {
  for (const q of QS) {
    const half = n / 2;
    const real = Array.from({ length: q }, () => normalColumn(rng, half, 0));
    const synth = Array.from({ length: q }, (_, j) => normalColumn(rng, n - half, j === 0 ? 0.3 : 0));
    writeCsv(join(dir, `real_${n}_${q}.csv`), real);
    writeCsv(join(dir, `synth_${n}_${q}.csv`), synth);
    const columns = real.map((column, j) => {
      const values = new Float64Array(n);
      values.set(column);
      values.set(synth[j]!, half);
      return { kind: 'numeric' as const, values };
    });
    data.set(`${n}_${q}`, { columns, y: new Uint8Array(n).fill(1, half), n });
  }
}

const workspace = new CartWorkspace();
// JIT warm-up before any timing: the smallest shapes would otherwise pay for compilation.
for (const input of data.values()) {
  if (input.n > 10000) continue;
  for (let k = 0; k < 10; k++) {
    fitCart(input, FULL, workspace);
    fitCart(input, SYNTHPOP, workspace);
  }
}
for (const n of SIZES) {
  for (const q of QS) {
    const input = data.get(`${n}_${q}`)!;
    const share = 0.5;
    const out = new Float64Array(n);
    const timeFit = (options: CartOptions) => {
      let leaves = 0;
      let pmse = 0;
      const once = () => {
        const tree = fitCart(input, options, workspace);
        predictInSample(tree, out);
        leaves = tree.leafCount;
        pmse = pmseOfPropensities(out, share);
      };
      once();
      const times: number[] = [];
      for (let r = 0; r < repeatsFor(n); r++) {
        const t0 = performance.now();
        once();
        times.push((performance.now() - t0) / 1000);
      }
      return { seconds: median(times), leaves, pmse };
    };
    const full = timeFit(FULL);
    const cp = timeFit(SYNTHPOP);
    shapes.push({
      N: n,
      q,
      ours_full_s: full.seconds,
      ours_cp_s: cp.seconds,
      ours_full_leaves: full.leaves,
      ours_cp_leaves: cp.leaves,
      ours_full_pmse: full.pmse,
      ours_cp_pmse: cp.pmse,
    });
  }
}

// The MCMC fast path: 2 × 5,000 rows × 2 columns, cp = 0.01.
const pmseRng = new SeededRng(7);
const realColumns = [normalColumn(pmseRng, 5000, 0), normalColumn(pmseRng, 5000, 0)];
const synthColumns = [normalColumn(pmseRng, 5000, 0.3), normalColumn(pmseRng, 5000, 0)];
const evaluator = makeCartPmseEvaluator(realColumns, 5000, {
  cp: 0.01,
  minBucket: 5,
  minSplit: 15,
  maxDepth: 30,
});
for (let k = 0; k < 20; k++) evaluator.evaluate(synthColumns);
// Garbage collections during the timed calls: the fast path should allocate nothing per call.
let collections = 0;
const gcObserver = new PerformanceObserver((list) => (collections += list.getEntries().length));
gcObserver.observe({ entryTypes: ['gc'] });
const pmseTimes: number[] = [];
const pmseCpuTimes: number[] = [];
for (let k = 0; k < 101; k++) {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  evaluator.evaluate(synthColumns);
  pmseTimes.push(performance.now() - t0);
  const cpu = process.cpuUsage(cpu0);
  pmseCpuTimes.push((cpu.user + cpu.system) / 1000);
}
await new Promise((resolve) => setTimeout(resolve, 0)); // let the observer deliver its entries
gcObserver.disconnect();

const sizesArg = SIZES.join(',');
const qsArg = QS.join(',');
const rpartLines = available('Rscript', ['-e', 'library(rpart)'])
  ? runJsonLines('Rscript', [join(BENCH_DIR, 'time_cart_rpart.R'), dir, sizesArg, qsArg])
  : null;
const sklearnLines = available('/usr/bin/python3', ['-c', 'import sklearn'])
  ? runJsonLines('/usr/bin/python3', [join(BENCH_DIR, 'time_cart_sklearn.py'), dir, sizesArg, qsArg])
  : null;
rmSync(dir, { recursive: true, force: true });

const ratio = (theirs: number | null | undefined, ours: number | null | undefined) =>
  theirs != null && ours != null && ours > 0 ? theirs / ours : null;
for (const shape of shapes) {
  const r = rpartLines?.find((line) => line.N === shape.N && line.q === shape.q);
  const s = sklearnLines?.find((line) => line.N === shape.N && line.q === shape.q);
  Object.assign(shape, {
    rpart_full_s: r?.full_s ?? null,
    rpart_cp_s: r?.cp_s ?? null,
    sklearn_full_s: s?.full_s ?? null,
    speedup_vs_rpart_full: ratio(r?.full_s, shape.ours_full_s),
    speedup_vs_rpart_cp: ratio(r?.cp_s, shape.ours_cp_s),
    speedup_vs_sklearn_full: ratio(s?.full_s, shape.ours_full_s),
    rpart_full_leaves: r?.full_leaves ?? null,
    rpart_cp_leaves: r?.cp_leaves ?? null,
    sklearn_full_leaves: s?.full_leaves ?? null,
    // Same data: the tree should be rpart's, so the pMSE agrees to rounding.
    cp_pmse_rel_diff_vs_rpart: r ? Math.abs((shape.ours_cp_pmse as number) - r.cp_pmse!) / r.cp_pmse! : null,
    full_pmse_rel_diff_vs_rpart: r
      ? Math.abs((shape.ours_full_pmse as number) - r.full_pmse!) / r.full_pmse!
      : null,
  });
}

console.log(
  JSON.stringify({
    bench: 'cart',
    unit: 'seconds (median wall clock); speedup = their time / ours',
    machine: { cpus: cpus().length, loadavg1: loadavg()[0] },
    rpart_available: rpartLines !== null,
    sklearn_available: sklearnLines !== null,
    shapes,
    pmse_2x5000x2_cp0_01: {
      median_ms: median(pmseTimes),
      min_ms: Math.min(...pmseTimes),
      // CPU time of this process per call: less sensitive than wall clock to other processes.
      median_cpu_ms: median(pmseCpuTimes),
      garbage_collections_in_101_calls: collections,
      goal_ms: 5,
      leaves: evaluator.lastLeafCount(),
    },
  }),
);
