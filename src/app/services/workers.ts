import * as Comlink from 'comlink';
import type { Schema } from '../../core/table/types';
import { DataSessionHolder } from '../../worker/client/data-session';
import { spawnPoolWorker, type RemotePoolWorker } from '../../worker/client/spawn-worker';
import { WorkerPool, type PoolSlot } from '../../worker/client/worker-pool';

/** The one data worker session of the page (the loaded file lives there). */
export const dataSession = new DataSessionHolder();

let pool: WorkerPool<RemotePoolWorker> | undefined;

/** Workers for runs, sweeps and evaluations, one per logical core (DESIGN.md §6), created on first use. */
export function runPool(): WorkerPool<RemotePoolWorker> {
  pool ??= new WorkerPool(spawnPoolWorker, {
    size: navigator.hardwareConcurrency || 2,
    idleMillis: 60_000,
    cancelGraceMillis: 150,
  });
  return pool;
}

/** The pool worker that last received each table (a hint: workers keep two tables and may end). */
const tableSlots = new Map<string, number>();

/** The pool worker that last received the table under `tableKey`, if any (PoolJobOptions.preferSlot). */
export function slotHoldingTable(tableKey: string): number | undefined {
  return tableSlots.get(tableKey);
}

/** The pool worker that made the last run: it keeps that run's releases for its evaluation. */
let lastRun: { jobId: string; slotId: number } | undefined;

/** Notes that run `jobId` runs on pool worker `slotId` (which will keep its releases). */
export function noteRunSlot(jobId: string, slotId: number): void {
  lastRun = { jobId, slotId };
}

/** The pool worker that made run `jobId` and may still hold its releases, if it was the last run. */
export function slotHoldingReleases(jobId: string): number | undefined {
  return lastRun?.jobId === jobId ? lastRun.slotId : undefined;
}

/**
 * Makes sure the pool worker holds the table built under `schema`: when it does not, the data
 * worker builds a copy and sends it to the pool worker over a MessageChannel, transferred (this
 * page only hands the two ends of the channel out). The worker is asked rather than remembered,
 * because it keeps only its two most recent tables.
 */
export async function ensureTableOnWorker(
  slot: PoolSlot<RemotePoolWorker>,
  tableKey: string,
  schema: Schema,
): Promise<void> {
  if (await slot.remote.holdsTable(tableKey)) return;
  const { port1, port2 } = new MessageChannel();
  await Promise.all([
    dataSession.worker.sendTableForRun(schema, Comlink.transfer(port1, [port1])),
    slot.remote.receiveTable(tableKey, Comlink.transfer(port2, [port2])),
  ]);
  tableSlots.set(tableKey, slot.slotId);
}
