// Shared setup of the pMSE mechanism benchmarks (not a benchmark itself): the simulated data of
// Snoke & Slavković (2018, §5–7), a tiny worker_threads pool that runs TypeScript workers under
// tsx, command-line options, and small statistics helpers.
//
// Reading of the paper's notation: it writes normals as N(mean, variance) (its synthesis model is
// X1 ~ N(θ1, θ2), X2 ~ N(θ3 + θ4·x1, θ5) with θ2, θ5 the variances, and its flat prior is
// N(0, 100,000)), so X1 ~ N(2, 10), X2 ~ N(−2.5 + 0.5·x1, 3), the perturbation N(0, 25) and
// θi ~ N(0, 10) are read with 10, 3, 25 and 10 as variances.
import { Worker } from 'node:worker_threads';
import { makeNormalSampler, type Rng } from '../src/core/rng';
import type { NumericColumn, Schema, Table } from '../src/core/table/types';
import { mean } from '../src/core/stats/mean';

export const PAPER_N = 5000;
export const X1_MEAN = 2;
export const X1_VARIANCE = 10;
export const X2_INTERCEPT = -2.5;
export const X2_SLOPE = 0.5;
export const X2_RESIDUAL_VARIANCE = 3;
/** Marginal of X2: mean −2.5 + 0.5·2 = −1.5, variance 0.25·10 + 3 = 5.5. */
export const X2_MEAN = X2_INTERCEPT + X2_SLOPE * X1_MEAN;
export const X2_VARIANCE = X2_SLOPE * X2_SLOPE * X1_VARIANCE + X2_RESIDUAL_VARIANCE;
/** The data-generating parameters in the mechanism's parametrisation (intercepts, slopes, log σ). */
export const TRUE_THETA = [
  X1_MEAN,
  Math.log(Math.sqrt(X1_VARIANCE)),
  X2_INTERCEPT,
  X2_SLOPE,
  Math.log(Math.sqrt(X2_RESIDUAL_VARIANCE)),
];

/** X1 ~ N(2, 10), X2 ~ N(−2.5 + 0.5·x1, 3), n rows. */
export function simulatePaperData(n: number, rng: Rng): [Float64Array, Float64Array] {
  const normal = makeNormalSampler(rng);
  const x1 = Float64Array.from({ length: n }, () => normal(X1_MEAN, Math.sqrt(X1_VARIANCE)));
  const x2 = Float64Array.from(x1, (x) =>
    normal(X2_INTERCEPT + X2_SLOPE * x, Math.sqrt(X2_RESIDUAL_VARIANCE)),
  );
  return [x1, x2];
}

export function paperTable(x1: Float64Array, x2: Float64Array): Table {
  const column = (name: string, values: Float64Array): NumericColumn => ({
    kind: 'numeric',
    name,
    values,
    missing: new Uint8Array(values.length),
  });
  return { nRows: x1.length, columns: [column('x1', x1), column('x2', x2)] };
}

/** The pMSE mechanism needs no bounds (the paper's point). */
export const UNBOUNDED_SCHEMA: Schema = {
  version: 1,
  columns: [
    { name: 'x1', type: 'numeric', source: 'declared' },
    { name: 'x2', type: 'numeric', source: 'declared' },
  ],
  missing: [],
};

/** Declared bounds at mean ± k marginal standard deviations (the paper's "four times the standard deviation"). */
export function boundedSchema(k: number): Schema {
  const sd1 = Math.sqrt(X1_VARIANCE);
  const sd2 = Math.sqrt(X2_VARIANCE);
  return {
    version: 1,
    columns: [
      { name: 'x1', type: 'numeric', bounds: [X1_MEAN - k * sd1, X1_MEAN + k * sd1], source: 'declared' },
      { name: 'x2', type: 'numeric', bounds: [X2_MEAN - k * sd2, X2_MEAN + k * sd2], source: 'declared' },
    ],
    missing: [],
  };
}

/** `--name=value` from the command line, or the fallback. */
export function cliOption(name: string, fallback: string): string {
  const prefix = `--${name}=`;
  const found = process.argv.slice(2).find((argument) => argument.startsWith(prefix));
  return found === undefined ? fallback : found.slice(prefix.length);
}

export function cliInteger(name: string, fallback: number): number {
  const value = Number(cliOption(name, String(fallback)));
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} must be a positive integer`);
  return value;
}

/**
 * Runs `tasks` on `workerCount` worker threads that execute the module at `moduleUrl` under tsx
 * (the module's worker branch answers each posted task with one message). Results come back in
 * task order.
 */
export async function runInWorkers<Task, Result>(
  moduleUrl: string,
  tasks: Task[],
  workerCount: number,
): Promise<Result[]> {
  const bootstrap = `import('tsx/esm/api').then((api) => { api.register(); return import(${JSON.stringify(moduleUrl)}); })`;
  const results: Result[] = new Array(tasks.length);
  let next = 0;
  const workers = Array.from(
    { length: Math.min(workerCount, tasks.length) },
    () => new Worker(bootstrap, { eval: true }),
  );
  await Promise.all(
    workers.map(
      (worker) =>
        new Promise<void>((resolve, reject) => {
          const feed = () => {
            if (next >= tasks.length) {
              void worker.terminate().then(() => resolve());
              return;
            }
            const index = next++;
            worker.once('message', (result: Result) => {
              results[index] = result;
              feed();
            });
            worker.postMessage(tasks[index]);
          };
          worker.once('error', reject);
          worker.once('online', feed);
        }),
    ),
  );
  return results;
}

export { mean };

/** Unbiased sample variance. */
export function variance(values: ArrayLike<number>): number {
  const m = mean(values);
  let sum = 0;
  for (let i = 0; i < values.length; i++) sum += (values[i]! - m) ** 2;
  return sum / (values.length - 1);
}

/** OLS of y on x with an intercept: [β̂0, β̂1]. */
export function simpleRegression(x: ArrayLike<number>, y: ArrayLike<number>): [number, number] {
  const mx = mean(x);
  const my = mean(y);
  let sxy = 0;
  let sxx = 0;
  for (let i = 0; i < x.length; i++) {
    sxy += (x[i]! - mx) * (y[i]! - my);
    sxx += (x[i]! - mx) ** 2;
  }
  const slope = sxy / sxx;
  return [my - slope * mx, slope];
}

/** Rounds for printing (keeps JSON short). */
export function round(value: number, digits = 6): number {
  return Number(value.toPrecision(digits));
}
