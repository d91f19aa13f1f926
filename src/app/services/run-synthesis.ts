import * as Comlink from 'comlink';
import { createAbortError } from '../../core/abort';
import { clearLiveMcmc } from '../state/live-mcmc-store';
import { synthesisJob as makeSynthesisJob } from '../../core/job/synthesis-job';
import { useDataStore } from '../state/data-store';
import { HOLDOUT_SHARE, setRunState, useJobStore } from '../state/job-store';
import { setFinishedRun, type RunConfiguration } from '../state/results-store';
import { useSchemaStore } from '../state/schema-store';
import { tableKeyOf } from './cache-keys';
import { cancelEvaluation, defaultEvaluationSettings, startEvaluation } from './run-evaluation';
import { dataSession, ensureTableOnWorker, noteRunSlot, runPool } from './workers';
import { synthesizeInStages } from './run-staged';
import { assessCurrentRun } from './run-readiness';
import { createJobRunner } from './job-runner';
import { onDatasetReplaced } from '../state/dataset-resets';
import { tuningNotes } from './tuning-notes';
import { earlierRunNotes, recordLook, useLedgerStore } from '../state/ledger-store';
import { recordInterruptedRunLook, recordRefusedRunLook } from './interrupted-run-look';

const runner = createJobRunner({
  kind: 'run',
  channel: 'run',
  setStatus: (status, error, jobId) => setRunState(status, jobId, error),
});
// A new dataset: no run is going on and the previous data's live MCMC traces go.
onDatasetReplaced('run', () => {
  runner.discard();
  setRunState('idle', null);
  clearLiveMcmc();
});

/**
 * Starts a run of the configured mechanism on a pool worker. Progress goes to the 'run'
 * progress channel; the releases go from the pool worker straight to the data worker over a
 * MessageChannel this page makes (transferred, not copied; the page gets the summary only) for
 * charts and export; then the full evaluation starts in the background, on the pool worker that
 * still holds them. A new run cancels the previous one.
 */
export async function startRun(): Promise<void> {
  const dataset = useDataStore.getState().dataset;
  const { schema } = useSchemaStore.getState();
  const job = useJobStore.getState();
  const readiness = assessCurrentRun();
  if (!readiness.ready || dataset === null || schema === null || readiness.params === null) {
    setRunState('failed', null, readiness.blocker ?? 'The run is not ready.');
    return;
  }
  cancelEvaluation();
  const mechanism = readiness.mechanism!;
  const params = readiness.params;
  await runner.start(`Starting ${mechanism.label}`, async ({ id: jobId, signal, progress }) => {
    const configuration: RunConfiguration = {
      datasetId: dataset.datasetId,
      fileName: dataset.fileName,
      schema,
      mechanismId: mechanism.id,
      params,
      epsilon: job.epsilon.trim(),
      // The typed δ, or the default δ the readiness applied (shown beside δ and in the claim).
      delta: String(readiness.context!.delta),
      releases: job.releases,
      seeded: job.seed.trim() !== '',
      holdoutShare: job.keepHoldout ? HOLDOUT_SHARE : 0,
      tuningNotes: [
        ...(readiness.deltaDefault === null ? [] : [readiness.deltaDefault.reason]),
        ...tuningNotes(job.dataLooks, job.epsilon),
        ...earlierRunNotes(useLedgerStore.getState().looks),
      ],
    };
    const synthesisJob = makeSynthesisJob(
      { jobId, tableKey: tableKeyOf(dataset.datasetId, schema) },
      {
        schema,
        mechanismId: configuration.mechanismId,
        params: configuration.params,
        epsilon: configuration.epsilon,
        delta: configuration.delta,
        releases: configuration.releases,
        neighbouring: job.neighbouring,
        seed: job.seed,
        holdoutShare: configuration.holdoutShare,
      },
    );
    clearLiveMcmc();
    // The releases go from the pool worker to the data worker over this channel (README.md in
    // src/worker, route 3): this page only hands its two ends out.
    const { port1, port2 } = new MessageChannel();
    const dataWorker = dataSession.worker;
    const kept = dataWorker.receiveReleases(jobId, schema, Comlink.transfer(port1, [port1]));
    // Awaited below once the run is back; a refusal that arrives first is not an unhandled rejection.
    kept.catch(() => undefined);
    // A run that is cancelled, or whose worker ends, sends nothing: the data worker stops waiting.
    const giveUp = () => void dataWorker.abandonReleases(jobId).catch(() => undefined);
    signal.addEventListener('abort', giveUp, { once: true });
    try {
      const summary = await runPool()
        .run(
          async (slot) => {
            await ensureTableOnWorker(slot, synthesisJob.tableKey, schema);
            noteRunSlot(jobId, slot.slotId);
            const releasesPort = Comlink.transfer(port2, [port2]);
            const staged = await synthesizeInStages(slot, synthesisJob, signal, progress, releasesPort);
            return staged ?? slot.remote.synthesize(synthesisJob, Comlink.proxy(progress), releasesPort);
          },
          { signal, requestStop: (remote) => void remote.cancel(jobId) },
        )
        .catch((error: unknown) => {
          giveUp();
          throw error;
        });
      // Cancelled while the releases were being handed over: nothing is shown, the run is over.
      await unlessAborted(kept, signal).catch((error: unknown) => {
        if (!signal.aborted) throw error;
      });
      if (signal.aborted) return;
      setFinishedRun({ summary, configuration });
      // Its output and the utility computed on the real data are now shown: the run is a look at the data.
      // On a schema learned with DP the learning was counted when it was shown; the run adds its own part.
      const own = summary.claim.composedOf?.mechanism ?? summary.claim;
      recordLook(jobId, {
        kind: 'run',
        mechanism: configuration.mechanismId,
        epsilon: own.epsilon,
        delta: own.delta,
        runs: 1,
        what: `run of ${configuration.mechanismId} with ${configuration.releases} release(s)`,
        neighbouring: summary.claim.neighbouring,
      });
      void startEvaluation(jobId, schema, defaultEvaluationSettings(schema));
    } catch (error) {
      // A run refused after its budget was spent counts (its claim is what it reserved), and so do live
      // MCMC traces already shown: a look at the data even when the run does not finish.
      if (
        readiness.claim !== null &&
        !recordRefusedRunLook(jobId, configuration.mechanismId, readiness.claim, error)
      ) {
        recordInterruptedRunLook(jobId, configuration.mechanismId, readiness.claim);
      }
      throw error;
    } finally {
      signal.removeEventListener('abort', giveUp);
    }
  });
}

/**
 * `pending`, or an AbortError as soon as `signal` aborts (a data worker replaced by a new file while
 * it receives a run's releases never answers).
 */
function unlessAborted<T>(pending: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(createAbortError('The run was cancelled.'));
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    pending.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** Cancels the running synthesis, if any; the pool terminates its worker if it does not stop in time. */
export function cancelRun(): void {
  runner.cancel();
}
