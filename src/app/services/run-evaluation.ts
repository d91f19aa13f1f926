import * as Comlink from 'comlink';
import type { Schema } from '../../core/table/types';
import { isAbortError } from '../../worker/client/worker-pool';
import type { EvaluationSettings } from '../../worker/protocol';
import { tableBuffers } from '../../worker/table-transfer';
import { endProgress, reportProgress, startProgress } from '../state/progress-store';
import { setEvaluation } from '../state/results-store';
import { dataSession, runPool } from './engine';
import { messageOf } from './run-readiness';

export const DEFAULT_EVALUATION_SETTINGS: EvaluationSettings = { pmsePermutations: 50 };

let currentEvaluation: AbortController | null = null;

/**
 * Evaluates a finished run's releases against the real table in a pool worker (copies of both,
 * transferred from the data worker). Runs in the background after each run; cancellable.
 */
export async function startEvaluation(
  jobId: string,
  schema: Schema,
  settings: EvaluationSettings = DEFAULT_EVALUATION_SETTINGS,
): Promise<void> {
  cancelEvaluation();
  const controller = new AbortController();
  currentEvaluation = controller;
  const evaluationId = `${jobId}-evaluation`;
  setEvaluation('running');
  startProgress('evaluate', 'Preparing the evaluation');
  try {
    const { real, releases } = await dataSession.engine.evaluationInputs(jobId, schema);
    const report = await runPool().run(
      (slot) =>
        slot.remote.evaluate(
          evaluationId,
          Comlink.transfer(real, tableBuffers(real)),
          Comlink.transfer(releases, releases.flatMap(tableBuffers)),
          settings,
          Comlink.proxy((fraction: number, stage: string) => reportProgress('evaluate', fraction, stage)),
        ),
      { signal: controller.signal, requestStop: (remote) => void remote.cancel(evaluationId) },
    );
    if (!controller.signal.aborted) setEvaluation('done', report);
  } catch (error) {
    if (isAbortError(error)) setEvaluation('cancelled');
    else setEvaluation('failed', null, messageOf(error));
  } finally {
    if (currentEvaluation === controller) currentEvaluation = null;
    endProgress('evaluate');
  }
}

export function cancelEvaluation(): void {
  currentEvaluation?.abort();
}
