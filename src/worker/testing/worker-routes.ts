import type { Schema, Table } from '../../core/table/types';
import { dataWorker, type EvaluationInputs } from '../data-worker';
import { poolWorker } from '../pool-worker';
import { receiveTablesFrom } from '../table-channel';
import type { EvaluationSettings } from '../protocol';
import type { UtilityReport } from '../../core/metrics/evaluate';

/**
 * The routes of README.md in this folder, run in one Node thread with real MessageChannels: the
 * data worker sends, the pool worker (or the test) receives, as across threads in the studio.
 */

/** Hands the table built under `schema` from the data worker to the pool worker, kept under `key`. */
export async function handTableOver(schema: Schema, key: string): Promise<void> {
  const { port1, port2 } = new MessageChannel();
  await Promise.all([dataWorker.sendTableForRun(schema, port1), poolWorker.receiveTable(key, port2)]);
}

/** The table built under `schema` as a pool worker receives it. */
export async function tableAsSent(schema: Schema): Promise<Table> {
  const { port1, port2 } = new MessageChannel();
  const received = receiveTablesFrom<Table>(port2);
  dataWorker.sendTableForRun(schema, port1);
  return received;
}

/** A run's evaluation inputs as the evaluating pool worker receives them (without the real rows when it holds them). */
export async function evaluationInputsAsSent(
  jobId: string,
  schema: Schema,
  realHeld = false,
): Promise<EvaluationInputs> {
  const { port1, port2 } = new MessageChannel();
  const received = receiveTablesFrom<EvaluationInputs>(port2);
  dataWorker.sendEvaluationInputs(jobId, schema, port1, realHeld);
  return received;
}

/** A run's evaluation on the pool worker: from copies of the real rows, or from its table under `heldKey`. */
export async function evaluatedOnPool(
  jobId: string,
  schema: Schema,
  settings: EvaluationSettings,
  heldKey?: string,
): Promise<UtilityReport> {
  const { port1, port2 } = new MessageChannel();
  const [, report] = await Promise.all([
    dataWorker.sendEvaluationInputs(jobId, schema, port1, heldKey !== undefined),
    poolWorker.evaluate(`${jobId}-evaluation`, port2, settings, () => {}, heldKey),
  ]);
  return report;
}
