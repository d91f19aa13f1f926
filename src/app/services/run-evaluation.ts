import * as Comlink from 'comlink';
import type { Schema } from '../../core/table/types';
import type { EvaluationSettings } from '../../worker/protocol';
import { onDatasetReplaced } from '../state/dataset-resets';
import {
  setEvaluationReport,
  setEvaluationSettings,
  setEvaluationStatus,
  useResultsStore,
} from '../state/results-store';
import { tableKeyOf } from './cache-keys';
import { dataSession, runPool, slotHoldingReleases, slotHoldingTable } from './workers';
import { createJobRunner } from './job-runner';

/** synthpop's 50 label permutations for the pMSE null. */
export const DEFAULT_PMSE_PERMUTATIONS = 50;

/**
 * The evaluation a run gets by default. The ML efficacy target (used only when rows were kept
 * back) is the first categorical column with two categories, else the first categorical column,
 * else the last numeric one (numeric targets are split at the training median).
 */
export function defaultEvaluationSettings(schema: Schema): EvaluationSettings {
  const categorical = schema.columns.filter((column) => column.type === 'categorical');
  const binary = categorical.find((column) => column.categories?.length === 2);
  const target = binary ?? categorical[0] ?? schema.columns[schema.columns.length - 1];
  return { pmsePermutations: DEFAULT_PMSE_PERMUTATIONS, ...(target ? { mlTarget: target.name } : {}) };
}

const runner = createJobRunner({
  kind: 'evaluation',
  channel: 'evaluate',
  setStatus: (status, error) => setEvaluationStatus(status, error),
});
onDatasetReplaced('evaluation', () => runner.discard());

/**
 * Evaluates a finished run's releases against the real table in a pool worker, preferably the one
 * that ran it: when that worker still holds the run's releases (it keeps those of its last run), it
 * evaluates them on its own table and nothing is sent. Otherwise the data worker sends copies of the
 * releases straight to the pool worker, transferred, with the kept-back row indices when that worker
 * holds the table, else with copies of the real rows too. Runs in the background after each run;
 * cancellable.
 */
export async function startEvaluation(
  jobId: string,
  schema: Schema,
  settings: EvaluationSettings = defaultEvaluationSettings(schema),
): Promise<void> {
  setEvaluationSettings(settings);
  // The dataset the run was made on (not whatever is loaded now), so a held table is matched to it.
  const run = useResultsStore.getState().run;
  const datasetId = run?.summary.jobId === jobId ? run.configuration.datasetId : undefined;
  const tableKey = datasetId === undefined ? undefined : tableKeyOf(datasetId, schema);
  // The worker that made the run (it may still hold its releases), else one that holds its table.
  const preferSlot =
    slotHoldingReleases(jobId) ?? (tableKey === undefined ? undefined : slotHoldingTable(tableKey));
  await runner.start('Preparing the evaluation', async ({ id: evaluationId, signal, progress }) => {
    setEvaluationReport(null);
    const report = await runPool().run(
      async (slot) => {
        if (await slot.remote.holdsReleases(jobId)) {
          return slot.remote.evaluateHeld(evaluationId, jobId, settings, Comlink.proxy(progress));
        }
        const realHeld = tableKey !== undefined && (await slot.remote.holdsTable(tableKey));
        // The data worker sends the tables straight to the pool worker (README.md in src/worker).
        const { port1, port2 } = new MessageChannel();
        const [, evaluated] = await Promise.all([
          dataSession.worker.sendEvaluationInputs(jobId, schema, Comlink.transfer(port1, [port1]), realHeld),
          slot.remote.evaluate(
            evaluationId,
            Comlink.transfer(port2, [port2]),
            settings,
            Comlink.proxy(progress),
            realHeld ? tableKey : undefined,
          ),
        ]);
        return evaluated;
      },
      {
        signal,
        requestStop: (remote) => void remote.cancel(evaluationId),
        ...(preferSlot === undefined ? {} : { preferSlot }),
      },
    );
    if (!signal.aborted) setEvaluationReport(report);
  });
}

export function cancelEvaluation(): void {
  runner.cancel();
}
