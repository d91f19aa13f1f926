// Bowen & Liu (DIPS comparative study) simulation study 4, reduced: the SLOMAG model (§4.3.2), synthesized
// by `dp-sequential-regression` (the model it implements) and by `modips` with the general location
// model (the paper's misspecified comparison). Prints ONE JSON object.
//
// Data, as in the paper: z ~ N₂(0, [[1, ½], [½, 1]]) truncated to [−4, 4]², W1 | z ~ Bern(π₁) with
// logit π₁ = (1, z₁, z₂)β₁, W2 | z, W1 ~ Bern(π₂) with logit π₂ = (1, z₁, z₂, W1)β₂, W3 | z, W1, W2
// multinomial with log-odds (1, z₁, z₂, W1, W2)β₃ and β₄ against level 1; β₁ = (−1, 0.5, −1),
// β₂ = (−2, −1, 1.5, 0.5), β₃ = (0, −2.5, 1, 0.5, 0.4), β₄ = (0.1, −1, −0.5, 0, 1.5); n = 1000 (or N).
// Bounds [−4, 4] and the categories are declared. Each method releases 5 datasets at ε (its own split
// of ε/5 per release); `dp-sequential-regression` with λ = LAMBDA (public), `modips` glom with its
// defaults. Estimands, combined over the 5 releases by eqs. 9–11 (src/core/inference): μ₁, μ₂ (true 0),
// P(W1 = 1) and P(W3 = 3) (true values from 10⁶ draws of the model with a fixed seed) and the logistic
// coefficients of W1 on z₁ and z₂ (true β₁). Reported per ε and method: bias, RMSE, coverage and mean
// width of the 95% interval, and the median error (robust to the diverging fits of near-separated
// synthetic data); `original` is the same estimand on the real data (its own interval).
// Env: DIPS_BENCH_REPS (default 200), DIPS_BENCH_SEED (default 2024), DIPS_BENCH_LAMBDA (default 0.01),
// DIPS_BENCH_N (rows, default 1000, the paper's), DIPS_BENCH_METHODS (comma-separated, default both).
import { performance } from 'node:perf_hooks';
import { parseEstimand, type Estimand } from '../src/core/inference/estimand';
import { estimateOnRealTable, inferFromReleases } from '../src/core/inference/release-inference';
import { dpSequentialRegression } from '../src/core/mechanisms/dp-sequential-regression';
import { modips } from '../src/core/mechanisms/modips';
import { resolveParams } from '../src/core/mechanisms/params';
import type { Mechanism, ParamValues } from '../src/core/mechanisms/types';
import { makeNormalSampler } from '../src/core/rng/continuous';
import { SeededRng } from '../src/core/rng/seeded-rng';
import type { Rng } from '../src/core/rng/types';
import type { CategoricalColumn, Schema, Table } from '../src/core/table/types';

const REPS = Number(process.env.DIPS_BENCH_REPS ?? 200);
const SEED = Number(process.env.DIPS_BENCH_SEED ?? 2024);
const LAMBDA = Number(process.env.DIPS_BENCH_LAMBDA ?? 0.01);
const N = Number(process.env.DIPS_BENCH_N ?? 1000);
const RELEASES = 5;
const LOG_EPSILONS = [-1, 0, 1, 2, 3, 4];
const BETA1 = [-1, 0.5, -1];
const BETA2 = [-2, -1, 1.5, 0.5];
const BETA3 = [0, -2.5, 1, 0.5, 0.4];
const BETA4 = [0.1, -1, -0.5, 0, 1.5];

const dot = (beta: number[], x: number[]) => beta.reduce((s, b, j) => s + b * x[j]!, 0);
const logistic = (s: number) => 1 / (1 + Math.exp(-s));

/** n rows of the SLOMAG model: z₁, z₂ and the level indices of W1, W2 (0, 1) and W3 (0, 1, 2). */
function slomagRows(rng: Rng, n: number): { z1: Float64Array; z2: Float64Array; w: Uint32Array[] } {
  const normal = makeNormalSampler(rng);
  const z1 = new Float64Array(n);
  const z2 = new Float64Array(n);
  const w = [new Uint32Array(n), new Uint32Array(n), new Uint32Array(n)];
  for (let i = 0; i < n; i++) {
    let a: number;
    let b: number;
    do {
      a = normal(0, 1);
      b = 0.5 * a + Math.sqrt(0.75) * normal(0, 1);
    } while (Math.abs(a) > 4 || Math.abs(b) > 4);
    z1[i] = a;
    z2[i] = b;
    const w1 = rng.nextFloat() < logistic(dot(BETA1, [1, a, b])) ? 1 : 0;
    const w2 = rng.nextFloat() < logistic(dot(BETA2, [1, a, b, w1])) ? 1 : 0;
    const x = [1, a, b, w1, w2];
    const [A, B] = [Math.exp(dot(BETA3, x)), Math.exp(dot(BETA4, x))];
    const u = rng.nextFloat() * (1 + A + B);
    w[0]![i] = w1;
    w[1]![i] = w2;
    w[2]![i] = u < 1 ? 0 : u < 1 + A ? 1 : 2;
  }
  return { z1, z2, w };
}

const LEVELS = [
  ['0', '1'],
  ['0', '1'],
  ['1', '2', '3'],
];
const SCHEMA: Schema = {
  version: 1,
  missing: [''],
  columns: [
    { name: 'z1', type: 'numeric', bounds: [-4, 4], source: 'declared' },
    { name: 'z2', type: 'numeric', bounds: [-4, 4], source: 'declared' },
    ...['w1', 'w2', 'w3'].map((name, j) => ({
      name,
      type: 'categorical' as const,
      categories: LEVELS[j]!,
      source: 'declared' as const,
    })),
  ],
};

function slomagTable(rng: Rng): Table {
  const { z1, z2, w } = slomagRows(rng, N);
  const categorical = (j: number): CategoricalColumn => ({
    kind: 'categorical',
    name: `w${j + 1}`,
    codes: w[j]!,
    dictionary: LEVELS[j]!,
    missing: new Uint8Array(N),
  });
  return {
    nRows: N,
    columns: [
      { kind: 'numeric', name: 'z1', values: z1, missing: new Uint8Array(N) },
      { kind: 'numeric', name: 'z2', values: z2, missing: new Uint8Array(N) },
      categorical(0),
      categorical(1),
      categorical(2),
    ],
  };
}

const COLUMNS = SCHEMA.columns.map((c) => c.name);
const ESTIMANDS: { name: string; estimand: Estimand; terms: string[] }[] = [
  { name: 'mu1', estimand: parseEstimand('mean:z1', COLUMNS), terms: ['mean:z1'] },
  { name: 'mu2', estimand: parseEstimand('mean:z2', COLUMNS), terms: ['mean:z2'] },
  { name: 'pW1', estimand: parseEstimand('proportion:w1=1', COLUMNS), terms: ['proportion:w1=1'] },
  { name: 'pW3', estimand: parseEstimand('proportion:w3=3', COLUMNS), terms: ['proportion:w3=3'] },
  { name: 'beta1', estimand: parseEstimand('coef:w1~z1+z2', COLUMNS), terms: ['(Intercept)', 'z1', 'z2'] },
];

/** True P(W1 = 1) and P(W3 = 3) from 10⁶ draws of the model (fixed seed: the same in every run). */
function trueProportions(): { pW1: number; pW3: number } {
  const { w } = slomagRows(new SeededRng(1), 1_000_000);
  const share = (levels: Uint32Array, level: number) =>
    levels.filter((v) => v === level).length / levels.length;
  return { pW1: share(w[0]!, 1), pW3: share(w[2]!, 2) };
}

interface Accumulator {
  errors: number[];
  bias: number;
  squares: number;
  covered: number;
  width: number;
  count: number;
}
const empty = (): Accumulator => ({ errors: [], bias: 0, squares: 0, covered: 0, width: 0, count: 0 });
const round = (x: number) => Number(x.toPrecision(4));

function add(acc: Accumulator, estimate: number, ci: [number, number], truth: number): void {
  acc.errors.push(estimate - truth);
  acc.bias += estimate - truth;
  acc.squares += (estimate - truth) ** 2;
  if (ci[0] <= truth && truth <= ci[1]) acc.covered++;
  acc.width += ci[1] - ci[0];
  acc.count++;
}

function summary(acc: Accumulator): Record<string, number> {
  const k = acc.count;
  const sorted = acc.errors.slice().sort((a, b) => a - b);
  const median = k % 2 === 1 ? sorted[(k - 1) / 2]! : (sorted[k / 2 - 1]! + sorted[k / 2]!) / 2;
  return {
    bias: round(acc.bias / k),
    medianError: round(median),
    rmse: round(Math.sqrt(acc.squares / k)),
    coverage: round(acc.covered / k),
    width: round(acc.width / k),
    estimable: k,
  };
}

const METHODS: Record<string, { mechanism: Mechanism; params: ParamValues }> = {
  'dp-sequential-regression': {
    mechanism: dpSequentialRegression,
    params: resolveParams(dpSequentialRegression, { lambda: LAMBDA }),
  },
  'modips-glom': { mechanism: modips, params: resolveParams(modips, { model: 'glom' }) },
};
const CHOSEN = (process.env.DIPS_BENCH_METHODS ?? Object.keys(METHODS).join(',')).split(',');

async function main(): Promise<void> {
  const started = performance.now();
  const truths = {
    mu1: [0],
    mu2: [0],
    ...Object.fromEntries(Object.entries(trueProportions()).map(([k, v]) => [k, [v]])),
    beta1: BETA1,
  } as Record<string, number[]>;
  const rng = new SeededRng(SEED);
  const data = Array.from({ length: REPS }, () => slomagTable(rng));
  const key = (estimand: string, term: string) => `${estimand}:${term}`;
  const results: Record<string, Record<string, Record<string, Record<string, number>>>> = { original: {} };
  const original: Record<string, Accumulator> = {};
  for (const table of data) {
    for (const { name, estimand, terms } of ESTIMANDS) {
      estimateOnRealTable(table, estimand).forEach((real, j) => {
        const k = key(name, terms[j]!);
        original[k] ??= empty();
        add(original[k], real.estimate, real.ci, truths[name]![j]!);
      });
    }
  }
  results.original!['real data'] = Object.fromEntries(
    Object.entries(original).map(([k, acc]) => [k, summary(acc)]),
  );
  for (const [method, { mechanism, params }] of Object.entries(METHODS).filter(([name]) =>
    CHOSEN.includes(name),
  )) {
    results[method] = {};
    for (const logEpsilon of LOG_EPSILONS) {
      const epsilon = Math.exp(logEpsilon).toPrecision(12);
      const accumulators: Record<string, Accumulator> = {};
      for (const table of data) {
        const release = await mechanism.run(table, SCHEMA, params, {
          n: N,
          schema: SCHEMA,
          epsilon,
          delta: 0,
          releases: RELEASES,
          seeded: true,
          rng,
          progress: () => {},
          signal: { aborted: false },
        });
        for (const { name, estimand, terms } of ESTIMANDS) {
          let combined;
          try {
            combined = inferFromReleases(release.datasets, estimand);
          } catch {
            continue; // a release the estimand cannot use (e.g. W1 constant): counted as not estimable
          }
          combined.parameters.forEach((parameter, j) => {
            const k = key(name, terms[j]!);
            accumulators[k] ??= empty();
            add(accumulators[k], parameter.estimate, parameter.ci, truths[name]![j]!);
          });
        }
      }
      results[method]![`e^${logEpsilon}`] = Object.fromEntries(
        Object.entries(accumulators).map(([k, acc]) => [k, summary(acc)]),
      );
    }
  }
  console.log(
    JSON.stringify({
      bench: 'dips-study-4',
      repetitions: REPS,
      releases: RELEASES,
      n: N,
      lambda: LAMBDA,
      seed: SEED,
      truths,
      seconds: round((performance.now() - started) / 1000),
      results,
    }),
  );
}

void main();
