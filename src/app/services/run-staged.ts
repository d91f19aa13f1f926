import * as Comlink from 'comlink';
import { createAbortError } from '../../core/abort';
import type { StageTracePoint } from '../../core/mechanisms/types';
import type { RemotePoolWorker } from '../../worker/client/spawn-worker';
import type { PoolSlot } from '../../worker/client/worker-pool';
import type { SynthesisJob, SynthesisSummary } from '../../worker/protocol';
import { addLiveMcmcPoint, beginLiveMcmc } from '../state/live-mcmc-store';
import { runPool } from './workers';

/**
 * Runs a job whose mechanism declares stages (the contract's StagedRun) with the stages in
 * parallel: the worker that holds the table (`planner`, already running this job) plans the run;
 * then the planner and up to capacity − 1 pool workers (one pool job each, sharing the cancel
 * signal) take stages from one queue in stage order until none is left. Each helper gets the run's
 * shared part once before its first stage and drops it after its last; results come back
 * transferred and go on to the planner transferred, which finishes the release and sends its tables
 * to the data worker over `releasesPort` (the page gets the summary only). Which worker runs
 * a stage does not change it (its generator comes from the stage's seed), so a seeded release is the
 * same on any pool. Null when the mechanism has no stages or the pool has fewer than two workers
 * (nested jobs would wait for the planner): the job then runs whole, and `releasesPort` is unused.
 */
export async function synthesizeInStages(
  planner: PoolSlot<RemotePoolWorker>,
  job: SynthesisJob,
  signal: AbortSignal,
  progress: (fraction: number, message: string) => void,
  releasesPort: MessagePort,
): Promise<SynthesisSummary | null> {
  if (runPool().capacity < 2) return null;
  const startedAt = performance.now();
  // Planning and finishing run on the planner's table and do not stop when asked: a cancel past the
  // grace period terminates the planner, and the run then stops waiting for its answer.
  const assignments = await unlessEnded(() => planner.remote.planStages(job), planner.ended);
  if (assignments === null) return null;
  const { stages, words, trace, shared } = assignments;
  const count = stages.length;
  const doneByStage = new Array<number>(count).fill(0);
  if (trace !== undefined) beginLiveMcmc(job.jobId, count, trace.warmUp, trace.total);
  const helpers = Math.max(0, Math.min(count - 1, runPool().capacity - 1));
  // Stops the drains and the helpers when the user cancels or any stage fails.
  const stop = new AbortController();
  const stopOnCancel = () => stop.abort(createAbortError('The job was cancelled.'));
  if (signal.aborted) stopOnCancel();
  else signal.addEventListener('abort', stopOnCancel, { once: true });
  let settled = false;
  const report = () => {
    if (settled) return;
    const share = doneByStage.reduce((sum, done) => sum + done, 0) / count;
    progress(0.95 * share, `${count} ${words.stages} on ${helpers + 1} workers`);
  };
  const runStageOn = (remote: RemotePoolWorker, c: number) =>
    remote.runStage(
      job.jobId,
      job.mechanismId,
      stages[c]!,
      Comlink.proxy((done: number, total: number, point?: StageTracePoint) => {
        if (settled) return;
        doneByStage[c] = done / total;
        if (point !== undefined) addLiveMcmcPoint(job.jobId, c, done, point.value, point.acceptance);
        report();
      }),
    );
  const results = new Array<unknown>(count);
  let next = 0;
  let finished = 0;
  /** Takes stages from the queue until it is empty or the run stops. */
  const drain = async (slot: PoolSlot<RemotePoolWorker>) => {
    while (next < count && !stop.signal.aborted) {
      const c = next++;
      results[c] = await unlessEnded(() => runStageOn(slot.remote, c), slot.ended);
      finished++;
    }
  };
  /** A helper: the shared part first, only if a stage is left by the time the worker is free. */
  const help = async (slot: PoolSlot<RemotePoolWorker>) => {
    if (next >= count || stop.signal.aborted) return;
    await unlessEnded(() => slot.remote.keepStageShared(job.jobId, shared), slot.ended);
    try {
      await drain(slot);
    } finally {
      await unlessEnded(() => slot.remote.forgetStageShared(job.jobId), slot.ended);
    }
  };
  const plannerDrain = drain(planner);
  try {
    await new Promise<void>((resolve, reject) => {
      const fail = (error: unknown) => {
        if (!stop.signal.aborted) stop.abort(error);
        reject(error);
      };
      const check = () => (finished === count ? resolve() : undefined);
      if (stop.signal.aborted) return reject(stop.signal.reason);
      stop.signal.addEventListener('abort', () => reject(stop.signal.reason), { once: true });
      plannerDrain.then(check, fail);
      for (let h = 0; h < helpers; h++) {
        runPool()
          .run((slot) => help(slot), {
            signal: stop.signal,
            requestStop: (remote) => void remote.cancel(job.jobId),
          })
          .then(check, fail);
      }
      check();
    });
  } catch (error) {
    settled = true;
    if (!stop.signal.aborted) stop.abort(error);
    // The planner keeps its pool slot until the stage it is running returns, so that a cancel's
    // grace period (and, past it, terminating the worker) applies to it; then it drops the plan. A
    // terminated worker never answers: the waits end with it, so nothing of the run is kept.
    await plannerDrain.catch(() => undefined);
    await unlessEnded(() => planner.remote.cancel(job.jobId), planner.ended).catch(() => undefined);
    throw error;
  } finally {
    signal.removeEventListener('abort', stopOnCancel);
  }
  progress(0.96, `${words.finish[0]!.toUpperCase()}${words.finish.slice(1)}`);
  return unlessEnded(
    () =>
      planner.remote.finishStages(
        job,
        Comlink.transfer(results, ownedBuffers(results)),
        performance.now() - startedAt,
        Comlink.transfer(releasesPort, [releasesPort]),
      ),
    planner.ended,
  );
}

/**
 * The outcome of `call()`, or an AbortError once the pool has ended the worker it waits on (`ended`).
 * Nothing is sent to a worker already ended: `call` is not made.
 */
function unlessEnded<T>(call: () => Promise<T>, ended: AbortSignal): Promise<T> {
  if (ended.aborted) return Promise.reject(createAbortError('The worker was stopped.'));
  let pending: Promise<T>;
  try {
    pending = call();
  } catch (error) {
    return Promise.reject(error);
  }
  return new Promise<T>((resolve, reject) => {
    const onEnded = () => reject(createAbortError('The worker was stopped.'));
    ended.addEventListener('abort', onEnded, { once: true });
    // Its late outcome, whichever it is, is handled here (no unhandled rejection once `ended` won).
    pending.then(resolve, reject).finally(() => ended.removeEventListener('abort', onEnded));
  });
}

/**
 * The buffers under typed arrays in `value` (arrays and plain objects walked), each once: stage
 * results arrive on this page as fresh copies nothing else views, so they can move on transferred.
 */
function ownedBuffers(value: unknown, found = new Set<ArrayBuffer>()): ArrayBuffer[] {
  if (ArrayBuffer.isView(value)) {
    if (value.buffer instanceof ArrayBuffer) found.add(value.buffer);
  } else if (Array.isArray(value)) {
    for (const item of value) ownedBuffers(item, found);
  } else if (value !== null && typeof value === 'object' && !(value instanceof ArrayBuffer)) {
    for (const item of Object.values(value)) ownedBuffers(item, found);
  }
  return [...found];
}
