import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { isAbortError } from '../../core/abort';
import type { Schema } from '../../core/table/types';
import type { RemotePoolWorker } from '../../worker/client/spawn-worker';
import { WorkerPool } from '../../worker/client/worker-pool';
import { dataWorker } from '../../worker/data-worker';
import { poolWorker } from '../../worker/pool-worker';
import { handTableOver } from '../../worker/testing/worker-routes';
import { useDataStore } from '../state/data-store';
import { useJobStore } from '../state/job-store';
import { useResultsStore } from '../state/results-store';
import { useSchemaStore } from '../state/schema-store';
import { cancelRun, startRun } from './run-synthesis';

/**
 * A run as the studio starts it (run-synthesis.ts) on the real WorkerPool, with the real data worker
 * and pool worker code in this thread, called directly (Comlink's transfer marks are then no-ops):
 * the releases go from the pool worker to the data worker over the run's channel and the page's
 * store gets the summary; the evaluation that follows runs on the releases the pool worker kept,
 * with nothing sent. A run whose worker never answers is terminated on cancel, and the data
 * worker's wait for its releases ends.
 */

let pool: WorkerPool<RemotePoolWorker>;
/** The pool worker calls the page made, by name, in order. */
let poolCalls: string[] = [];
/** The data worker calls the page made, by name, and the waits for releases it started. */
let dataCalls: string[] = [];
let releaseWaits: Promise<void>[] = [];

vi.mock('./workers', () => ({
  runPool: () => pool,
  ensureTableOnWorker: (_slot: unknown, tableKey: string, schema: Schema) => handTableOver(schema, tableKey),
  noteRunSlot: () => {},
  slotHoldingReleases: () => undefined,
  slotHoldingTable: () => undefined,
  dataSession: {
    get worker() {
      return new Proxy(dataWorker, {
        get(target, name: string) {
          const method = target[name as keyof typeof target] as (...args: unknown[]) => unknown;
          return (...args: unknown[]) => {
            dataCalls.push(name);
            const result = method(...args);
            if (name === 'receiveReleases') releaseWaits.push(result as Promise<void>);
            return Promise.resolve(result);
          };
        },
      });
    },
  },
}));

/** A pool of in-thread pool workers; `answers` false makes synthesize never return (a busy loop). */
function makePool(answers: boolean): { terminated: boolean[] } {
  const terminated: boolean[] = [];
  pool = new WorkerPool<RemotePoolWorker>(
    () => {
      const index = terminated.push(false) - 1;
      const remote = new Proxy(poolWorker, {
        get(target, name: string) {
          const method = target[name as keyof typeof target] as (...args: unknown[]) => unknown;
          return async (...args: unknown[]) => {
            poolCalls.push(name);
            if (name === 'synthesize' && !answers) return new Promise(() => {});
            return method(...args);
          };
        },
      }) as unknown as RemotePoolWorker;
      return { remote, terminate: () => (terminated[index] = true), onFatalError: () => {} };
    },
    // One worker, so a run is never staged (plausible deniability is not used here anyway).
    { size: 1, idleMillis: 60_000, cancelGraceMillis: 20 },
  );
  return { terminated };
}

// 40 rows of two declared columns.
const CSV = [
  'age,sex',
  ...Array.from({ length: 40 }, (_, i) => `${20 + (i % 50)},${i % 3 ? 'F' : 'M'}`),
].join('\n');
const schema: Schema = {
  version: 1,
  columns: [
    { name: 'age', type: 'numeric', bounds: [18, 90], integer: true, source: 'declared' },
    { name: 'sex', type: 'categorical', categories: ['F', 'M'], source: 'declared' },
  ],
  missing: [''],
};

let loads = 0;

beforeEach(async () => {
  poolCalls = [];
  dataCalls = [];
  releaseWaits = [];
  loads += 1;
  await dataWorker.loadCsvText(CSV, 'people.csv', () => {});
  useDataStore.setState({
    dataset: {
      datasetId: `run-test-${loads}`,
      fileName: 'people.csv',
      nRows: 40,
      header: ['age', 'sex'],
      delimiter: ',',
      bytes: CSV.length,
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
    releases: 2,
    seed: 'run-route',
    keepHoldout: false,
  });
  useResultsStore.setState({ run: null, evaluation: null, evaluationStatus: 'idle' });
});

afterEach(() => {
  pool.terminateAll();
});

describe('a run from the page', () => {
  it('gets the summary while the releases go to the data worker, and is evaluated where they are kept', async () => {
    makePool(true);
    await startRun();
    expect(useJobStore.getState().runStatus).toBe('finished');
    const run = useResultsStore.getState().run!;
    expect(run.summary).toMatchObject({ rows: 40, releases: 2 });
    const jobId = run.summary.jobId;
    // The data worker received both releases over the run's channel; the page never handed it any.
    expect(dataCalls).toEqual(['receiveReleases']);
    await releaseWaits[0];
    const csv = await dataWorker.releaseCsvBlob(jobId, 1).text();
    expect(csv.trim().split('\n')).toHaveLength(41);
    // The evaluation ran on the pool worker's own copy of the releases: nothing was sent for it.
    await vi.waitFor(() => expect(useResultsStore.getState().evaluationStatus).toBe('finished'), {
      timeout: 20_000,
      interval: 20,
    });
    expect(poolCalls).toContain('evaluateHeld');
    expect(poolCalls).not.toContain('evaluate');
    expect(dataCalls).not.toContain('sendEvaluationInputs');
    expect(useResultsStore.getState().evaluation?.rows).toEqual({ real: 40, releases: [40, 40] });
  });

  it('on cancel terminates a worker that never answers, and the data worker stops waiting for its releases', async () => {
    const { terminated } = makePool(false);
    const running = startRun();
    await vi.waitFor(() => expect(poolCalls).toContain('synthesize'), { timeout: 5000, interval: 2 });
    cancelRun();
    await running;
    expect(useJobStore.getState().runStatus).toBe('cancelled');
    expect(useResultsStore.getState().run).toBeNull();
    // The page gave the run up: the wait rejects instead of waiting for a sender that is gone.
    expect(dataCalls).toContain('abandonReleases');
    await expect(releaseWaits[0]).rejects.toSatisfy(isAbortError);
    // 1 s is 50 times the grace period: only a worker never terminated fails this.
    await vi.waitFor(() => expect(terminated).toEqual([true]), { timeout: 1000, interval: 5 });
  });
});
