// A pool of Node worker threads for a staged run's stages (the contract's StagedRun), as the studio's
// pool runs them: the workers start once (before any timing) and are reused; a run's shared part goes
// once to each worker that takes a stage and is kept there under the run's id; the workers take stages
// from one queue in stage order, two posted at a time; results come back transferred (the run's `transferables`). Workers run
// TypeScript under tsx: the module at `moduleUrl` must call `serveStages` when it is not the main thread.
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { parentPort, Worker } from 'node:worker_threads';
import type { StagedRun, StageTask } from '../../src/core/mechanisms/types';
import { makeRng } from '../../src/core/rng/make-rng';

type ToWorker =
  | { type: 'shared'; runId: string; shared: unknown }
  | { type: 'stage'; runId: string; index: number; task: StageTask<unknown> }
  | { type: 'forget'; runId: string };

type FromWorker =
  | { type: 'ready' }
  | { type: 'shared-kept' }
  | { type: 'result'; index: number; result: unknown; busyMillis: number }
  | { type: 'usage'; cpuSeconds: number }
  | { type: 'error'; message: string };

/** Per worker: stages run, seconds inside `runStage` and the worker thread's own processor seconds. */
export interface WorkerLoad {
  stages: number;
  busySeconds: number;
  /** User + system time of the worker's thread from the shared part to its last stage (NaN off Linux). */
  cpuSeconds: number;
}

/**
 * User + system processor seconds of the calling thread (Linux: /proc/thread-self/stat, fields 14
 * and 15 in clock ticks of 1/100 s); NaN where that file does not exist.
 */
export function threadCpuSeconds(): number {
  try {
    const stat = readFileSync('/proc/thread-self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return NaN;
  }
}

export class StagePool {
  private constructor(private readonly workers: Worker[]) {}

  /** Starts `size` workers on the module at `moduleUrl` and waits until each has loaded it. */
  static async start(moduleUrl: string, size: number): Promise<StagePool> {
    const bootstrap = `import('tsx/esm/api').then((api) => { api.register(); return import(${JSON.stringify(moduleUrl)}); })`;
    const workers = Array.from({ length: size }, () => new Worker(bootstrap, { eval: true }));
    await Promise.all(workers.map((worker) => nextMessage(worker, 'ready')));
    return new StagePool(workers);
  }

  get size(): number {
    return this.workers.length;
  }

  /**
   * The stages of one run on the pool; results in stage order, and each worker's load. A worker gets
   * the shared part only if a stage is still left when it first asks, and has up to `inFlight` stages
   * posted at once, so it starts the next as soon as one ends instead of waiting for this thread.
   */
  async run<Result>(
    runId: string,
    shared: unknown,
    stages: StageTask<unknown>[],
    inFlight = 2,
  ): Promise<{ results: Result[]; loads: WorkerLoad[] }> {
    const results = new Array<Result>(stages.length);
    let next = 0;
    const loads = await Promise.all(
      this.workers.map(async (worker) => {
        const load: WorkerLoad = { stages: 0, busySeconds: 0, cpuSeconds: 0 };
        if (next >= stages.length) return load;
        worker.postMessage({ type: 'shared', runId, shared } satisfies ToWorker);
        await nextMessage(worker, 'shared-kept');
        await new Promise<void>((resolve, reject) => {
          let posted = 0;
          let back = 0;
          const post = () => {
            const index = next++;
            posted++;
            worker.postMessage({ type: 'stage', runId, index, task: stages[index]! } satisfies ToWorker);
          };
          const onMessage = (message: FromWorker) => {
            if (message.type !== 'result') {
              finish(new Error(message.type === 'error' ? message.message : `unexpected ${message.type}`));
              return;
            }
            results[message.index] = message.result as Result;
            load.stages++;
            load.busySeconds += message.busyMillis / 1000;
            back++;
            if (next < stages.length) post();
            if (back === posted) finish();
          };
          const finish = (error?: Error) => {
            worker.off('message', onMessage);
            worker.off('error', finish);
            if (error) reject(error);
            else resolve();
          };
          worker.on('message', onMessage);
          worker.on('error', finish);
          while (posted < inFlight && next < stages.length) post();
        });
        worker.postMessage({ type: 'forget', runId } satisfies ToWorker);
        const usage = (await nextMessage(worker, 'usage')) as Extract<FromWorker, { type: 'usage' }>;
        load.cpuSeconds = usage.cpuSeconds;
        return load;
      }),
    );
    return { results, loads };
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((worker) => worker.terminate()));
  }
}

function nextMessage(worker: Worker, type: FromWorker['type']): Promise<FromWorker> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: FromWorker) => {
      worker.off('error', onError);
      if (message.type === 'error') reject(new Error(message.message));
      else if (message.type !== type) reject(new Error(`expected ${type}, got ${message.type}`));
      else resolve(message);
    };
    const onError = (error: Error) => {
      worker.off('message', onMessage);
      reject(error);
    };
    worker.once('message', onMessage);
    worker.once('error', onError);
  });
}

/** The worker side: keeps shared parts by run id, runs stages, transfers what the run allows. */
export function serveStages(staged: StagedRun): void {
  const port = parentPort!;
  const sharedParts = new Map<string, unknown>();
  let cpuAtShared = 0;
  port.on('message', (message: ToWorker) => {
    try {
      if (message.type === 'shared') {
        cpuAtShared = threadCpuSeconds();
        sharedParts.set(message.runId, message.shared);
        port.postMessage({ type: 'shared-kept' } satisfies FromWorker);
      } else if (message.type === 'forget') {
        sharedParts.delete(message.runId);
        port.postMessage({
          type: 'usage',
          cpuSeconds: threadCpuSeconds() - cpuAtShared,
        } satisfies FromWorker);
      } else {
        if (!sharedParts.has(message.runId)) throw new Error('shared part not held');
        const start = performance.now();
        const { task } = message;
        const result = staged.runStage(
          task.spec,
          makeRng(task.seed ?? undefined),
          () => {},
          { aborted: false },
          sharedParts.get(message.runId),
        );
        const busyMillis = performance.now() - start;
        port.postMessage(
          { type: 'result', index: message.index, result, busyMillis } satisfies FromWorker,
          staged.transferables?.(result) ?? [],
        );
      }
    } catch (error) {
      port.postMessage({ type: 'error', message: String(error) } satisfies FromWorker);
    }
  });
  port.postMessage({ type: 'ready' } satisfies FromWorker);
}
