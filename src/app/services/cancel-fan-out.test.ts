import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Schema } from '../../core/table/types';
import type { SweepPointResult, SynthesisJob } from '../../worker/protocol';
import type { RemotePoolWorker } from '../../worker/client/spawn-worker';
import { WorkerPool, type SpawnedWorker } from '../../worker/client/worker-pool';
import { useCompareStore } from '../state/compare-store';
import { useDataStore } from '../state/data-store';
import { useJobStore } from '../state/job-store';
import { resetLedger, useLedgerStore } from '../state/ledger-store';
import { usePrefsStore } from '../state/prefs-store';
import { useSchemaStore } from '../state/schema-store';
import { useTuneStore } from '../state/tune-store';
import { cancelCompare, startCompare } from './run-compare';
import { logGrid } from './epsilon-scale';
import { cancelSweep, currentSweepPlan, startSweep } from './run-sweep';
import { defaultDelta } from '../../core/privacy/default-delta';

/**
 * Cancelling an ε sweep or a comparison, through the studio's own runners (run-sweep.ts,
 * run-compare.ts) and the real WorkerPool, with stand-in pool workers. A stand-in either stops
 * when asked (its point rejects as a real worker's aborted job does) or, like a mechanism in a
 * synchronous loop, never hears the request. After Cancel no queued point may start, every worker
 * must be idle or gone, and nothing a stopped worker still returns may reach the chart.
 */

interface StandIn {
  started: SynthesisJob[];
  cancelled: string[];
  terminated: boolean;
  /** Finishes the oldest running point of this worker with a result. */
  finishOne(): void;
  /** Ends the oldest running point of this worker with an error. */
  failOne(error: Error): void;
}

const GRACE_MILLIS = 150;
let pool: WorkerPool<RemotePoolWorker>;
let standIns: StandIn[];

vi.mock('./workers', () => ({
  runPool: () => pool,
  ensureTableOnWorker: async () => {},
}));

/** A pool of `size` stand-in workers; `heedsStop` says whether they stop when asked. */
function makePool(size: number, heedsStop: boolean): void {
  standIns = [];
  const spawner = (): SpawnedWorker<RemotePoolWorker> => {
    const pending: { job: SynthesisJob; epsilon: number; repeat: number; settle: (error?: Error) => void }[] =
      [];
    const points = new Map<string, (point: SweepPointResult[]) => void>();
    const standIn: StandIn = {
      started: [],
      cancelled: [],
      terminated: false,
      failOne: (error) => pending.shift()!.settle(error),
      finishOne: () => {
        const running = pending.shift()!;
        // One point per release: a sweep run holding several repeats returns them all at once.
        points.get(running.job.jobId)!(
          Array.from({ length: running.job.releases }, (_, r) => ({
            epsilon: running.epsilon,
            repeat: running.repeat + r,
            tvdOneWay: 0.1,
            tvdTwoWay: 0.2,
            pmse: 0.01,
            runMillis: 5,
          })),
        );
      },
    };
    standIns.push(standIn);
    const startPoints = (job: SynthesisJob, epsilon: number, repeat: number) => {
      standIn.started.push(job);
      return new Promise<SweepPointResult[]>((resolve, reject) => {
        points.set(job.jobId, resolve);
        pending.push({
          job,
          epsilon,
          repeat,
          settle: (error) => (error ? reject(error) : undefined),
        });
      });
    };
    const remote = {
      holdsTable: async () => true,
      sweepPoint: async (job: SynthesisJob, epsilon: number, repeat: number) =>
        (await startPoints(job, epsilon, repeat))[0]!,
      sweepPointsOfOneRun: (job: SynthesisJob, epsilon: number, firstRepeat: number) =>
        startPoints(job, epsilon, firstRepeat),
      cancel: async (jobId: string) => {
        standIn.cancelled.push(jobId);
        if (!heedsStop) return;
        const index = pending.findIndex((running) => running.job.jobId === jobId);
        if (index < 0) return;
        const [stopped] = pending.splice(index, 1);
        const abort = new Error('The operation was cancelled.');
        abort.name = 'AbortError';
        stopped!.settle(abort);
      },
    } as unknown as RemotePoolWorker;
    return {
      remote,
      terminate: () => {
        standIn.terminated = true;
      },
      onFatalError: () => {},
    };
  };
  pool = new WorkerPool(spawner, { size, idleMillis: 60_000, cancelGraceMillis: GRACE_MILLIS });
}

const schema: Schema = {
  version: 1,
  columns: [
    { name: 'age', type: 'numeric', bounds: [18, 90], integer: true, source: 'declared' },
    { name: 'sex', type: 'categorical', categories: ['F', 'M'], source: 'declared' },
  ],
  missing: [''],
};

let loads = 0;

/** A fresh dataset id per test, so no test sees points another cached. */
function loadStores(): void {
  loads += 1;
  useDataStore.setState({
    dataset: {
      datasetId: `cancel-test-${loads}`,
      fileName: 'people.csv',
      nRows: 500,
      header: ['age', 'sex'],
      delimiter: ',',
      bytes: 5000,
      inferredSchema: schema,
      profiles: [],
      parseMillis: 1,
    },
  });
  useSchemaStore.setState({ schema });
  useJobStore.setState({
    mechanismId: 'laplace-histogram',
    paramDrafts: {},
    epsilon: '1',
    delta: '0',
    seed: 's',
  });
  // 4 ε values × 2 repeats = 8 points: 4 runs of 2 releases for laplace-histogram's sweep (its
  // repeats come from one run), 8 single runs for the comparison; more than two workers take at once.
  usePrefsStore.setState({
    sweepPointCount: 4,
    sweepMinEpsilon: 0.1,
    sweepMaxEpsilon: 10,
    sweepRepeats: 2,
    sweepRepeatsFitMinute: false,
  });
  useCompareStore.setState({ selectedIds: ['laplace-histogram', 'dp-marginals'], repeats: 4 });
}

/** Lets promise callbacks (the pool's dispatch, the runners' updates) run. */
async function settleMicrotasks(): Promise<void> {
  for (let i = 0; i < 20; i++) await Promise.resolve();
}

const startedCount = () => standIns.reduce((sum, standIn) => sum + standIn.started.length, 0);

beforeEach(() => {
  vi.useFakeTimers();
  loadStores();
});

afterEach(() => {
  pool.terminateAll();
  vi.useRealTimers();
});

const fanOuts = [
  {
    name: 'an ε sweep',
    jobs: 4,
    pointsPerJob: 2,
    start: startSweep,
    cancel: cancelSweep,
    status: () => useTuneStore.getState().status,
    shown: () => useTuneStore.getState().points.length,
  },
  {
    name: 'a comparison',
    jobs: 8,
    pointsPerJob: 1,
    start: startCompare,
    cancel: cancelCompare,
    status: () => useCompareStore.getState().status,
    shown: () => useCompareStore.getState().points.length,
  },
];

describe.each(fanOuts)('cancelling $name', ({ jobs, pointsPerJob, start, cancel, status, shown }) => {
  it('terminates workers that do not stop, starts no queued point and shows nothing late', async () => {
    makePool(2, false);
    const running = start();
    await settleMicrotasks();
    expect(startedCount()).toBe(2);
    expect(pool.queuedJobs).toBe(jobs - 2);
    // One job finishes; its worker takes the next queued job.
    standIns[0]!.finishOne();
    await settleMicrotasks();
    expect(shown()).toBe(pointsPerJob);
    expect(startedCount()).toBe(3);

    cancel();
    await running;
    expect(status()).toBe('cancelled');
    expect(pool.queuedJobs).toBe(0);
    // Both busy workers were asked to stop, one request per running point.
    expect(standIns.map((standIn) => standIn.cancelled.length)).toEqual([1, 1]);
    expect(standIns.every((standIn) => !standIn.terminated)).toBe(true);

    // They did not stop: after the grace period the pool terminates them and keeps no worker.
    vi.advanceTimersByTime(GRACE_MILLIS + 1);
    expect(standIns.every((standIn) => standIn.terminated)).toBe(true);
    expect(pool.liveWorkers).toBe(0);

    // A point a terminated worker still delivers is not shown, and no queued point ever starts.
    standIns[0]!.finishOne();
    standIns[1]!.finishOne();
    await settleMicrotasks();
    vi.advanceTimersByTime(1000);
    await settleMicrotasks();
    expect(shown()).toBe(pointsPerJob);
    expect(startedCount()).toBe(3);
  });

  it('keeps workers that stop when asked, idle', async () => {
    makePool(2, true);
    const running = start();
    await settleMicrotasks();
    expect(pool.busyWorkers).toBe(2);

    cancel();
    await running;
    await settleMicrotasks();
    expect(status()).toBe('cancelled');
    vi.advanceTimersByTime(GRACE_MILLIS + 1);
    expect(pool.liveWorkers).toBe(2);
    expect(pool.busyWorkers).toBe(0);
    expect(pool.queuedJobs).toBe(0);
    expect(pool.forcedTerminations).toBe(0);
    expect(startedCount()).toBe(2);
    expect(shown()).toBe(0);
  });
});

describe.each([
  { name: 'an ε sweep', kind: 'sweep', points: 8, start: startSweep, jobs: 4 },
  { name: 'a comparison', kind: 'compare', points: 8, start: startCompare, jobs: 8 },
])('the privacy ledger during $name', ({ kind, points, start, jobs }) => {
  it('records each point shown once, with its ε, as a look of its kind', async () => {
    resetLedger();
    makePool(2, true);
    const running = start();
    for (let finished = 0; finished < jobs; finished++) {
      await settleMicrotasks();
      const busy = standIns.filter((standIn) => standIn.started.length > 0);
      // Finish whichever worker holds the oldest unfinished job.
      for (const standIn of busy) {
        try {
          standIn.finishOne();
          break;
        } catch {
          // this worker has nothing running
        }
      }
    }
    await running;
    const looks = useLedgerStore.getState().looks;
    expect(looks).toHaveLength(points);
    expect(looks.every((look) => look.kind === kind)).toBe(true);
    if (kind === 'sweep') {
      // Every ε of the sweep's grid (0.1 … 10 over 4 values), 2 repeats each.
      const grid = logGrid(0.1, 10, 4);
      expect(grid).toHaveLength(4);
      expect(looks.map((look) => look.epsilon).sort((a, b) => a - b)).toEqual(grid.flatMap((e) => [e, e]));
    } else {
      // Two mechanisms × 4 repeats at ε = 1.
      expect(looks.map((look) => look.epsilon)).toEqual(Array(8).fill(1));
      expect(new Set(looks.map((look) => look.mechanism))).toEqual(
        new Set(['laplace-histogram', 'dp-marginals']),
      );
    }
    // Shown again from the cache: nothing more is spent.
    await start();
    await settleMicrotasks();
    expect(useLedgerStore.getState().looks).toHaveLength(points);
  });
});

describe('δ left unset for a mechanism that needs it', () => {
  // n = 500 is public: the default δ is min(1e-9, 1/n²) rounded down to one digit = 1e-9 here
  // (core/privacy/default-delta.ts); a sweep or a comparison must use it as a run does, not δ = 0.
  const expected = String(defaultDelta(500).delta);

  it.each([
    { name: 'an ε sweep', start: startSweep, compare: ['mst', 'aim'] },
    { name: 'a comparison', start: startCompare, compare: ['mst', 'aim'] },
  ])('$name sends every job the default δ and records it in the ledger', async ({ start, compare }) => {
    resetLedger();
    makePool(2, true);
    useJobStore.setState({ mechanismId: 'mst', delta: '' });
    useCompareStore.setState({ selectedIds: compare, repeats: 1 });
    const running = start();
    for (let round = 0; round < 12; round++) {
      await settleMicrotasks();
      for (const standIn of standIns) {
        try {
          standIn.finishOne();
        } catch {
          // this worker has nothing running
        }
      }
    }
    await running;
    const jobs = standIns.flatMap((standIn) => standIn.started);
    expect(jobs.length).toBeGreaterThan(0);
    expect(jobs.every((job) => job.delta === expected)).toBe(true);
    const looks = useLedgerStore.getState().looks;
    expect(looks.length).toBeGreaterThan(0);
    expect(looks.every((look) => look.delta === Number(expected))).toBe(true);
  });
});

describe.each([
  { name: 'an ε sweep', start: startSweep, cancel: cancelSweep },
  { name: 'a comparison', start: startCompare, cancel: cancelCompare },
])('the relation of $name', ({ start, cancel }) => {
  // The claim shown before the runs is stated under step 3's relation (run-readiness.ts); the runs
  // must be calibrated under the same one, or the label would name a relation the noise does not hold for.
  it.each(['add-remove', 'replace-one'] as const)(
    "runs every job under step 3's choice (%s)",
    async (relation) => {
      useJobStore.setState({ neighbouring: relation });
      makePool(2, true);
      const running = start();
      await settleMicrotasks();
      const started = standIns.flatMap((standIn) => standIn.started);
      expect(started.length).toBe(2);
      // A replace-one job carries no relation (synthesisJob): absent means replace-one.
      for (const job of started) expect(job.neighbouring ?? 'replace-one').toBe(relation);
      cancel();
      await running;
      useJobStore.setState({ neighbouring: 'replace-one' });
    },
  );
});

describe.each([
  { name: 'an ε sweep', start: startSweep, kind: 'sweep' },
  { name: 'a comparison', start: startCompare, kind: 'compare' },
])('a run of $name refused after spending', ({ start, kind }) => {
  // The failure is shown, and it was decided after the budget was spent: it is a look at the data.
  it.each([
    ['FailedAfterSpendingError', 1],
    ['Error', 0],
  ] as const)('a %s is recorded in the ledger %i time(s)', async (name, looks) => {
    resetLedger();
    makePool(2, true);
    const running = start().catch(() => undefined);
    await settleMicrotasks();
    const error = new Error('the run failed');
    error.name = name;
    standIns[0]!.failOne(error);
    await settleMicrotasks();
    const recorded = useLedgerStore.getState().looks.filter((look) => look.kind === kind);
    // A sweep run here holds 2 repeats (laplace-histogram's sweepRepeats): each is a point; a comparison run is 1.
    expect(recorded.length).toBe(looks * (kind === 'sweep' ? 2 : 1));
    (kind === 'sweep' ? cancelSweep : cancelCompare)();
    await running;
  });
});

describe('the repeats of a sweep under add/remove', () => {
  // n is private under add/remove: repeats fitted to a minute of runs on n rows would let n set how
  // many points, and so how much ε, the sweep spends. They are as set there, fitted under replace-one.
  it('are the ones set, although "as many as fit a minute" is ticked', () => {
    usePrefsStore.setState({ sweepRepeatsFitMinute: true, sweepRepeats: 3 });
    useJobStore.setState({ neighbouring: 'add-remove' });
    expect(currentSweepPlan()!.repeats).toBe(3);
    useJobStore.setState({ neighbouring: 'replace-one' });
    // Under replace-one the cost model fits them: a fast histogram on 500 rows fits more than 3.
    expect(currentSweepPlan()!.repeats).not.toBe(3);
  });
});
