import * as Comlink from 'comlink';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { NOISY_LINE_CSV as CSV, NOISY_LINE_SCHEMA as schema } from '../../worker/testing/noisy-line';
import type { RemotePoolWorker } from '../../worker/client/spawn-worker';
import { WorkerPool, type SpawnedWorker } from '../../worker/client/worker-pool';
import type { PoolWorkerApi } from '../../worker/pool-worker';
import type { RunReleases } from '../../worker/table-channel';
import type { SynthesisJob, SynthesisSummary } from '../../worker/protocol';
import { synthesizeInStages } from './run-staged';
import { withReleasesAsSent } from '../../worker/testing/worker-routes';

/**
 * A seeded staged run (plausible-deniability, one stage per release) through the page's route
 * (run-staged.ts) on the real WorkerPool, with the real pool worker code in this thread: each worker
 * is a fresh copy of the worker modules (its own held table, plans and shared parts), reached through
 * Comlink over a MessageChannel as the page reaches a worker, so every argument and result is
 * structured-cloned or transferred. The release must not depend on the number of workers: pools of
 * 2 and 4 give exactly the one-thread run's release.
 */

let pool: WorkerPool<RemotePoolWorker>;

vi.mock('./workers', () => ({
  runPool: () => pool,
  ensureTableOnWorker: async () => {},
}));

const RELEASES = 5; // five stages: more than a pool of 4 has workers
const TABLE_KEY = 'pd-pools';

function job(jobId: string): SynthesisJob {
  return {
    jobId,
    tableKey: TABLE_KEY,
    schema,
    mechanismId: 'plausible-deniability',
    params: { bins: 4 },
    epsilon: '480',
    delta: '1e-6',
    releases: RELEASES,
    seed: 'pool-size',
  };
}

interface InThreadWorker {
  api: PoolWorkerApi;
  /** Whether this worker still holds the shared part of run `jobId`. */
  holdsStageShared(jobId: string): boolean;
  remote: RemotePoolWorker;
  close(): void;
}

/** A pool worker in this thread with module state of its own, holding the table when asked. */
async function inThreadWorker(holdsTable: boolean): Promise<InThreadWorker> {
  vi.resetModules();
  const { poolWorker } = await import('../../worker/pool-worker');
  const { holdsStageShared } = await import('../../worker/staged-jobs');
  if (holdsTable) {
    const { dataWorker } = await import('../../worker/data-worker');
    const { handTableOver } = await import('../../worker/testing/worker-routes');
    await dataWorker.loadCsvText(CSV, 'line.csv', () => {});
    await handTableOver(schema, TABLE_KEY);
  }
  const { port1, port2 } = new MessageChannel();
  Comlink.expose(poolWorker, port1);
  const remote = Comlink.wrap<PoolWorkerApi>(port2);
  return {
    api: poolWorker,
    holdsStageShared,
    remote,
    close: () => {
      remote[Comlink.releaseProxy]();
      port1.close();
      port2.close();
    },
  };
}

/**
 * The pool's workers as the page sees them, in spawn order (the first is the planner: it runs the
 * job). Each worker holds its first stage's result until every worker of the pool has started one,
 * so that every worker runs at least one stage whatever the timing (`stagesBy` counts them), and
 * these first results come back in the reverse of the order their stages started: stages finish
 * out of order on every run, not by chance.
 */
function poolOver(workers: InThreadWorker[], size: number): { stagesBy: number[] } {
  const stagesBy = new Array<number>(size).fill(0);
  let allStarted!: () => void;
  const everyWorkerStarted = new Promise<void>((resolve) => (allStarted = resolve));
  let spawned = 0;
  let started = 0;
  const spawner = (): SpawnedWorker<RemotePoolWorker> => {
    const w = spawned++;
    const remote = workers[w]!.remote;
    const gated = {
      planStages: (...args: Parameters<RemotePoolWorker['planStages']>) => remote.planStages(...args),
      keepStageShared: (...args: Parameters<RemotePoolWorker['keepStageShared']>) =>
        remote.keepStageShared(...args),
      forgetStageShared: (...args: Parameters<RemotePoolWorker['forgetStageShared']>) =>
        remote.forgetStageShared(...args),
      finishStages: (...args: Parameters<RemotePoolWorker['finishStages']>) => remote.finishStages(...args),
      cancel: (...args: Parameters<RemotePoolWorker['cancel']>) => remote.cancel(...args),
      runStage: async (...args: Parameters<RemotePoolWorker['runStage']>) => {
        const first = stagesBy[w]++ === 0;
        const rank = first ? started++ : 0;
        if (started === size) allStarted();
        const result = await remote.runStage(...args);
        await everyWorkerStarted;
        // The worker that started last returns first: one turn of the event loop per later starter.
        for (let turn = first ? size - rank : 0; turn > 0; turn--) await nextTurn();
        return result;
      },
    } as unknown as RemotePoolWorker;
    return { remote: gated, terminate: () => {}, onFatalError: () => {} };
  };
  pool = new WorkerPool(spawner, { size, idleMillis: 60_000 });
  return { stagesBy };
}

const nextTurn = () => new Promise((resolve) => setTimeout(resolve, 0));

const workers: InThreadWorker[] = [];

beforeAll(async () => {
  workers.push(await inThreadWorker(true));
  for (let w = 1; w < 4; w++) workers.push(await inThreadWorker(false));
});

afterAll(() => {
  for (const worker of workers) worker.close();
});

describe('a seeded staged run on pools of different sizes', () => {
  it('gives exactly the one-thread release on pools of 2 and of 4 workers', async () => {
    const serial = await withReleasesAsSent((port) =>
      workers[0]!.api.synthesize(job('one-thread'), () => {}, port),
    );
    for (const size of [2, 4]) {
      const { stagesBy } = poolOver(workers, size);
      let staged: { summary: SynthesisSummary } & RunReleases;
      try {
        // The planner sends the release over the channel it is given, as to the data worker.
        staged = await withReleasesAsSent(
          async (port) =>
            (await pool.run((slot) =>
              synthesizeInStages(slot, job(`pool-of-${size}`), new AbortController().signal, () => {}, port),
            ))!,
        );
      } finally {
        // No idle timer of this pool outlives the test.
        pool.terminateAll();
      }
      expect(stagesBy.reduce((sum, count) => sum + count, 0)).toBe(RELEASES);
      expect(stagesBy.every((count) => count > 0)).toBe(true);
      expect(staged.summary.claim).toEqual(serial.summary.claim);
      expect(staged.datasets).toEqual(serial.datasets);
      expect(staged.summary.comparison).toEqual(serial.summary.comparison);
      // The run ended cleanly: no worker holds its shared part any more.
      for (const worker of workers) {
        expect(worker.holdsStageShared(`pool-of-${size}`)).toBe(false);
      }
    }
  });
});
