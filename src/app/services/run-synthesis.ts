import * as Comlink from 'comlink';
import { clearLiveMcmc } from '../state/live-mcmc-store';
import { synthesisJob as makeSynthesisJob } from '../../core/job/synthesis-job';
import { tableBuffers } from '../../worker/table-transfer';
import { useDataStore } from '../state/data-store';
import { HOLDOUT_SHARE, setRunState, useJobStore } from '../state/job-store';
import { setFinishedRun, type RunConfiguration } from '../state/results-store';
import { useSchemaStore } from '../state/schema-store';
import { tableKeyOf } from './cache-keys';
import { cancelEvaluation, defaultEvaluationSettings, startEvaluation } from './run-evaluation';
import { dataSession, ensureTableOnWorker, runPool } from './workers';
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
 * progress channel; the releases are handed to the data worker (transferred, not copied)
 * for charts and export; then the full evaluation starts in the background. A new run cancels
 * the previous one.
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
    try {
      const { summary, datasets, holdoutRows } = await runPool().run(
        async (slot) => {
          await ensureTableOnWorker(slot, synthesisJob.tableKey, schema);
          const staged = await synthesizeInStages(slot, synthesisJob, signal, progress);
          return staged ?? slot.remote.synthesize(synthesisJob, Comlink.proxy(progress));
        },
        { signal, requestStop: (remote) => void remote.cancel(jobId) },
      );
      const transfers = datasets.flatMap(tableBuffers);
      if (holdoutRows !== null) transfers.push(holdoutRows.buffer as ArrayBuffer);
      await dataSession.worker.keepReleases(
        jobId,
        schema,
        Comlink.transfer(datasets, transfers),
        holdoutRows,
      );
      // Cancelled while the releases were being handed over: nothing is shown, the run is over.
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
    }
  });
}

/** Cancels the running synthesis, if any; the pool terminates its worker if it does not stop in time. */
export function cancelRun(): void {
  runner.cancel();
}
