/**
 * Counts of the non-empty cells of a cross-tabulation, sorted by cell index.
 * Memory is proportional to the number of rows, never to the size of the domain.
 */
export interface SparseCellCounts {
  /** Strictly increasing cell indices. */
  cells: Uint32Array;
  /** counts[i] rows fall in cells[i]; every count is ≥ 1. */
  counts: Uint32Array;
}

/** The sparse counts of the cells rows fall in. Cost O(n log n) for the sort, O(n) memory. */
export function countRowsPerCell(cellOfRow: Uint32Array): SparseCellCounts {
  const sorted = Uint32Array.from(cellOfRow).sort();
  let distinct = 0;
  for (let i = 0; i < sorted.length; i++) if (i === 0 || sorted[i] !== sorted[i - 1]) distinct++;
  const cells = new Uint32Array(distinct);
  const counts = new Uint32Array(distinct);
  let k = -1;
  for (let i = 0; i < sorted.length; i++) {
    if (i === 0 || sorted[i] !== sorted[i - 1]) cells[++k] = sorted[i]!;
    counts[k]! += 1;
  }
  return { cells, counts };
}

/** Sparse counts from a dense count vector (zeros dropped); handy for small domains and tests. */
export function sparseFromDenseCounts(dense: ArrayLike<number>): SparseCellCounts {
  let distinct = 0;
  for (let i = 0; i < dense.length; i++) if (dense[i]! > 0) distinct++;
  const cells = new Uint32Array(distinct);
  const counts = new Uint32Array(distinct);
  let k = 0;
  for (let i = 0; i < dense.length; i++) {
    if (dense[i]! > 0) {
      cells[k] = i;
      counts[k++] = dense[i]!;
    }
  }
  return { cells, counts };
}
