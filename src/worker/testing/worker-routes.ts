import type { Schema, Table } from '../../core/table/types';
import { dataWorker } from '../data-worker';
import type { EvaluationInputs, RunReleases } from '../table-channel';
import { poolWorker } from '../pool-worker';
import { receiveTablesFrom, sendTablesOver } from '../table-channel';
import type { EvaluationSettings, SynthesisJob, SynthesisSummary } from '../protocol';
import type { UtilityReport } from '../../core/metrics/evaluate';

/**
 * The routes of README.md in this folder, run in one Node thread with real MessageChannels: one
 * worker sends, the other (or the test) receives, as across threads in the studio.
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

/**
 * A run as the studio makes it (route 3): the page makes a channel, hands one end to the data worker
 * (receiveReleases) and the other to the pool worker (synthesize), and gets back only what the pool
 * worker answers: the summary. Resolves once the data worker keeps the releases.
 */
export async function runAsPage(job: SynthesisJob, onProgress = () => {}): Promise<SynthesisSummary> {
  const { port1, port2 } = new MessageChannel();
  const [, summary] = await Promise.all([
    dataWorker.receiveReleases(job.jobId, job.schema, port1),
    poolWorker.synthesize(job, onProgress, port2),
  ]);
  return summary;
}

/** A pool worker's answer to `send` (a run given a releases channel) with the releases it sent over the channel. */
export async function withReleasesAsSent(
  send: (releasesPort: MessagePort) => Promise<SynthesisSummary> | SynthesisSummary,
): Promise<{ summary: SynthesisSummary } & RunReleases> {
  const { port1, port2 } = new MessageChannel();
  const received = receiveTablesFrom<RunReleases>(port1);
  const summary = await send(port2);
  return { summary, ...(await received) };
}

/** Hands hand-made releases of run `jobId` to the data worker as a pool worker would, over a channel. */
export async function releasesKeptByDataWorker(
  jobId: string,
  schema: Schema,
  datasets: Table[],
  holdoutRows: Uint32Array | null = null,
): Promise<void> {
  const { port1, port2 } = new MessageChannel();
  const kept = dataWorker.receiveReleases(jobId, schema, port1);
  sendTablesOver(
    port2,
    (): RunReleases => ({ datasets, holdoutRows }),
    (sent) => sent.datasets,
  );
  await kept;
}

/** The evaluation of run `runJobId` on the pool worker that made it and still holds its releases. */
export function evaluatedOnHeldReleases(
  runJobId: string,
  settings: EvaluationSettings,
): Promise<UtilityReport> {
  return poolWorker.evaluateHeld(`${runJobId}-evaluation`, runJobId, settings, () => {});
}
