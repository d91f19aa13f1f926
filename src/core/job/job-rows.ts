import { splitHoldout } from '../metrics/holdout-split';
import { complementIndices } from '../metrics/sample-indices';
import { selectRows } from '../metrics/select-rows';
import { makeRng } from '../rng';
import type { Table } from '../table/types';
import { holdoutSeed } from './job-seeds';

export { jobRowCounts } from './job-row-counts';

/** What a synthesis job says about keeping rows back (the studio's job and the CLI's flags). */
export interface HoldoutChoice {
  /** Share of rows kept back from the mechanism (0 or absent: none). */
  holdoutShare?: number;
  /** Empty or absent: cryptographic randomness. */
  seed?: string;
}

/** The rows a mechanism sees and, when the job keeps some back, the real rows kept for testing. */
export interface JobRows {
  train: Table;
  /** Row indices (ascending) of the kept-back real rows; null when nothing is kept back. */
  holdoutRows: Uint32Array | null;
}

/**
 * Keeps back `job.holdoutShare` of the rows, chosen uniformly at random (splitHoldout),
 * before the mechanism runs: the mechanism then sees only the rest, and the kept-back rows can
 * test models trained on the synthetic data (ML efficacy). The split uses its own generator
 * (holdoutSeed: "<seed>/holdout" for seeded jobs), so it never shifts the mechanism's random stream.
 */
export function splitRowsForJob(table: Table, job: HoldoutChoice): JobRows {
  const share = job.holdoutShare ?? 0;
  if (share <= 0) return { train: table, holdoutRows: null };
  const split = splitHoldout(table, share, makeRng(holdoutSeed(job)));
  return { train: split.train, holdoutRows: split.holdoutRows };
}

/** The two parts of `table` given the kept-back row indices (ascending). */
export function partsFromHoldoutRows(
  table: Table,
  holdoutRows: Uint32Array,
): { train: Table; holdout: Table } {
  return {
    train: selectRows(table, complementIndices(table.nRows, holdoutRows)),
    holdout: selectRows(table, holdoutRows),
  };
}
