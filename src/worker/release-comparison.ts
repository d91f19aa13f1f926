import { tvdKWay } from '../core/metrics/tvd';
import type { Table } from '../core/table/types';
import { encodeColumnCells } from '../core/metrics/column-cells';
import { marginalOverlay } from '../core/metrics/marginal-overlay';
import type { MarginalOverlay, PairHeatmap, QuickComparison } from './protocol';
import { mean } from '../core/stats/mean';

/**
 * Headline comparison of a run: mean 1-way and 2-way TVD per release (core tvdKWay,
 * DESIGN.md §2: ½·Σ|p − q|, numeric columns in 10 equal-width bins) and, per column, the real
 * and synthetic marginal shares for the overlay charts (core marginalOverlay). Computed from the real data, so it is
 * for the data holder and never part of a release. A table with one column has no 2-way TVD (NaN).
 */
export function compareReleases(real: Table, releases: Table[]): QuickComparison {
  const oneWay = releases.map((release) => tvdKWay(real, release, 1));
  const tvdTwoWay = releases.map((release) =>
    real.columns.length >= 2 ? tvdKWay(real, release, 2).mean : Number.NaN,
  );
  const overlays = real.columns.map((column, c): MarginalOverlay => ({
    column: column.name,
    kind: column.kind,
    tvd: mean(oneWay.map((result) => result.subsets[c]?.tvd ?? Number.NaN)),
    cells: marginalOverlay(encodeColumnCells(real, releases, column.name)),
  }));
  return { tvdOneWay: oneWay.map((result) => result.mean), tvdTwoWay, overlays };
}

/**
 * Joint shares of two columns in the real data and in one release, on shared cells, with their
 * TVD ½·Σ_ij |p_ij − q_ij| (the 2-way TVD of DESIGN.md §2 for this pair). O(n_real + n_synth).
 */
export function pairHeatmap(
  real: Table,
  release: Table,
  rowColumn: string,
  columnColumn: string,
): PairHeatmap {
  const rows = encodeColumnCells(real, [release], rowColumn);
  const columns = encodeColumnCells(real, [release], columnColumn);
  const jointShares = (rowCells: Uint32Array, columnCells: Uint32Array) => {
    const grid = rows.labels.map(() => new Array<number>(columns.labels.length).fill(0));
    const n = Math.max(1, rowCells.length);
    for (let i = 0; i < rowCells.length; i++) grid[rowCells[i]!]![columnCells[i]!]! += 1 / n;
    return grid;
  };
  const realGrid = jointShares(rows.real, columns.real);
  const syntheticGrid = jointShares(rows.synthetic[0]!, columns.synthetic[0]!);
  let absoluteDifference = 0;
  realGrid.forEach((row, i) =>
    row.forEach((share, j) => (absoluteDifference += Math.abs(share - syntheticGrid[i]![j]!))),
  );
  return {
    rowColumn,
    columnColumn,
    rowLabels: rows.labels,
    columnLabels: columns.labels,
    real: realGrid,
    synthetic: syntheticGrid,
    tvd: absoluteDifference / 2,
  };
}
