// Bowen & Liu (DIPS comparative study) simulation study 1, reduced: inference on a proportion π
// from synthetic binary data. Prints ONE JSON object.
//
// Scenarios: n ∈ {40, 100, 1000} × π ∈ {0.1, 0.25, 0.5} × ε ∈ {e^−4, …, e^4}; REPS repetitions each
// (default 500; the paper used 5,000). Data: n1 ~ Binomial(n, π) ones. Methods, as in §4.1:
// - multinomial-dirichlet: 5 releases at ε/5, α = n/(e^(ε/5) − 1) per cell, the exact urn;
// - binomial-beta-mr: 1 release at ε, α = 1/(e^(ε/n) − 1), rows independent;
// - modips: 5 releases at ε/5: n1* = n1 + discrete Laplace(5/ε) (sensitivity 1: n is public, the
//   count of ones moves by at most 1 when a row is replaced), clamped to [0, n] (boundary inflated
//   truncation), π* ~ Beta(1/3 + n1*, 1/3 + n − n1*), the release ~ Binomial(n, π*);
// - laplace-sanitizer: 5 releases at ε/5 with round(n1*) ones, n1* as for modips (the paper's method);
// - laplace-histogram and smoothed-histogram: the registered mechanisms on a one-column table
//   (categories 0 and 1, plus the missing-value cell every mechanism here has), 5 releases and 1.
// The first three use the core functions of the mechanisms on the paper's two-cell domain; the
// registered multinomial-dirichlet and binomial-beta-mr add a missing-value cell, which the paper's
// data do not have.
// Per release: p̂_j and v_j = p̂_j(1 − p̂_j)/m_j over its m_j present values (m_j = n on the paper's
// two-cell domain; the registered mechanisms also draw missing values, which are neither 0 nor 1);
// releases combined by eqs. 9–11 (a single release: the Wald interval p̂ ± 1.96·√v). Reported per
// scenario and method: bias and RMSE of the estimate, coverage and mean width of the 95% interval,
// and `estimable`, the repetitions in which every release had a present value.
// Env: DIPS_BENCH_REPS (default 500), DIPS_BENCH_SEED (default 2020).
import { performance } from 'node:perf_hooks';
import { combineSyntheticReleases } from '../src/core/inference/combining-rules';
import { laplaceHistogram } from '../src/core/mechanisms/laplace-histogram';
import { smoothedHistogram } from '../src/core/mechanisms/smoothed-histogram';
import { mcclureReiterPrior, multinomialDirichletPrior } from '../src/core/privacy/dirichlet-prior';
import { makeCountNoiseSampler } from '../src/core/privacy/metered/testing';
import { drawFromPriorAndBalls } from '../src/core/rng/polya-urn';
import { resolveParams } from '../src/core/mechanisms/params';
import type { Mechanism } from '../src/core/mechanisms/types';
import { sampleBeta, sampleBinomial } from '../src/core/rng/continuous';
import { parseRational, Rational } from '../src/core/rng/rational';
import { SeededRng } from '../src/core/rng/seeded-rng';
import type { Rng } from '../src/core/rng/types';
import type { CategoricalColumn, Schema, Table } from '../src/core/table/types';

const REPS = Number(process.env.DIPS_BENCH_REPS ?? 500);
const SEED = Number(process.env.DIPS_BENCH_SEED ?? 2020);
const RELEASES = 5;
const NS = [40, 100, 1000];
const PIS = [0.1, 0.25, 0.5];
const LOG_EPSILONS = [-4, -3, -2, -1, 0, 1, 2, 3, 4];
const Z = 1.959963984540054;

/** One synthetic release: its ones and its present (non-missing) values. */
interface Counted {
  ones: number;
  present: number;
}

type Method = (rng: Rng, n: number, n1: number, epsilon: Rational) => Promise<Counted[]>;

/** A release of the paper's two-cell domain: every value present. */
const allPresent =
  (n: number) =>
  (ones: number): Counted => ({ ones, present: n });

/** Ones in each release. */
const multinomialDirichlet: Method = async (rng, n, n1, epsilon) => {
  const prior = multinomialDirichletPrior(n, epsilon.div(Rational.of(RELEASES)));
  return Array.from({ length: RELEASES }, () => {
    const cells = drawFromPriorAndBalls(rng, {
      domainCells: 2,
      prior,
      balls: { cells: [0, 1], counts: [n - n1, n1] },
      draws: n,
      reinforce: true,
    });
    return cells.reduce((a, c) => a + c, 0);
  }).map(allPresent(n));
};

const mcclureReiter: Method = async (rng, n, n1, epsilon) => {
  const prior = mcclureReiterPrior(n, epsilon);
  const cells = drawFromPriorAndBalls(rng, {
    domainCells: 2,
    prior,
    balls: { cells: [0, 1], counts: [n - n1, n1] },
    draws: n,
    reinforce: false,
  });
  return [cells.reduce((a, c) => a + c, 0)].map(allPresent(n));
};

function noisyCount(rng: Rng, n: number, n1: number, epsilon: Rational): number {
  return Math.min(n, Math.max(0, n1 + makeCountNoiseSampler(epsilon.div(Rational.of(RELEASES)), 1)(rng)));
}

const modips: Method = async (rng, n, n1, epsilon) =>
  Array.from({ length: RELEASES }, () => {
    const noisy = noisyCount(rng, n, n1, epsilon);
    return sampleBinomial(rng, n, sampleBeta(rng, 1 / 3 + noisy, 1 / 3 + n - noisy));
  }).map(allPresent(n));

const laplaceSanitizer: Method = async (rng, n, n1, epsilon) =>
  Array.from({ length: RELEASES }, () => noisyCount(rng, n, n1, epsilon)).map(allPresent(n));

const SCHEMA: Schema = {
  version: 1,
  missing: [''],
  columns: [{ name: 'x', type: 'categorical', categories: ['0', '1'], source: 'declared' }],
};

function binaryTable(n: number, n1: number): Table {
  const codes = new Uint32Array(n);
  codes.fill(1, 0, n1);
  return {
    nRows: n,
    columns: [{ kind: 'categorical', name: 'x', codes, dictionary: ['0', '1'], missing: new Uint8Array(n) }],
  };
}

function registered(mechanism: Mechanism, releases: number): Method {
  const params = resolveParams(mechanism, {});
  return async (rng, n, n1, epsilon) => {
    const release = await mechanism.run(binaryTable(n, n1), SCHEMA, params, {
      n,
      schema: SCHEMA,
      epsilon: epsilon.toString(),
      delta: 0,
      releases,
      seeded: true,
      rng,
      progress: () => {},
      signal: { aborted: false },
    });
    // A synthetic missing value is neither 0 nor 1: p̂ is the share of ones among present values.
    return release.datasets.map((table) => {
      const column = table.columns[0] as CategoricalColumn;
      let ones = 0;
      let present = 0;
      for (let i = 0; i < n; i++) {
        if (column.missing[i] === 1) continue;
        present++;
        if (column.codes[i] === 1) ones++;
      }
      return { ones, present };
    });
  };
}

const METHODS: Record<string, Method> = {
  'multinomial-dirichlet': multinomialDirichlet,
  'binomial-beta-mr': mcclureReiter,
  modips,
  'laplace-sanitizer': laplaceSanitizer,
  'laplace-histogram': registered(laplaceHistogram, RELEASES),
  'smoothed-histogram': registered(smoothedHistogram, 1),
};

interface Summary {
  bias: number;
  rmse: number;
  coverage: number;
  width: number;
  /** Repetitions in which every release had a present value. */
  estimable: number;
}

/** p̂_j = ones/present and v_j = p̂_j(1 − p̂_j)/present per release, combined by eqs. 9–11. */
function interval(releases: Counted[]): { estimate: number; lo: number; hi: number } {
  const p = releases.map((r) => r.ones / r.present);
  const se = p.map((x, j) => Math.sqrt((x * (1 - x)) / releases[j]!.present));
  if (p.length === 1) return { estimate: p[0]!, lo: p[0]! - Z * se[0]!, hi: p[0]! + Z * se[0]! };
  const c = combineSyntheticReleases(p, se);
  return { estimate: c.estimate, lo: c.ciLower, hi: c.ciUpper };
}

const round = (x: number) => Number(x.toPrecision(4));

async function main(): Promise<void> {
  const started = performance.now();
  const rng = new SeededRng(SEED);
  const scenarios: unknown[] = [];
  for (const n of NS) {
    for (const pi of PIS) {
      const byMethod: Record<string, Record<string, Summary>> = {};
      const data = Array.from({ length: REPS }, () => sampleBinomial(rng, n, pi));
      for (const [name, method] of Object.entries(METHODS)) {
        byMethod[name] = {};
        for (const logEpsilon of LOG_EPSILONS) {
          // ε = e^k as an exact decimal of 12 significant digits.
          const epsilon = parseRational(Math.exp(logEpsilon).toPrecision(12));
          let bias = 0;
          let squares = 0;
          let covered = 0;
          let width = 0;
          let estimable = 0;
          for (const n1 of data) {
            const releases = await method(rng, n, n1, epsilon);
            // A release with no present value (histograms at tiny ε put every row in the missing
            // cell now and then) gives no estimate; the repetition is left out and counted.
            if (releases.some((r) => r.present === 0)) continue;
            const { estimate, lo, hi } = interval(releases);
            estimable++;
            bias += estimate - pi;
            squares += (estimate - pi) ** 2;
            if (lo <= pi && pi <= hi) covered++;
            width += hi - lo;
          }
          byMethod[name]![`e^${logEpsilon}`] = {
            bias: round(bias / estimable),
            rmse: round(Math.sqrt(squares / estimable)),
            coverage: round(covered / estimable),
            width: round(width / estimable),
            estimable,
          };
        }
      }
      scenarios.push({ n, pi, methods: byMethod });
    }
  }
  console.log(
    JSON.stringify({
      bench: 'dips-study-1',
      repetitions: REPS,
      releases: RELEASES,
      seed: SEED,
      seconds: round((performance.now() - started) / 1000),
      scenarios,
    }),
  );
}

void main();
