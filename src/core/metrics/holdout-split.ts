import type { Rng } from '../rng/types';
import type { Table } from '../table/types';
import { complementIndices, sampleIndicesWithoutReplacement } from './sample-indices';
import { keptBackCount } from './kept-back-count';
import { selectRows } from './select-rows';

export { keptBackCount };

/** A table split into the rows a mechanism may see and real rows kept back for testing. */
export interface HoldoutSplit {
  train: Table;
  holdout: Table;
  /** Original row indices of each part, ascending. */
  trainRows: Uint32Array;
  holdoutRows: Uint32Array;
}

/**
 * Uniformly random split of a table's rows: round(share · n) rows go to the holdout, the rest to
 * training, every subset of that size equally likely (partial Fisher–Yates with exact uniform
 * integers). Both parts keep the original row order.
 * Throws RangeError unless 0 < share < 1 and both parts are non-empty. Cost O(n · m).
 * Example: 1,000 rows with share 0.2 → 800 training and 200 holdout rows.
 */
export function splitHoldout(table: Table, share: number, rng: Rng): HoldoutSplit {
  if (!(share > 0 && share < 1)) throw new RangeError(`Holdout share must be in (0, 1), got ${share}.`);
  const n = table.nRows;
  const holdoutSize = keptBackCount(n, share);
  if (holdoutSize < 1 || holdoutSize > n - 1) {
    throw new RangeError(`A holdout share of ${share} of ${n} rows leaves one part empty.`);
  }
  const holdoutRows = sampleIndicesWithoutReplacement(n, holdoutSize, rng);
  const trainRows = complementIndices(n, holdoutRows);
  return {
    train: selectRows(table, trainRows),
    holdout: selectRows(table, holdoutRows),
    trainRows,
    holdoutRows,
  };
}
