import * as Comlink from 'comlink';
import type { RemoteEngine } from '../../worker/client/spawn-engine';
import type { PoolSlot } from '../../worker/client/worker-pool';
import { PMSE_MECHANISM_ID } from '../../core/mechanisms/pmse-mechanism/meta';
import type { SynthesisOutcome } from '../../worker/engine';
import type { SynthesisJob } from '../../worker/protocol';
import { addLiveMcmcPoint, beginLiveMcmc } from '../state/live-mcmc-store';
import { runPool } from './engine';

/** Whether a job can spread its work over several workers (the pMSE mechanism's chains). */
export function runsChainsInParallel(mechanismId: string): boolean {
  return mechanismId === PMSE_MECHANISM_ID && runPool().capacity >= 2;
}

/**
 * Runs a pMSE-mechanism job with its MCMC chains in parallel: the worker that holds the table
 * (`planner`, already running this job) plans the run and runs chain 1 itself; the other chains
 * go to the pool as separate jobs sharing the cancel signal; then the planner draws the releases.
 * Needs a pool of at least two workers (otherwise the nested jobs would wait for the planner).
 */
export async function synthesizeWithParallelChains(
  planner: PoolSlot<RemoteEngine>,
  job: SynthesisJob,
  signal: AbortSignal,
  progress: (fraction: number, message: string) => void,
): Promise<SynthesisOutcome> {
  const startedAt = performance.now();
  const { chainSpecs, chainSeeds } = await planner.remote.planPmseChains(job);
  const chains = chainSpecs.length;
  const doneByChain = new Array<number>(chains).fill(0);
  const firstSpec = chainSpecs[0]!;
  beginLiveMcmc(job.jobId, chains, firstSpec.burnIn, firstSpec.burnIn + firstSpec.steps);
  const report = () => {
    const share = doneByChain.reduce((sum, done) => sum + done, 0) / chains;
    progress(0.95 * share, `${chains} MCMC chains on ${Math.min(chains, runPool().capacity)} workers`);
  };
  const runChainOn = (remote: RemoteEngine, c: number) =>
    remote.runPmseChain(
      job.jobId,
      chainSpecs[c]!,
      chainSeeds[c] ?? null,
      Comlink.proxy((done: number, total: number, u: number, recentAcceptance: number) => {
        doneByChain[c] = done / total;
        addLiveMcmcPoint(job.jobId, c, done, u, recentAcceptance);
        report();
      }),
    );
  const results = await Promise.all(
    chainSpecs.map((_, c) =>
      c === 0
        ? runChainOn(planner.remote, 0)
        : runPool().run((slot) => runChainOn(slot.remote, c), {
            signal,
            requestStop: (remote) => void remote.cancel(job.jobId),
          }),
    ),
  );
  progress(0.96, 'Drawing the synthetic datasets');
  return planner.remote.finishPmseChains(job, results, performance.now() - startedAt);
}
