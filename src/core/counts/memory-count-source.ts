import { cellOfEveryRow, columnsForCodings, levelsOfColumn } from '../mechanisms/common/coding/encode-rows';
import { countCells } from '../models/pgm/factor-index';
import { countRowsPerCell } from '../cells/sparse-cell-counts';
import type { Table } from '../table/types';
import {
  attributeSetKey,
  plannedCounts,
  type CountQueryPlan,
  type CountSource,
  type PlannedCounts,
} from './count-source';

/**
 * The default count source: the table in memory, counted by the same functions the mechanisms used
 * before count sources existed (cellOfEveryRow + countRowsPerCell for the cross-tabulation,
 * levelsOfColumn + countCells for marginals), so its counts are exactly theirs. O(rows · columns).
 */
export function memoryCountSource(table: Table): CountSource {
  return {
    where: 'in memory',
    rowCount: () => Promise.resolve(table.nRows),
    counts: (plan) => Promise.resolve(countInMemory(table, plan)),
    close: () => Promise.resolve(),
  };
}

/** The plan's counts from a table in memory (synchronous; the mechanisms' in-memory route). */
export function countInMemory(table: Table, plan: CountQueryPlan): PlannedCounts {
  const cells = plan.cells ? countRowsPerCell(cellOfEveryRow(table, plan.codings)) : undefined;
  const marginals = new Map<string, Float64Array>();
  if (plan.marginals.length > 0) {
    const columns = columnsForCodings(table, plan.codings);
    const levels = plan.codings.map((coding, j) => levelsOfColumn(columns[j]!, coding));
    const sizes = plan.codings.map((coding) => coding.levels);
    for (const attrs of plan.marginals) {
      marginals.set(attributeSetKey(attrs), countCells(levels, attrs, sizes));
    }
  }
  return plannedCounts(table.nRows, marginals, cells);
}
