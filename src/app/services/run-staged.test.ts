import { getEventListeners } from 'node:events';
import { describe, expect, it, vi } from 'vitest';
import { isAbortError } from '../../core/abort';
import type { StageTask } from '../../core/mechanisms/types';
import type { RemotePoolWorker } from '../../worker/client/spawn-worker';
import {
  WorkerPool,
  type PoolJobOptions,
  type PoolSlot,
  type SpawnedWorker,
} from '../../worker/client/worker-pool';
import type { SynthesisJob } from '../../worker/protocol';
import { synthesizeInStages } from './run-staged';

/**
 * The page's side of a staged run (run-staged.ts) on the real WorkerPool with stand-in pool workers
 * that log what they are asked: every stage runs once, the results reach the planner in stage order,
 * and each helper gets the run's shared part once, before its first stage, and drops it after its
 * last; the planner, which made the shared part, never gets it. On cancel, a worker whose stage
 * never returns (the planner included: it keeps its slot while its stage is in flight) is terminated
 * after the pool's grace period, and one whose stage stops when asked is kept.
 */

let pool: WorkerPool<RemotePoolWorker>;
/** The pool tasks the staged run starts (its helpers), in start order, and whether each has settled. */
let helperTasks: { settled: boolean }[] = [];

vi.mock('./workers', () => ({
  runPool: () => ({
    get capacity() {
      return pool.capacity;
    },
    run: <T>(
      task: (slot: PoolSlot<RemotePoolWorker>) => Promise<T>,
      options?: PoolJobOptions<RemotePoolWorker>,
    ) => {
      const record = { settled: false };
      helperTasks.push(record);
      return pool.run((slot) => task(slot).finally(() => (record.settled = true)), options);
    },
  }),
  ensureTableOnWorker: async () => {},
}));

const STAGES = 7;
const SHARED = { network: [1, 2, 3] };

/**
 * How a stand-in worker runs a stage: its own body (given the stage's progress callback), or by
 * default one tick then a result.
 */
type StageBody = (
  c: number,
  cancelled: Promise<void>,
  progress: (done: number, total: number) => void,
) => Promise<unknown>;

interface StandInPool {
  logs: string[][];
  /** Whether each spawned worker (in spawn order) was terminated. */
  terminated: boolean[];
}

/** A call a stand-in worker logs and then never answers (as a worker busy in it until terminated). */
type NeverAnswered = 'planStages' | 'keepStageShared' | 'forgetStageShared' | 'finishStages';

function makePool(
  size: number,
  options: {
    failingStage?: number;
    stage?: StageBody;
    cancelGraceMillis?: number;
    never?: NeverAnswered;
  } = {},
): StandInPool {
  const { failingStage = -1, stage, cancelGraceMillis = 150, never } = options;
  helperTasks = [];
  const logs: string[][] = [];
  const terminated: boolean[] = [];
  const spawner = (): SpawnedWorker<RemotePoolWorker> => {
    const log: string[] = [];
    const index = logs.push(log) - 1;
    terminated.push(false);
    let cancel = () => {};
    const cancelled = new Promise<void>((resolve) => (cancel = resolve));
    const tick = () => new Promise((resolve) => setTimeout(resolve, 1));
    const hang = () => new Promise<never>(() => {});
    const remote = {
      planStages: async () => {
        log.push('plan');
        if (never === 'planStages') return hang();
        return {
          shared: SHARED,
          stages: Array.from({ length: STAGES }, (_, c) => ({ spec: { c }, seed: `s${c}` })),
          words: { stage: 'chunk', stages: 'chunks', step: 'row', finish: 'decoding' },
        };
      },
      keepStageShared: async (_jobId: string, shared: unknown) => {
        expect(shared).toEqual(SHARED);
        log.push('shared');
        if (never === 'keepStageShared') return hang();
      },
      forgetStageShared: async () => {
        log.push('forget');
        if (never === 'forgetStageShared') return hang();
      },
      runStage: async (
        _jobId: string,
        _mechanism: string,
        task: StageTask<{ c: number }>,
        progress: (done: number, total: number) => void,
      ) => {
        log.push(`start ${task.spec.c}`);
        if (stage !== undefined) return stage(task.spec.c, cancelled, progress);
        await tick();
        if (task.spec.c === failingStage) throw new Error(`stage ${task.spec.c} failed`);
        log.push(`stage ${task.spec.c}`);
        return Uint32Array.of(task.spec.c);
      },
      finishStages: async (_job: SynthesisJob, results: Uint32Array[]) => {
        log.push('finish');
        if (never === 'finishStages') return hang();
        return results.map((r) => r[0]);
      },
      cancel: async () => {
        log.push('cancel');
        cancel();
      },
    } as unknown as RemotePoolWorker;
    return { remote, terminate: () => (terminated[index] = true), onFatalError: () => {} };
  };
  pool = new WorkerPool(spawner, { size, idleMillis: 60_000, cancelGraceMillis });
  return { logs, terminated };
}

/**
 * The planner's job as the studio runs it (run-synthesis.ts): cancel asks the worker, then the pool's
 * grace period applies. `inner` says whether synthesizeInStages itself has settled (the pool's promise
 * settles at cancel, before it).
 */
function runAsStudio(signal: AbortSignal, progress: (fraction: number) => void = () => {}) {
  const inner = { settled: false };
  const run = pool.run(
    (slot) =>
      synthesizeInStages(slot, job, signal, progress, releasesPort()).finally(() => {
        inner.settled = true;
      }),
    { signal, requestStop: (remote) => void remote.cancel(job.jobId) },
  );
  return Object.assign(run, { inner });
}

/** Resolves once every worker of the pool has a stage in flight. */
async function allWorkersInAStage(logs: string[][], size: number): Promise<void> {
  await vi.waitFor(
    () => {
      expect(logs).toHaveLength(size);
      for (const log of logs) expect(log.some((entry) => entry.startsWith('start'))).toBe(true);
    },
    { timeout: 1000, interval: 2 },
  );
}

const job = { jobId: 'staged', mechanismId: 'plausible-deniability' } as SynthesisJob;

/** The end of a releases channel a run hands the planner (the stand-ins send nothing over it). */
const releasesPort = () => new MessageChannel().port2;

/** A stage that runs until its worker is asked to cancel, then stops. */
const stopWhenAsked: StageBody = async (_c, cancelled) => {
  await cancelled;
  throw Object.assign(new Error('stopped'), { name: 'AbortError' });
};

describe('a staged run from the page', () => {
  it('runs every stage once on the planner and the helpers, each helper given the shared part once', async () => {
    const { logs } = makePool(3);
    const outcome = await pool.run((slot) =>
      synthesizeInStages(slot, job, new AbortController().signal, () => {}, releasesPort()),
    );
    expect(outcome).toEqual(Array.from({ length: STAGES }, (_, c) => c));
    const [planner, ...helpers] = logs;
    expect(planner![0]).toBe('plan');
    expect(planner).not.toContain('shared');
    expect(planner!.at(-1)).toBe('finish');
    const ran = logs.flatMap((log) => log.filter((entry) => entry.startsWith('stage ')));
    expect(ran.sort()).toEqual(Array.from({ length: STAGES }, (_, c) => `stage ${c}`).sort());
    // The stages are spread: each of the three workers runs at least one.
    expect(logs.every((log) => log.some((entry) => entry.startsWith('stage')))).toBe(true);
    for (const log of helpers) {
      expect(log[0]).toBe('shared');
      expect(log.filter((entry) => entry === 'shared')).toHaveLength(1);
      expect(log.at(-1)).toBe('forget');
    }
  });

  it('leaves a one-worker pool to run the job whole', async () => {
    makePool(1);
    const outcome = await pool.run((slot) =>
      synthesizeInStages(slot, job, new AbortController().signal, () => {}, releasesPort()),
    );
    expect(outcome).toBeNull();
  });

  it('stops taking stages when one fails, reports no progress after it, and has the planner drop the plan', async () => {
    // Stage 0 (on the planner, which takes the first stage) fails after a tick; stages 1 and 2, already
    // running on the helpers by then, report progress and return only once the run has settled, as a
    // worker's stage that has not yet heard the cancel does.
    let runSettled!: () => void;
    const afterSettle = new Promise<void>((resolve) => (runSettled = resolve));
    let lateReports = 0;
    const stage: StageBody = async (c, _cancelled, report) => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      if (c === 0) throw new Error('stage 0 failed');
      await afterSettle;
      report(1, 2);
      lateReports++;
      return Uint32Array.of(c);
    };
    const { logs } = makePool(3, { stage });
    let settled = false;
    const progressAfter: number[] = [];
    const outcome = pool.run((slot) =>
      synthesizeInStages(
        slot,
        job,
        new AbortController().signal,
        (fraction) => {
          if (settled) progressAfter.push(fraction);
        },
        releasesPort(),
      ),
    );
    await expect(outcome).rejects.toThrow('stage 0 failed');
    settled = true;
    runSettled();
    await new Promise((resolve) => setTimeout(resolve, 30));
    // The helpers did report after the run settled; none of it reached the page.
    expect(lateReports).toBeGreaterThan(0);
    const ran = logs.flatMap((log) => log.filter((entry) => entry.startsWith('start')));
    // Stages 0, 1 and 2 were already running; no stage is taken after the failure.
    expect(ran.length).toBeLessThanOrEqual(3);
    expect(logs[0]).toContain('cancel');
    expect(logs[0]).not.toContain('finish');
    expect(progressAfter).toEqual([]);
    for (const helper of logs.slice(1).filter((log) => log.includes('shared'))) {
      expect(helper.at(-1)).toBe('forget');
    }
  });

  it("leaves no listener on the caller's signal after a run that succeeds", async () => {
    makePool(3);
    const controller = new AbortController();
    await runAsStudio(controller.signal);
    // Node's listener count of an EventTarget: a listener left behind would keep this run's closures
    // (its stage results) alive as long as the signal, and would act on a later abort.
    expect(getEventListeners(controller.signal, 'abort')).toEqual([]);
  });

  it('on cancel terminates, after the grace period, the planner and a helper whose stages never return', async () => {
    const { logs, terminated } = makePool(2, { stage: () => new Promise(() => {}), cancelGraceMillis: 20 });
    const controller = new AbortController();
    const run = runAsStudio(controller.signal);
    await allWorkersInAStage(logs, 2);
    controller.abort();
    await expect(run).rejects.toSatisfy(isAbortError);
    // The planner (worker 0) keeps its slot while its stage is in flight, so the pool's grace timer
    // finds it still on the cancelled job and terminates it, as it does the helper (worker 1).
    // 1 s is 50 times the grace period: only a worker never terminated fails this.
    await vi.waitFor(() => expect(terminated).toEqual([true, true]), { timeout: 1000, interval: 5 });
    expect(pool.forcedTerminations).toBe(2);
    // The run stops waiting for the terminated planner's answer, so nothing of it (its shared part,
    // the stage results) stays referenced on the page.
    await vi.waitFor(() => expect(run.inner.settled).toBe(true), { timeout: 1000, interval: 5 });
    // So does the helper's pool task.
    await vi.waitFor(() => expect(helperTasks).toEqual([{ settled: true }]), { timeout: 1000, interval: 5 });
    // The planner heard the cancel once, from the pool; nothing is sent to it once terminated, nor
    // to the terminated helper (which is not asked to drop the shared part).
    expect(logs[0]!.filter((entry) => entry === 'cancel')).toHaveLength(1);
    expect(logs[1]).not.toContain('forget');
    pool.terminateAll();
  });

  it.each([
    ['planStages', 'plan'],
    ['finishStages', 'finish'],
  ] as const)(
    'settles once the planner is terminated on cancel while it is busy in %s',
    async (never, logged) => {
      const { logs, terminated } = makePool(2, { never, cancelGraceMillis: 20 });
      const controller = new AbortController();
      const run = runAsStudio(controller.signal);
      await vi.waitFor(() => expect(logs[0]).toContain(logged), { timeout: 1000, interval: 2 });
      controller.abort();
      await expect(run).rejects.toSatisfy(isAbortError);
      // 1 s is 50 times the grace period: only a planner never terminated, or a run that keeps
      // waiting for the terminated planner's answer (and so keeps the run referenced), fails this.
      await vi.waitFor(() => expect(terminated[0]).toBe(true), { timeout: 1000, interval: 5 });
      await vi.waitFor(() => expect(run.inner.settled).toBe(true), { timeout: 1000, interval: 5 });
      pool.terminateAll();
    },
  );

  it.each([
    ['keepStageShared', 'shared'],
    ['forgetStageShared', 'forget'],
  ] as const)(
    "ends a helper's pool task once the helper is terminated on cancel while it is busy in %s",
    async (never, logged) => {
      const { logs, terminated } = makePool(2, { stage: stopWhenAsked, never, cancelGraceMillis: 20 });
      const controller = new AbortController();
      const run = runAsStudio(controller.signal);
      if (never === 'keepStageShared') {
        await vi.waitFor(() => expect(logs[1]).toContain(logged), { timeout: 1000, interval: 2 });
      } else {
        // The helper's stage stops at the cancel; it is then asked to drop the shared part.
        await allWorkersInAStage(logs, 2);
      }
      controller.abort();
      await expect(run).rejects.toSatisfy(isAbortError);
      await vi.waitFor(() => expect(logs[1]).toContain(logged), { timeout: 1000, interval: 2 });
      // 1 s is 50 times the grace period: only a helper never terminated, or a pool task that keeps
      // waiting for the terminated helper's answer (and so keeps the run referenced), fails this.
      await vi.waitFor(() => expect(terminated).toEqual([false, true]), { timeout: 1000, interval: 5 });
      await vi.waitFor(() => expect(helperTasks).toEqual([{ settled: true }]), {
        timeout: 1000,
        interval: 5,
      });
      expect(run.inner.settled).toBe(true);
      pool.terminateAll();
    },
  );

  it('on cancel keeps workers whose stages stop when asked, and the planner drops the plan', async () => {
    const { logs, terminated } = makePool(2, { stage: stopWhenAsked, cancelGraceMillis: 20 });
    const controller = new AbortController();
    const run = runAsStudio(controller.signal);
    await allWorkersInAStage(logs, 2);
    controller.abort();
    await expect(run).rejects.toSatisfy(isAbortError);
    await vi.waitFor(() => expect(pool.busyWorkers).toBe(0), { timeout: 1000, interval: 5 });
    // Five times the grace period: the pool's grace timers, set at the abort before this one, have
    // all fired by now, and no worker that stopped was terminated.
    await new Promise((resolve) => setTimeout(resolve, 5 * 20));
    expect(terminated).toEqual([false, false]);
    expect(pool.forcedTerminations).toBe(0);
    // The planner heard the cancel twice: from the pool at the abort, which stopped its stage, and
    // from the run once that stage had returned, to drop the plan.
    expect(logs[0]!.filter((entry) => entry === 'cancel')).toHaveLength(2);
    expect(logs[0]!.at(-1)).toBe('cancel');
    expect(logs[0]).not.toContain('finish');
    expect(logs.flat().filter((entry) => entry.startsWith('start'))).toHaveLength(2);
    pool.terminateAll();
  });
});
