import * as Comlink from 'comlink';
import type { StageTracePoint } from '../../core/mechanisms/types';
import type { RemotePoolWorker } from '../../worker/client/spawn-worker';
import type { PoolSlot } from '../../worker/client/worker-pool';
import type { SynthesisOutcome } from '../../worker/pool-worker';
import type { SynthesisJob } from '../../worker/protocol';
import { addLiveMcmcPoint, beginLiveMcmc } from '../state/live-mcmc-store';
import { runPool } from './workers';

/**
 * Runs a job whose mechanism declares stages (the contract's StagedRun) with the stages in
 * parallel: the worker that holds the table (`planner`, already running this job) plans the run
 * and runs stage 1 itself; the other stages go to the pool as separate jobs sharing the cancel
 * signal; then the planner finishes the release. Null when the mechanism has no stages or the pool
 * has fewer than two workers (nested jobs would wait for the planner): the job then runs whole.
 */
export async function synthesizeInStages(
  planner: PoolSlot<RemotePoolWorker>,
  job: SynthesisJob,
  signal: AbortSignal,
  progress: (fraction: number, message: string) => void,
): Promise<SynthesisOutcome | null> {
  if (runPool().capacity < 2) return null;
  const startedAt = performance.now();
  const assignments = await planner.remote.planStages(job);
  if (assignments === null) return null;
  const { stages, words, trace } = assignments;
  const count = stages.length;
  const doneByStage = new Array<number>(count).fill(0);
  if (trace !== undefined) beginLiveMcmc(job.jobId, count, trace.warmUp, trace.total);
  const report = () => {
    const share = doneByStage.reduce((sum, done) => sum + done, 0) / count;
    progress(0.95 * share, `${count} ${words.stages} on ${Math.min(count, runPool().capacity)} workers`);
  };
  const runStageOn = (remote: RemotePoolWorker, c: number) =>
    remote.runStage(
      job.jobId,
      job.mechanismId,
      stages[c]!,
      Comlink.proxy((done: number, total: number, point?: StageTracePoint) => {
        doneByStage[c] = done / total;
        if (point !== undefined) addLiveMcmcPoint(job.jobId, c, done, point.value, point.acceptance);
        report();
      }),
    );
  const results = await Promise.all(
    stages.map((_, c) =>
      c === 0
        ? runStageOn(planner.remote, 0)
        : runPool().run((slot) => runStageOn(slot.remote, c), {
            signal,
            requestStop: (remote) => void remote.cancel(job.jobId),
          }),
    ),
  );
  progress(0.96, `${words.finish[0]!.toUpperCase()}${words.finish.slice(1)}`);
  return planner.remote.finishStages(job, results, performance.now() - startedAt);
}
