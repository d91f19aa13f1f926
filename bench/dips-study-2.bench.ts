// Bowen & Liu (DIPS comparative study) simulation study 2, reduced: inference on μ and σ² from
// synthetic continuous data. Prints ONE JSON object.
//
// Scenarios: n ∈ {20, 100, 1000} × σ² ∈ {1, 4, 9} × ε ∈ {e^−4, …, e^4}, μ = 0; REPS repetitions each
// (default 500; the paper used 5,000). Data: N(0, σ²) truncated to the public bounds [−3σ, 4σ]
// (asymmetric, as in the paper). Methods, as in §4.2:
// - modips (normal model): 5 releases at ε/5, each halved between x̄ and S² (the paper's split; no
//   missing values, so no missing count), grid noise, boundary inflated truncation, inverse-gamma and
//   normal posterior draws, values clamped to the bounds — the core functions of `modips`;
// - laplace-histogram (perturbed histogram): the registered mechanism, 5 releases at ε/5, Scott's
//   rule from the public range (the paper used the data's SD, which is not private);
// - smoothed-histogram: the registered mechanism, 1 release.
// Per release j: x̄_j with v = s²_j/n; s²_j with v = (s²_j)²(2/(n − 1) + κ_j/n), κ_j the sample excess
// kurtosis; combined by eqs. 9–11 (one release: a normal interval). `estimable` counts the
// repetitions in which every release had at least two present values. σ² results are scaled by σ²
// (relative bias, scaled RMSE and width), as in the paper's figures.
// Env: DIPS_BENCH_REPS (default 500), DIPS_BENCH_SEED (default 2021).
import { performance } from 'node:perf_hooks';
import { combineSyntheticReleases } from '../src/core/inference/combining-rules';
import { laplaceHistogram } from '../src/core/mechanisms/laplace-histogram';
import { smoothedHistogram } from '../src/core/mechanisms/smoothed-histogram';
import {
  drawNormalColumn,
  drawNormalPosterior,
  normalSensitivities,
  normalStatistics,
  sanitizeNormalStatistics,
} from '../src/core/mechanisms/modips/normal-model';
import { GRID_STEPS_PER_SENSITIVITY } from '../src/core/mechanisms/common/noisy-counts/grid-noise';
import { resolveParams } from '../src/core/mechanisms/params';
import type { Mechanism } from '../src/core/mechanisms/types';
import { sampleNormal } from '../src/core/rng/continuous';
import { parseRational, Rational } from '../src/core/rng/rational';
import { SeededRng } from '../src/core/rng/seeded-rng';
import type { Rng } from '../src/core/rng/types';
import type { NumericColumn, Schema, Table } from '../src/core/table/types';
import { recordingStep } from '../src/core/privacy/metered/testing';

const REPS = Number(process.env.DIPS_BENCH_REPS ?? 500);
const SEED = Number(process.env.DIPS_BENCH_SEED ?? 2021);
const RELEASES = 5;
const NS = [20, 100, 1000];
const VARIANCES = [1, 4, 9];
const LOG_EPSILONS = [-4, -3, -2, -1, 0, 1, 2, 3, 4];
const Z = 1.959963984540054;

type Method = (
  rng: Rng,
  values: Float64Array,
  lo: number,
  hi: number,
  epsilon: Rational,
) => Promise<Float64Array[]>;

function column(values: Float64Array): NumericColumn {
  return { kind: 'numeric', name: 'x', values, missing: new Uint8Array(values.length) };
}

const modips: Method = async (rng, values, lo, hi, epsilon) => {
  const n = values.length;
  const stats = normalStatistics(column(values), lo, hi);
  const half = epsilon.div(Rational.of(2 * RELEASES));
  const floor = normalSensitivities(n, lo, hi).variance.toNumber() / GRID_STEPS_PER_SENSITIVITY;
  return Array.from({ length: RELEASES }, () => {
    const sanitized = sanitizeNormalStatistics(rng, stats, n, lo, hi, {
      missing: null,
      mean: { epsilon: half, step: recordingStep('approx-dp') },
      variance: { epsilon: half, step: recordingStep('approx-dp') },
    });
    const parameters = drawNormalPosterior(rng, sanitized, n, lo, hi, floor);
    return drawNormalColumn(rng, 'x', parameters, n, 0, lo, hi, false).values;
  });
};

function registered(mechanism: Mechanism, releases: number): Method {
  const params = resolveParams(mechanism, {});
  return async (rng, values, lo, hi, epsilon) => {
    const n = values.length;
    const schema: Schema = {
      version: 1,
      missing: [''],
      columns: [{ name: 'x', type: 'numeric', bounds: [lo, hi], source: 'declared' }],
    };
    const table: Table = { nRows: n, columns: [column(values)] };
    const release = await mechanism.run(table, schema, params, {
      n,
      schema,
      epsilon: epsilon.toString(),
      delta: 0,
      releases,
      seeded: true,
      rng,
      progress: () => {},
      signal: { aborted: false },
    });
    // Synthetic missing values (from the missing-value cell) are left out of the estimates.
    return release.datasets.map((t) => {
      const c = t.columns[0] as NumericColumn;
      return Float64Array.from(c.values.filter((_, i) => c.missing[i] === 0));
    });
  };
}

const METHODS: Record<string, Method> = {
  modips,
  'laplace-histogram': registered(laplaceHistogram, RELEASES),
  'smoothed-histogram': registered(smoothedHistogram, 1),
};

/** Sample mean, variance (n − 1) and excess kurtosis m4/m2² − 3 of one release. */
function moments(values: Float64Array): { mean: number; variance: number; kurtosis: number; n: number } {
  const n = values.length;
  let mean = 0;
  for (const v of values) mean += v / n;
  let m2 = 0;
  let m4 = 0;
  for (const v of values) {
    m2 += (v - mean) ** 2 / n;
    m4 += (v - mean) ** 4 / n;
  }
  return { mean, variance: (m2 * n) / (n - 1), kurtosis: m2 > 0 ? m4 / m2 ** 2 - 3 : 0, n };
}

function combined(estimates: number[], ses: number[]): { estimate: number; lo: number; hi: number } {
  if (estimates.length === 1)
    return { estimate: estimates[0]!, lo: estimates[0]! - Z * ses[0]!, hi: estimates[0]! + Z * ses[0]! };
  const c = combineSyntheticReleases(estimates, ses);
  return { estimate: c.estimate, lo: c.ciLower, hi: c.ciUpper };
}

interface Accumulator {
  bias: number;
  squares: number;
  covered: number;
  width: number;
  count: number;
}
const empty = (): Accumulator => ({ bias: 0, squares: 0, covered: 0, width: 0, count: 0 });
function add(acc: Accumulator, r: { estimate: number; lo: number; hi: number }, truth: number): void {
  acc.count++;
  acc.bias += r.estimate - truth;
  acc.squares += (r.estimate - truth) ** 2;
  if (r.lo <= truth && truth <= r.hi) acc.covered++;
  acc.width += r.hi - r.lo;
}
const round = (x: number) => Number(x.toPrecision(4));
function summary(acc: Accumulator, scale: number) {
  const k = acc.count;
  return {
    bias: round(acc.bias / k / scale),
    rmse: round(Math.sqrt(acc.squares / k) / scale),
    coverage: round(acc.covered / k),
    width: round(acc.width / k / scale),
    estimable: k,
  };
}

function truncatedNormalSample(rng: Rng, n: number, sd: number, lo: number, hi: number): Float64Array {
  const values = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let v = sampleNormal(rng, 0, sd);
    while (v < lo || v > hi) v = sampleNormal(rng, 0, sd);
    values[i] = v;
  }
  return values;
}

async function main(): Promise<void> {
  const started = performance.now();
  const rng = new SeededRng(SEED);
  const scenarios: unknown[] = [];
  for (const n of NS) {
    for (const variance of VARIANCES) {
      const sd = Math.sqrt(variance);
      const lo = -3 * sd;
      const hi = 4 * sd;
      const data = Array.from({ length: REPS }, () => truncatedNormalSample(rng, n, sd, lo, hi));
      const methods: Record<string, Record<string, unknown>> = {};
      for (const [name, method] of Object.entries(METHODS)) {
        methods[name] = {};
        for (const logEpsilon of LOG_EPSILONS) {
          const epsilon = parseRational(Math.exp(logEpsilon).toPrecision(12));
          const mu = empty();
          const sigma2 = empty();
          for (const values of data) {
            const releases = (await method(rng, values, lo, hi, epsilon)).map(moments);
            // A release with fewer than two present values (histograms at tiny ε, n = 20) gives no
            // estimate; the repetition is left out and counted in `estimable`.
            if (releases.some((m) => m.n < 2)) continue;
            add(
              mu,
              combined(
                releases.map((m) => m.mean),
                releases.map((m) => Math.sqrt(m.variance / m.n)),
              ),
              0,
            );
            add(
              sigma2,
              combined(
                releases.map((m) => m.variance),
                releases.map((m) => m.variance * Math.sqrt(Math.max(0, 2 / (m.n - 1) + m.kurtosis / m.n))),
              ),
              variance,
            );
          }
          methods[name]![`e^${logEpsilon}`] = { mu: summary(mu, 1), sigma2: summary(sigma2, variance) };
        }
      }
      scenarios.push({ n, variance, bounds: [lo, hi], methods });
    }
  }
  console.log(
    JSON.stringify({
      bench: 'dips-study-2',
      repetitions: REPS,
      releases: RELEASES,
      seed: SEED,
      seconds: round((performance.now() - started) / 1000),
      scenarios,
    }),
  );
}

void main();
