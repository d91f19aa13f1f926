// The pMSE mechanism at its defaults, as a new user runs it: the paper's design (n = 5,000,
// X1 ~ N(2, 10), X2 ~ N(−2.5 + 0.5·x1, 3)), ε = 1, one release, every parameter at its default.
// Each run draws fresh data and uses a fresh cryptographic generator, and calls the mechanism's
// run() on one thread, as `npm run dpsynth -- synth` does. Prints one JSON object.
//
// Per run: the pMSE with synthpop's utility.gen tree (rpart, cp 0.001, minbucket 5, minsplit 15,
// depth 30) of the release and of one non-DP dataset from the true model on the same real data
// (their ratio; the non-DP value is the mean over 5 datasets, as one varies by a factor of 3), the mean 1- and 2-way TVD (10 equal-width bins, as the studio and CLI report), the
// largest split-R̂ of the chains and the run's seconds. The goal checked: mean pMSE ratio ≤ 3,
// 2-way TVD ≤ 0.15 in every run, no R̂ above 1.1, every run under 60 s.
//
//   npx tsx bench/pmse-mechanism-defaults.bench.ts [--runs=10] [--epsilon=1] [--releases=1]
//                                                  [--params=treeDepth=5,burnIn=2000]
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { SYNTHPOP_CART_DEFAULTS } from '../src/core/models/cart/cart-types';
import { makeCartPmseEvaluator } from '../src/core/metrics/pmse-cart-evaluator';
import { tvdKWay } from '../src/core/metrics/tvd';
import { resolveParams } from '../src/core/mechanisms/params';
import { pmseMechanism } from '../src/core/mechanisms/pmse-mechanism';
import type {
  PmseDataHolderDiagnostics,
  PmseDiagnostics,
} from '../src/core/mechanisms/pmse-mechanism/diagnostics';
import { RHAT_WARNING_THRESHOLD } from '../src/core/mcmc/rhat';
import type { RunContext } from '../src/core/mechanisms/types';
import { CryptoRng } from '../src/core/rng';
import type { NumericColumn, Table } from '../src/core/table/types';
import {
  cliInteger,
  cliOption,
  mean,
  PAPER_N,
  paperTable,
  round,
  simulatePaperData,
  UNBOUNDED_SCHEMA,
} from './pmse-mechanism-paper-setup';

const GOAL = { pmseRatio: 3, twoWayTvd: 0.15, seconds: 60 };
/** Non-DP datasets from the true model per run: their mean pMSE is the run's reference. */
const NON_DP_DATASETS = 5;

/** "a=1,b=x" → { a: '1', b: 'x' } (values as the CLI's --param gives them). */
function parseParams(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of text.split(',').filter((part) => part.trim() !== '')) {
    const [key, value] = pair.split('=');
    if (key === undefined || value === undefined) throw new Error(`--params: "${pair}" is not name=value`);
    out[key.trim()] = value.trim();
  }
  return out;
}

function numericValues(table: Table, index: number): Float64Array {
  return (table.columns[index] as NumericColumn).values;
}

/** pMSE of synthetic columns against the real ones with synthpop's utility.gen tree. */
function synthpopPmse(real: Float64Array[], synthetic: Float64Array[]): number {
  return makeCartPmseEvaluator(real, synthetic[0]!.length, SYNTHPOP_CART_DEFAULTS).evaluate(synthetic);
}

interface RunResult {
  pmse: number;
  nonDpPmse: number;
  pmseRatio: number;
  tvd1: number;
  tvd2: number;
  maxRhat: number;
  rhatWarnings: number;
  seconds: number;
  iterationsPerSecond: number;
  loadAverage: number;
  theta: number[];
  bound: string;
}

async function main(): Promise<void> {
  const runs = cliInteger('runs', 10);
  const epsilon = cliOption('epsilon', '1');
  const releases = cliInteger('releases', 1);
  const overrides = parseParams(cliOption('params', ''));
  const params = resolveParams(pmseMechanism, overrides);
  const perRun: RunResult[] = [];
  for (let run = 0; run < runs; run++) {
    const dataRng = new CryptoRng();
    const [x1, x2] = simulatePaperData(PAPER_N, dataRng);
    const real = paperTable(x1, x2);
    const context: RunContext = {
      n: PAPER_N,
      schema: UNBOUNDED_SCHEMA,
      epsilon,
      delta: 0,
      releases,
      seeded: false,
      rng: new CryptoRng(),
      progress: () => {},
      signal: { aborted: false },
    };
    const started = performance.now();
    const release = await pmseMechanism.run(real, UNBOUNDED_SCHEMA, params, context);
    const seconds = (performance.now() - started) / 1000;
    const diagnostics = release.diagnostics as unknown as PmseDiagnostics;
    const { mcmc } = release.dataHolderDiagnostics as unknown as PmseDataHolderDiagnostics;
    const nonDpPmse = mean(
      Array.from({ length: NON_DP_DATASETS }, () =>
        synthpopPmse([x1, x2], simulatePaperData(PAPER_N, dataRng)),
      ),
    );
    const pmse = mean(
      release.datasets.map((table) =>
        synthpopPmse([x1, x2], [numericValues(table, 0), numericValues(table, 1)]),
      ),
    );
    const tvd1 = mean(release.datasets.map((table) => tvdKWay(real, table, 1).mean));
    const tvd2 = mean(release.datasets.map((table) => tvdKWay(real, table, 2).mean));
    perRun.push({
      pmse: round(pmse),
      nonDpPmse: round(nonDpPmse),
      pmseRatio: round(pmse / nonDpPmse, 3),
      tvd1: round(tvd1, 4),
      tvd2: round(tvd2, 4),
      maxRhat: round(mcmc.maxRhat, 4),
      rhatWarnings: mcmc.warnings.filter((w) => w.startsWith('R̂')).length,
      seconds: round(seconds, 3),
      iterationsPerSecond: round(mean(mcmc.chains.map((chain) => chain.iterationsPerSecond)), 3),
      loadAverage: round(loadavg()[0]!, 3),
      theta: diagnostics.releasedParameters[0]!.map((value) => round(value, 3)),
      bound: release.claim.bound,
    });
    process.stderr.write(`run ${run + 1}/${runs}: ${JSON.stringify(perRun[perRun.length - 1])}\n`);
  }
  const column = (key: 'pmseRatio' | 'tvd2' | 'maxRhat' | 'seconds' | 'pmse' | 'nonDpPmse' | 'tvd1') =>
    perRun.map((r) => r[key]);
  const summary = {
    meanPmse: round(mean(column('pmse'))),
    meanNonDpPmse: round(mean(column('nonDpPmse'))),
    meanPmseRatio: round(mean(column('pmse')) / mean(column('nonDpPmse')), 3),
    maxPmseRatio: Math.max(...column('pmseRatio')),
    meanTvd1: round(mean(column('tvd1')), 4),
    meanTvd2: round(mean(column('tvd2')), 4),
    maxTvd2: Math.max(...column('tvd2')),
    maxRhat: Math.max(...column('maxRhat')),
    runsWithRhatWarning: perRun.filter((r) => r.rhatWarnings > 0).length,
    meanSeconds: round(mean(column('seconds')), 3),
    maxSeconds: Math.max(...column('seconds')),
  };
  const goalMet =
    summary.meanPmseRatio <= GOAL.pmseRatio &&
    summary.maxTvd2 <= GOAL.twoWayTvd &&
    summary.maxRhat <= RHAT_WARNING_THRESHOLD &&
    summary.maxSeconds < GOAL.seconds;
  console.log(
    JSON.stringify({
      bench: 'pmse-mechanism-defaults',
      design: 'n = 5000, X1 ~ N(2, 10), X2 ~ N(-2.5 + 0.5 x1, 3); fresh data and generators per run',
      epsilon: Number(epsilon),
      releases,
      params,
      runs,
      goal: { ...GOAL, maxRhat: RHAT_WARNING_THRESHOLD, met: goalMet },
      summary,
      perRun,
      loadAverage: loadavg().map((value) => round(value, 2)),
    }),
  );
}

void main();
