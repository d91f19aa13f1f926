import * as Comlink from 'comlink';
import type { Schema } from '../../core/table/types';
import { DataSessionHolder } from '../../worker/client/data-session';
import { spawnEngineWorker, type RemoteEngine } from '../../worker/client/spawn-engine';
import { WorkerPool, type PoolSlot } from '../../worker/client/worker-pool';
import { tableBuffers } from '../../worker/table-transfer';

/** The one data worker session of the page (the loaded file lives there). */
export const dataSession = new DataSessionHolder();

let pool: WorkerPool<RemoteEngine> | undefined;

/** Workers for runs and sweeps, one per logical core (DESIGN.md §6), created on first use. */
export function runPool(): WorkerPool<RemoteEngine> {
  pool ??= new WorkerPool(() => spawnEngineWorker('pool'), {
    size: navigator.hardwareConcurrency || 2,
    idleMillis: 60_000,
    cancelGraceMillis: 150,
  });
  return pool;
}

/**
 * Makes sure the pool worker holds the table built under `schema`: a copy is built in the data
 * worker and transferred (through this thread, which only moves buffer ownership) when the worker
 * does not hold it. The worker is asked rather than remembered, because it keeps only its two most
 * recent tables.
 */
export async function ensureTableOnWorker(
  slot: PoolSlot<RemoteEngine>,
  tableKey: string,
  schema: Schema,
): Promise<void> {
  if (await slot.remote.holdsTable(tableKey)) return;
  const table = await dataSession.engine.tableForRun(schema);
  await slot.remote.acceptTable(tableKey, Comlink.transfer(table, tableBuffers(table)));
}
