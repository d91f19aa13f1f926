import { mean } from '../stats/mean';
import { cellShares, type ColumnCells } from './column-cells';

/** One bar of a marginal overlay: shares of rows (missing included in the denominator). */
export interface OverlayBar {
  label: string;
  /** 'bin' and 'level' are data cells, 'missing' the missing cell, 'other' the pooled rare levels. */
  kind: 'bin' | 'level' | 'missing' | 'other';
  real: number;
  /** The share in the synthetic data: the mean over the releases. */
  synthetic: number;
}

/** At most this many bars per categorical column; rarer levels are pooled into one 'other' bar. */
export const MARGINAL_MAX_LEVEL_BARS = 50;

/**
 * The bars of a marginal overlay chart of one column (studio results, evaluation report): the real
 * share of each cell against the synthetic share averaged over the releases. Numeric columns give
 * one bar per equal-width bin, in order (the bins of the TVD, DESIGN.md §2); categorical columns one
 * bar per level seen in either table, most frequent (real + synthetic share) first, ties by token,
 * with the levels beyond MARGINAL_MAX_LEVEL_BARS − 1 pooled into one 'other' bar; the missing cell
 * comes last when any table has a missing value. Cost O(rows + cells · log cells).
 */
export function marginalOverlay(cells: ColumnCells): OverlayBar[] {
  const cellCount = cells.labels.length;
  const real = cellShares(cells.real, cellCount);
  const releaseShares = cells.synthetic.map((release) => cellShares(release, cellCount));
  const synthetic = real.map((_, i) => mean(releaseShares.map((shares) => shares[i]!)));
  const bar = (i: number, kind: OverlayBar['kind']): OverlayBar => ({
    label: cells.labels[i]!,
    kind,
    real: real[i]!,
    synthetic: synthetic[i]!,
  });
  const dataCells = Array.from({ length: cellCount }, (_, i) => i).filter((i) => i !== cells.missingCell);
  const bars: OverlayBar[] = [];
  if (cells.kind === 'numeric') {
    for (const i of dataCells) bars.push(bar(i, 'bin'));
  } else {
    const order = dataCells
      .filter((i) => real[i]! > 0 || synthetic[i]! > 0)
      .sort(
        (a, b) =>
          real[b]! + synthetic[b]! - (real[a]! + synthetic[a]!) ||
          (cells.labels[a]! < cells.labels[b]! ? -1 : 1),
      );
    const shown =
      order.length > MARGINAL_MAX_LEVEL_BARS ? order.slice(0, MARGINAL_MAX_LEVEL_BARS - 1) : order;
    for (const i of shown) bars.push(bar(i, 'level'));
    const pooled = order.slice(shown.length);
    if (pooled.length > 0) {
      bars.push({
        label: `${pooled.length} other levels`,
        kind: 'other',
        real: pooled.reduce((sum, i) => sum + real[i]!, 0),
        synthetic: pooled.reduce((sum, i) => sum + synthetic[i]!, 0),
      });
    }
  }
  if (cells.missingCell !== null) bars.push(bar(cells.missingCell, 'missing'));
  return bars;
}
