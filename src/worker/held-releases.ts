/**
 * The releases of the last run a pool worker made, kept there (besides the copies it sends the data
 * worker) so that the evaluation right after the run needs no copy sent back. One run only, to bound
 * memory: dropped when another run starts on this worker or the table it ran on is dropped.
 */
import type { Table } from '../core/table/types';

/** A run's releases as its pool worker keeps them. */
export interface HeldRun {
  jobId: string;
  /** The key of the table the run used (its real rows, split by `holdoutRows`). */
  tableKey: string;
  datasets: Table[];
  /** Rows kept back from the mechanism (ascending indices), or null. */
  holdoutRows: Uint32Array | null;
}

let held: HeldRun | undefined;

/** Keeps `run` as this worker's last run, in place of any other. */
export function holdRun(run: HeldRun): void {
  held = run;
}

/** The held releases of run `jobId`, if this worker still holds them. */
export function heldRun(jobId: string): HeldRun | undefined {
  return held?.jobId === jobId ? held : undefined;
}

/** Drops the held releases (a new run starts on this worker). */
export function dropHeldRun(): void {
  held = undefined;
}

/** Drops the held releases when they were made on the table under `tableKey` (that table is dropped). */
export function dropHeldRunOnTable(tableKey: string): void {
  if (held?.tableKey === tableKey) held = undefined;
}
