// plausible-deniability on the shape of the authors' SGF benchmark. Prints ONE JSON object.
//
// Data, generated in memory with a SeededRng: 20,000 rows × 8 columns, four numeric (coded in 10
// bins each, plus the missing level) and four categorical (2–5 levels), with dependence between
// columns and 2–5 % missing values. Shares 0.25/0.25 leave 10,000 seeds; ω = m − 2 = 6, k = 50.
// ε = 1.2·T with δ = 10⁻⁶ puts ε0 near 1 (the paper's regime); `modelEpsilon` = 1.
//
// Reported (one thread, this process):
// - modelSeconds: split, noisy entropies, structure, noisy conditional tables (learnNetwork);
// - precomputeSeconds: the plausible-seed counts c(d, ω) by one sort (plausibleSeedCounts);
// - per T in PD_BENCH_T (default 1000 and 1000000): slot seconds and candidates/s, and candidates/s
//   with model + precompute amortised over those T;
// - literalMsPerCandidate: Privacy Test 2 as SGF runs it, scoring Pr{y = M(d′)} for all 10,000 seeds
//   (O(n_S·m) per candidate), for PD_BENCH_LITERAL candidates (default 200);
// - sgfMsPerCandidate: the authors' figure, 18.6 ms per candidate on one thread (their §5), and the
//   speed-ups per core against it;
// - endToEndSeconds: run() on the 20,000 rows, one release (T = 20,000: model, counts, slots, decoding).
// - workerScaling: the staged run's chunks at T = 10⁶ on this thread and on pools of 1, 2 and 4 worker
//   threads (wall and processor seconds, speed-up; see workerScaling).
// Env: PD_BENCH_T (comma-separated), PD_BENCH_LITERAL, PD_BENCH_WORKERS (comma-separated),
// PD_BENCH_SCALING_T (comma-separated), PD_BENCH_SCALING_REPEATS, PD_BENCH_IN_FLIGHT, PD_BENCH_ONLY=scaling.
import { performance } from 'node:perf_hooks';
import os from 'node:os';
import { isMainThread } from 'node:worker_threads';
import { Accountant } from '../src/core/privacy/accountant';
import { parseBudget } from '../src/core/privacy/budget';
import { makeRng } from '../src/core/rng/make-rng';
import { serveStages, StagePool, threadCpuSeconds } from './support/stage-pool';
import { resolveParams } from '../src/core/mechanisms/params';
import {
  learnNetwork,
  plausibleDeniability,
  plausibleDeniabilityStaged,
  plausibleSeedCounts,
} from '../src/core/mechanisms/plausible-deniability';
import { completePlan, reservePlausibleDeniability } from '../src/core/mechanisms/plausible-deniability/meta';
import { literalPlausibleSeeds } from '../src/core/mechanisms/plausible-deniability/seed-bands';
import { runSlot, type SlotSetup } from '../src/core/mechanisms/plausible-deniability/slots';
import { seedTestOf } from '../src/core/mechanisms/plausible-deniability/plan';
import { meteredPlausibleDeniabilityTest } from '../src/core/privacy/metered';
import { drawCumulativeTables, generateFrom, type BayesNet } from '../src/core/models/bayes-net';
import { SeededRng } from '../src/core/rng/seeded-rng';
import type { Rng } from '../src/core/rng/types';
import { uniformInt } from '../src/core/rng/uniform-int';
import type { Column, Schema, Table } from '../src/core/table/types';
import type { RunContext, StagedRun } from '../src/core/mechanisms/types';

const ROWS = 20_000;
const T_VALUES = (process.env.PD_BENCH_T ?? '1000,1000000').split(',').map(Number);
const LITERAL = Number(process.env.PD_BENCH_LITERAL ?? 200);
const SCALING_T = (process.env.PD_BENCH_SCALING_T ?? '1000000').split(',').map(Number);
const SCALING_REPEATS = Number(process.env.PD_BENCH_SCALING_REPEATS ?? 3);
/** Chunks posted to a worker at once (1: the next is posted when one comes back, as in the studio). */
const IN_FLIGHT = Number(process.env.PD_BENCH_IN_FLIGHT ?? 2);
/** `scaling`: only the worker scaling (skips the one-thread timings). */
const ONLY = process.env.PD_BENCH_ONLY ?? '';
const WORKER_COUNTS = (process.env.PD_BENCH_WORKERS ?? '1,2,4').split(',').map(Number);
const SGF_MS_PER_CANDIDATE = 18.6;

const SCHEMA: Schema = {
  version: 1,
  missing: [''],
  columns: [
    { name: 'age', type: 'numeric', bounds: [17, 90], integer: true, source: 'declared' },
    { name: 'income', type: 'numeric', bounds: [0, 200_000], source: 'declared' },
    { name: 'hours', type: 'numeric', bounds: [0, 99], integer: true, source: 'declared' },
    { name: 'score', type: 'numeric', bounds: [0, 1], source: 'declared' },
    { name: 'sex', type: 'categorical', categories: ['F', 'M'], source: 'declared' },
    { name: 'region', type: 'categorical', categories: ['N', 'S', 'E', 'W', 'C'], source: 'declared' },
    {
      name: 'education',
      type: 'categorical',
      categories: ['none', 'school', 'college', 'degree'],
      source: 'declared',
    },
    { name: 'employed', type: 'categorical', categories: ['no', 'yes'], source: 'declared' },
  ],
};

function makeTable(rng: Rng): Table {
  const n = ROWS;
  const missing = (rate: number) => Uint8Array.from({ length: n }, () => (rng.nextFloat() < rate ? 1 : 0));
  const education = Uint32Array.from({ length: n }, () => uniformInt(rng, 4));
  const sex = Uint32Array.from({ length: n }, () => uniformInt(rng, 2));
  const age = Float64Array.from(
    { length: n },
    (_, i) => 17 + Math.min(73, 5 * education[i]! + uniformInt(rng, 50)),
  );
  const income = Float64Array.from({ length: n }, (_, i) =>
    Math.min(200_000, 15_000 * (1 + education[i]!) + 40_000 * rng.nextFloat() + 500 * (age[i]! - 17)),
  );
  const hours = Float64Array.from({ length: n }, (_, i) =>
    Math.min(99, 20 + 10 * sex[i]! + uniformInt(rng, 40)),
  );
  const score = Float64Array.from({ length: n }, (_, i) =>
    Math.min(1, (education[i]! + rng.nextFloat()) / 4),
  );
  const region = Uint32Array.from({ length: n }, () => uniformInt(rng, 5));
  const employed = Uint32Array.from({ length: n }, (_, i) =>
    hours[i]! > 30 || rng.nextFloat() < 0.3 ? 1 : 0,
  );
  const numeric = (name: string, values: Float64Array, rate: number): Column => ({
    kind: 'numeric',
    name,
    values,
    missing: missing(rate),
  });
  const categorical = (name: string, codes: Uint32Array, dictionary: string[], rate: number): Column => ({
    kind: 'categorical',
    name,
    codes,
    dictionary,
    missing: missing(rate),
  });
  return {
    nRows: n,
    columns: [
      numeric('age', age, 0.02),
      numeric('income', income, 0.05),
      numeric('hours', hours, 0.03),
      numeric('score', score, 0.02),
      categorical('sex', sex, ['F', 'M'], 0.02),
      categorical('region', region, ['N', 'S', 'E', 'W', 'C'], 0.04),
      categorical('education', education, ['none', 'school', 'college', 'degree'], 0.05),
      categorical('employed', employed, ['no', 'yes'], 0.03),
    ],
  };
}

const params = resolveParams(plausibleDeniability, {
  bins: 10,
  k: 50,
  omegaMin: 6,
  omegaMax: 6,
  modelEpsilon: 1,
});

function context(draws: number, seed: string): RunContext {
  // n = ROWS; releases chosen so that T = M·n covers `draws` (the plan's k, t, ε0 are for that T).
  const releases = Math.max(1, Math.ceil(draws / ROWS));
  return {
    n: ROWS,
    schema: SCHEMA,
    epsilon: String(1.2 * ROWS * releases),
    delta: '1e-6',
    releases,
    seeded: true,
    rng: new SeededRng(seed),
    progress: () => {},
    signal: { aborted: false },
  };
}

/** Pr{y = M_ω(d)} by eq. 3 for the literal test: 0 unless d agrees with y on the kept attributes. */
function generationProbability(
  net: BayesNet,
  m: number,
  seeds: Uint32Array,
  d: number,
  y: Uint32Array,
  kept: number,
): number {
  for (let q = 0; q < kept; q++) {
    const a = net.order[q]!;
    if (seeds[d * m + a] !== y[a]) return 0;
  }
  let p = 1;
  for (let q = kept; q < m; q++) {
    const child = net.order[q]!;
    const shape = net.shapes[child]!;
    let configuration = 0;
    for (let a = 0; a < shape.parents.length; a++) configuration += y[shape.parents[a]!]! * shape.strides[a]!;
    const cum = net.cumulative[child]!;
    const at = configuration * shape.childLevels + y[child]!;
    p *= cum[at]! - (y[child]! === 0 ? 0 : cum[at - 1]!);
  }
  return p;
}

/** A checksum of a run's chunks (FNV-1a over every level), to compare runs without keeping them. */
function checksum(chunks: Uint32Array[]): number {
  let h = 0x811c9dc5;
  for (const chunk of chunks) {
    for (let i = 0; i < chunk.length; i++) h = Math.imul(h ^ chunk[i]!, 0x01000193) >>> 0;
  }
  return h;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Wall and processor seconds (the whole process: main thread and every worker thread) of `work`. */
async function timed<T>(work: () => Promise<T> | T): Promise<{ value: T; wall: number; cpu: number }> {
  const cpu0 = process.cpuUsage();
  const start = performance.now();
  const value = await work();
  const wall = (performance.now() - start) / 1000;
  const cpu = process.cpuUsage(cpu0);
  return { value, wall, cpu: (cpu.user + cpu.system) / 1e6 };
}

/**
 * The staged run's chunks at each T of PD_BENCH_SCALING_T (default 10⁶ = 50 releases of 20,000 rows,
 * 50 chunks) on pools of PD_BENCH_WORKERS worker threads (bench/support/stage-pool.ts: started before
 * timing and reused, the shared part sent once per worker, PD_BENCH_IN_FLIGHT chunks (default 2)
 * posted to a worker at once, levels transferred back), beside the same
 * chunks on this thread. Per pool size: start-up seconds, the first (cold) run, then the median of
 * PD_BENCH_SCALING_REPEATS warm runs: wall and processor seconds, seconds inside runStage per worker,
 * the rest (messages, transfer, idle) and the speed-up over one worker; and each thread's own
 * processor seconds (Linux thread clocks): the busiest worker's is what the run would take on idle
 * cores, so `cpuSpeedUp` (one worker's over the busiest of w) is the speed-up the load hides. Outputs must be identical
 * whatever the pool size (checked by checksum).
 */
async function workerScaling(table: Table): Promise<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = [];
  for (const draws of SCALING_T) {
    const ctx = context(draws, 'pd bench workers');
    const accountant = new Accountant(parseBudget(ctx.epsilon, ctx.delta));
    const planned = plausibleDeniabilityStaged.plan(table, SCHEMA, params, ctx, accountant);
    const shared = planned.shared!;
    const stages = planned.stages;
    const sharedBytes =
      shared.seedLevels.byteLength +
      shared.bands.counts.byteLength +
      shared.cumulative.reduce((sum, tables) => sum + tables.reduce((s, t) => s + t.byteLength, 0), 0);
    const inThread = await timed(() =>
      stages.map((stage) =>
        plausibleDeniabilityStaged.runStage(
          stage.spec,
          makeRng(stage.seed ?? undefined),
          () => {},
          { aborted: false },
          shared,
        ),
      ),
    );
    const reference = checksum(inThread.value);
    out.push({
      T: draws,
      where: 'this thread',
      chunks: stages.length,
      sharedMegabytes: sharedBytes / 1e6,
      wallSeconds: inThread.wall,
      cpuSeconds: inThread.cpu,
      loadAverage: os.loadavg()[0],
    });
    let oneWorker: number | undefined;
    let oneWorkerCritical: number | undefined;
    for (const workers of WORKER_COUNTS) {
      const started = await timed(() => StagePool.start(import.meta.url, workers));
      const pool = started.value;
      try {
        const runOnce = async (runId: string) => {
          const mainCpu0 = threadCpuSeconds();
          const run = await timed(() => pool.run<Uint32Array>(runId, shared, stages, IN_FLIGHT));
          const mainThreadCpu = threadCpuSeconds() - mainCpu0;
          if (checksum(run.value.results) !== reference) {
            throw new Error(`the chunks differ on ${workers} workers`);
          }
          return { ...run, mainThreadCpu };
        };
        const cold = await runOnce('cold');
        const warm: Awaited<ReturnType<typeof runOnce>>[] = [];
        for (let r = 0; r < SCALING_REPEATS; r++) warm.push(await runOnce(`warm ${r}`));
        const wall = median(warm.map((run) => run.wall));
        const cpu = median(warm.map((run) => run.cpu));
        const busy = warm.map((run) => Math.max(...run.value.loads.map((load) => load.busySeconds)));
        // The busiest worker thread's own processor seconds: the run's length on w idle cores,
        // whatever else the machine runs (thread clocks count only time on a core).
        const criticalCpu = median(
          warm.map((run) => Math.max(...run.value.loads.map((load) => load.cpuSeconds))),
        );
        oneWorker ??= wall;
        oneWorkerCritical ??= criticalCpu;
        out.push({
          T: draws,
          workers,
          inFlight: IN_FLIGHT,
          startSeconds: started.wall,
          coldWallSeconds: cold.wall,
          coldCpuSeconds: cold.cpu,
          wallSeconds: wall,
          cpuSeconds: cpu,
          wallSecondsEach: warm.map((run) => run.wall),
          busySecondsPerWorker: warm[warm.length - 1]!.value.loads.map((load) => load.busySeconds),
          stagesPerWorker: warm[warm.length - 1]!.value.loads.map((load) => load.stages),
          outsideStagesSeconds: wall - median(busy),
          workerThreadCpuSeconds: warm[warm.length - 1]!.value.loads.map((load) => load.cpuSeconds),
          mainThreadCpuSeconds: median(warm.map((run) => run.mainThreadCpu)),
          busiestWorkerCpuSeconds: criticalCpu,
          cpuSpeedUp: oneWorkerCritical / criticalCpu,
          speedUp: oneWorker / wall,
          speedUpPerWorker: oneWorker / wall / workers,
          loadAverage: os.loadavg()[0],
        });
      } finally {
        await pool.close();
      }
    }
  }
  return out;
}

async function main(): Promise<void> {
  const table = makeTable(new SeededRng('pd bench data'));
  if (ONLY === 'scaling') {
    const scaling = await workerScaling(table);
    console.log(JSON.stringify({ bench: 'plausible-deniability', rows: ROWS, workerScaling: scaling }));
    return;
  }
  const results: Record<string, unknown>[] = [];
  let modelSeconds = 0;
  let precomputeSeconds = 0;
  let literalMs = 0;
  for (const draws of T_VALUES) {
    const ctx = context(draws, `pd bench ${draws}`);
    const plan = completePlan(params, ctx);
    let start = performance.now();
    const step = reservePlausibleDeniability(new Accountant(parseBudget(ctx.epsilon, ctx.delta)), plan);
    const learned = learnNetwork(table, plan, ctx.rng, step);
    modelSeconds = (performance.now() - start) / 1000;
    start = performance.now();
    const { seedLevels, bands } = plausibleSeedCounts(learned, plan);
    precomputeSeconds = (performance.now() - start) / 1000;
    const net: BayesNet = {
      shapes: learned.shapes,
      order: learned.order,
      cumulative: drawCumulativeTables(ctx.rng, learned.shapes, learned.counts, plan.settings.prior),
    };
    const setup: SlotSetup = {
      net,
      m: plan.m,
      seedLevels,
      bands,
      test: meteredPlausibleDeniabilityTest(step.part(2), seedTestOf(plan), draws),
    };
    const row = new Uint32Array(plan.m);
    start = performance.now();
    for (let i = 0; i < draws; i++) runSlot(ctx.rng, setup, row);
    const slotSeconds = (performance.now() - start) / 1000;
    const amortised = draws / (slotSeconds + modelSeconds + precomputeSeconds);
    results.push({
      T: draws,
      k: plan.draws.k,
      t: plan.draws.t,
      testEpsilon: plan.draws.testEpsilon.toNumber(),
      slotSeconds,
      candidatesPerSecond: draws / slotSeconds,
      candidatesPerSecondWithModel: amortised,
      speedUpPerCoreVsSgf: (amortised * SGF_MS_PER_CANDIDATE) / 1000,
    });
    if (literalMs === 0) {
      const kept = plan.m - plan.omegaMin;
      const y = new Uint32Array(plan.m);
      start = performance.now();
      let agree = 0;
      for (let c = 0; c < LITERAL; c++) {
        const d = uniformInt(ctx.rng, plan.sizes.seeds);
        y.set(seedLevels.subarray(d * plan.m, d * plan.m + plan.m));
        generateFrom(ctx.rng, net, y, kept);
        const literal = literalPlausibleSeeds(plan.sizes.seeds, d, 2, (e) =>
          generationProbability(net, plan.m, seedLevels, e, y, kept),
        );
        if (literal === bands.counts[d]) agree++;
      }
      literalMs = (performance.now() - start) / LITERAL;
      if (agree !== LITERAL)
        throw new Error(`literal and collapsed counts differ on ${LITERAL - agree} candidates`);
    }
  }

  const endToEndContext = context(ROWS, 'pd bench end to end');
  const endStart = performance.now();
  await plausibleDeniability.run(table, SCHEMA, params, endToEndContext);
  const endToEndSeconds = (performance.now() - endStart) / 1000;

  const scaling = await workerScaling(table);
  console.log(
    JSON.stringify({
      bench: 'plausible-deniability',
      rows: ROWS,
      seeds: ROWS / 2,
      columns: SCHEMA.columns.length,
      omega: 6,
      modelSeconds,
      precomputeSeconds,
      runs: results,
      literalMsPerCandidate: literalMs,
      sgfMsPerCandidate: SGF_MS_PER_CANDIDATE,
      literalSpeedUpVsSgf: SGF_MS_PER_CANDIDATE / literalMs,
      endToEndSeconds,
      workerScaling: scaling,
    }),
  );
}

if (isMainThread) {
  void main();
} else {
  serveStages(plausibleDeniabilityStaged as StagedRun);
}
