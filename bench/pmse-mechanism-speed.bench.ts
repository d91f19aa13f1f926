// Speed of the pMSE mechanism: MCMC iterations per second per worker (n = 5,000, 2 numeric columns,
// m = 1, unlimited depth, cp 0.01), heap growth per iteration (buffers are reused), and the wall
// time of a full run with 10 releases at ε = 1 with the default settings, on 2 worker threads and,
// as the reference measured in the same run, on one thread. Prints one JSON object.
//
//   npx tsx bench/pmse-mechanism-speed.bench.ts [--workers=2] [--iterations=1000]
import { loadavg } from 'node:os';
import { isMainThread, parentPort } from 'node:worker_threads';
import { Session } from 'node:inspector/promises';
import { performance } from 'node:perf_hooks';
import {
  finishPmseRun,
  makeChainRng,
  makePmseTarget,
  makeQualityEvaluator,
  planPmseRun,
  pmseMechanism,
  runChain,
  runPmseMechanism,
  type PmseChainResult,
  type PmseChainSpec,
} from '../src/core/mechanisms/pmse-mechanism';
import { pmseClaimAssumptions } from '../src/core/mechanisms/pmse-mechanism/claim';
import type { PmseDataHolderDiagnostics } from '../src/core/mechanisms/pmse-mechanism/diagnostics';
import { runAdaptiveMetropolis } from '../src/core/mcmc/adaptive-metropolis';
import { resolveParams } from '../src/core/mechanisms/params';
import type { RunContext } from '../src/core/mechanisms/types';
import { Accountant } from '../src/core/privacy/accountant';
import { parseBudget } from '../src/core/privacy/budget';
import { CryptoRng, SeededRng } from '../src/core/rng';
import {
  cliInteger,
  PAPER_N,
  paperTable,
  round,
  runInWorkers,
  simulatePaperData,
  TRUE_THETA,
  UNBOUNDED_SCHEMA,
} from './pmse-mechanism-paper-setup';
import { StageMeter } from '../src/core/privacy/meter';
import { parseRational } from '../src/core/rng/rational';
import { qualitySensitivity } from '../src/core/mechanisms/pmse-mechanism/target';

const RELEASES = 10;
const EPSILON = 1;

interface ChainTask {
  spec: PmseChainSpec;
  seed: string | null;
}

function context(rng: CryptoRng | SeededRng): RunContext {
  return {
    n: PAPER_N,
    schema: UNBOUNDED_SCHEMA,
    epsilon: EPSILON,
    delta: 0,
    releases: RELEASES,
    seeded: rng.seeded,
    rng,
    progress: () => {},
    signal: { aborted: false },
  };
}

/** The paper's setting for the speed figures: unlimited depth, cp 0.01 (the mechanism's default is depth 1). */
const PAPER_TREE = { treeDepth: 'unlimited', cp: 0.01 };

const table = () => paperTable(...simulatePaperData(PAPER_N, new SeededRng('speed-data')));

/** One chain of `iterations` iterations with the paper's tree, timed. */
function iterationsPerSecond(iterations: number, seed: string): number {
  const params = resolveParams(pmseMechanism, {
    ...PAPER_TREE,
    burnIn: Math.floor(iterations / 4),
    steps: iterations - Math.floor(iterations / 4),
  });
  const rng = new SeededRng(seed);
  const plan = planPmseRun(
    table(),
    UNBOUNDED_SCHEMA,
    params,
    { ...context(rng), releases: 1 },
    rng,
    new Accountant(parseBudget(EPSILON)),
  );
  const started = performance.now();
  runChain(plan.chainSpecs[0]!, makeChainRng(plan, 0), new StageMeter());
  return iterations / ((performance.now() - started) / 1000);
}

interface SamplingNode {
  callFrame: { url: string };
  selfSize: number;
  children: SamplingNode[];
}

/**
 * Bytes allocated per call of `call`, by source file, from V8's sampling heap profiler with the
 * objects collected by minor and major collections included (so short-lived garbage counts).
 * Sampling every 128 bytes on average gives an unbiased estimate of the allocated volume.
 */
async function allocatedBytesPerCall(
  calls: number,
  call: () => void,
): Promise<{ total: number; byFile: Record<string, number> }> {
  for (let i = 0; i < 50; i++) call();
  const session = new Session();
  session.connect();
  await session.post('HeapProfiler.enable');
  await session.post('HeapProfiler.startSampling', {
    samplingInterval: 128,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
  for (let i = 0; i < calls; i++) call();
  const { profile } = (await session.post('HeapProfiler.stopSampling')) as {
    profile: { head: SamplingNode };
  };
  session.disconnect();
  const byFile: Record<string, number> = {};
  const walk = (node: SamplingNode) => {
    const file = node.callFrame.url.split('/').slice(-2).join('/') || '(runtime)';
    if (node.selfSize > 0) byFile[file] = (byFile[file] ?? 0) + node.selfSize / calls;
    node.children.forEach(walk);
  };
  walk(profile.head);
  const rounded = Object.fromEntries(
    Object.entries(byFile)
      .filter(([, bytes]) => bytes >= 1)
      .sort((a, b) => b[1] - a[1])
      .map(([file, bytes]) => [file, round(bytes, 3)]),
  );
  return {
    total: round(
      Object.values(byFile).reduce((sum, bytes) => sum + bytes, 0),
      4,
    ),
    byFile: rounded,
  };
}

async function allocationChecks() {
  const rng = new SeededRng('speed-allocation');
  const params = resolveParams(pmseMechanism, PAPER_TREE);
  const plan = planPmseRun(
    table(),
    UNBOUNDED_SCHEMA,
    params,
    context(rng),
    rng,
    new Accountant(parseBudget(EPSILON)),
  );
  const spec = plan.chainSpecs[0]!;
  const weight = parseRational(spec.epsilon).toNumberDown() / (2 * qualitySensitivity(spec.quality, spec.n));
  const target = makePmseTarget(spec, (u) => -weight * u, makeQualityEvaluator);
  const theta = Float64Array.from(TRUE_THETA);
  const qualityEvaluation = await allocatedBytesPerCall(500, () => target.logWeight(theta));
  // The sampler's own bookkeeping, on a cheap target: bytes per iteration over 200,000 iterations.
  const gaussian = {
    dimension: 5,
    logWeight: (t: Float64Array) => -0.5 * (t[0]! ** 2 + t[1]! ** 2 + t[2]! ** 2 + t[3]! ** 2 + t[4]! ** 2),
  };
  const normal = () =>
    Math.sqrt(-2 * Math.log(1 - rng.nextFloat())) * Math.cos(2 * Math.PI * rng.nextFloat());
  const settings = { initialScales: [1, 1, 1, 1, 1], drawAt: [], traceLimit: 1000 };
  const start = new Float64Array(5);
  const sampler = await allocatedBytesPerCall(1, () =>
    runAdaptiveMetropolis(gaussian, start, { ...settings, burnIn: 100_000, steps: 100_000 }, rng, normal),
  );
  return {
    note: 'bytes allocated per call by source file (V8 sampling heap profiler, garbage included)',
    perQualityEvaluation: qualityEvaluation,
    perSamplerIteration: {
      total: round(sampler.total / 200_000, 4),
      bytesOfTheWholeRunByFile: sampler.byFile,
    },
  };
}

async function fullRunOnWorkers(workers: number) {
  const rng = new CryptoRng();
  const accountant = new Accountant(parseBudget(EPSILON));
  const params = resolveParams(pmseMechanism, PAPER_TREE);
  const started = performance.now();
  const ctx = context(rng);
  const plan = planPmseRun(table(), UNBOUNDED_SCHEMA, params, ctx, rng, accountant);
  const results = await runInWorkers<ChainTask, PmseChainResult>(
    import.meta.url,
    plan.chainSpecs.map((spec, c) => ({ spec, seed: plan.chainSeeds[c] ?? null })),
    workers,
  );
  const release = finishPmseRun(
    plan,
    results,
    UNBOUNDED_SCHEMA,
    rng,
    accountant,
    pmseClaimAssumptions(params, ctx),
  );
  const seconds = (performance.now() - started) / 1000;
  const diagnostics = release.dataHolderDiagnostics as unknown as PmseDataHolderDiagnostics;
  return {
    seconds: round(seconds, 4),
    datasets: release.datasets.length,
    maxRhat: round(diagnostics.mcmc.maxRhat, 4),
    acceptanceRates: diagnostics.mcmc.chains.map((chain) => round(chain.acceptanceRate, 3)),
    iterationsPerSecondPerChain: diagnostics.mcmc.chains.map((chain) => round(chain.iterationsPerSecond, 4)),
  };
}

async function fullRunOneThread() {
  const started = performance.now();
  const release = await runPmseMechanism(
    table(),
    UNBOUNDED_SCHEMA,
    resolveParams(pmseMechanism, PAPER_TREE),
    context(new CryptoRng()),
  );
  const diagnostics = release.dataHolderDiagnostics as unknown as PmseDataHolderDiagnostics;
  return {
    seconds: round((performance.now() - started) / 1000, 4),
    maxRhat: round(diagnostics.mcmc.maxRhat, 4),
  };
}

async function main(): Promise<void> {
  const workers = cliInteger('workers', 2);
  const iterations = cliInteger('iterations', 1000);
  const defaults = resolveParams(pmseMechanism, PAPER_TREE);
  const loadAverageAtStart = loadavg().map((value) => round(value, 3));
  const oneWorker = iterationsPerSecond(iterations, 'speed-chain-0');
  const allocation = await allocationChecks();
  const parallel = await fullRunOnWorkers(workers);
  const sequential = await fullRunOneThread();
  console.log(
    JSON.stringify({
      bench: 'pmse-mechanism-speed',
      n: PAPER_N,
      columns: 2,
      m: 1,
      tree: 'depth unlimited (30), cp 0.01, minsplit 20, minbucket 7',
      loadAverageAtStart,
      iterationsPerSecondOneWorkerAlone: round(oneWorker, 4),
      allocation,
      fullRun: {
        releases: RELEASES,
        epsilon: EPSILON,
        settings: {
          chains: defaults['chains'],
          burnIn: defaults['burnIn'],
          steps: defaults['steps'],
          thinning: defaults['thinning'],
        },
        workerThreads: { workers, ...parallel },
        oneThreadReference: sequential,
      },
    }),
  );
}

if (isMainThread) {
  void main();
} else {
  parentPort!.on('message', (task: ChainTask) => {
    parentPort!.postMessage(
      runChain(task.spec, makeChainRng({ chainSeeds: [task.seed] }, 0), new StageMeter()),
    );
  });
}
