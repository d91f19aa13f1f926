import { splitHoldout } from '../core/metrics/holdout-split';
import { complementIndices } from '../core/metrics/sample-indices';
import { selectRows } from '../core/metrics/select-rows';
import { makeRng } from '../core/rng';
import type { Table } from '../core/table/types';
import type { SynthesisJob } from './protocol';

/** The rows a mechanism sees and, when the job keeps some back, the real rows kept for testing. */
export interface JobRows {
  train: Table;
  /** Row indices (ascending) of the kept-back real rows; null when nothing is kept back. */
  holdoutRows: Uint32Array | null;
}

/**
 * Keeps back `job.holdoutShare` of the rows, chosen uniformly at random (core splitHoldout),
 * before the mechanism runs: the mechanism then sees only the rest, and the kept-back rows can
 * test models trained on the synthetic data (ML efficacy). The split uses its own generator
 * (seed "<seed>/holdout" for seeded jobs), so it never shifts the mechanism's random stream.
 */
export function splitRowsForJob(table: Table, job: Pick<SynthesisJob, 'holdoutShare' | 'seed'>): JobRows {
  const share = job.holdoutShare ?? 0;
  if (share <= 0) return { train: table, holdoutRows: null };
  const seed = job.seed?.trim();
  const split = splitHoldout(table, share, makeRng(seed ? `${seed}/holdout` : undefined));
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
