import { describe, expect, it } from 'vitest';
import { tvdKWay } from '../core/metrics/tvd';
import { tableFromColumns } from '../core/table';
import {
  MISSING_CELL_LABEL,
  cellShares,
  encodeColumnCells,
  formatBinLabel,
} from '../core/metrics/column-cells';
import { compareReleases, pairHeatmap } from './release-comparison';

const real = tableFromColumns([
  { name: 'x', kind: 'numeric', values: [0, 1, 2, 3, 4, 5, 6, 7, 8, 10] },
  { name: 'g', kind: 'categorical', values: ['a', 'a', 'b', 'b', 'b', 'c', 'c', 'c', 'c', null] },
]);
// Same columns; the dictionary lists "c" first and adds "d", so cells must be matched by token.
const synthetic = tableFromColumns([
  { name: 'x', kind: 'numeric', values: [0, 0, 0, 5, 5, 5, 10, 10, null, 2] },
  {
    name: 'g',
    kind: 'categorical',
    values: ['c', 'a', 'd', 'd', 'b', 'c', 'c', 'a', 'a', 'b'],
    dictionary: ['c', 'a', 'b', 'd'],
  },
]);

describe('column cells', () => {
  it('bin numeric values over the pooled range with a missing cell when any table has one', () => {
    const cells = encodeColumnCells(real, [synthetic], 'x', 5);
    // Pooled range [0, 10], width 2: bins [0,2) [2,4) [4,6) [6,8) [8,10], then (missing).
    expect(cells.labels).toEqual([
      '0.0 – 2.0',
      '2.0 – 4.0',
      '4.0 – 6.0',
      '6.0 – 8.0',
      '8.0 – 10.0',
      MISSING_CELL_LABEL,
    ]);
    expect(cells.missingCell).toBe(5);
    expect(Array.from(cells.real)).toEqual([0, 0, 1, 1, 2, 2, 3, 3, 4, 4]);
    expect(Array.from(cells.synthetic[0]!)).toEqual([0, 0, 0, 2, 2, 2, 4, 4, 5, 1]);
  });

  it('match categories by token across dictionaries, in first-seen order', () => {
    const cells = encodeColumnCells(real, [synthetic], 'g');
    expect(cells.labels).toEqual(['a', 'b', 'c', 'd', MISSING_CELL_LABEL]);
    expect(cells.missingCell).toBe(4);
    expect(cellShares(cells.real, cells.labels.length)).toEqual([0.2, 0.3, 0.4, 0, 0.1]);
    expect(cellShares(cells.synthetic[0]!, cells.labels.length)).toEqual([0.3, 0.2, 0.3, 0.2, 0]);
  });

  it('label bins with precision suited to their width', () => {
    expect(formatBinLabel(0, 0.25)).toBe('0.00 – 0.25');
    expect(formatBinLabel(1500, 2000)).toBe('1500 – 2000');
    expect(formatBinLabel(-10.24, -8.4)).toBe('−10.2 – −8.4');
  });
});

describe('release comparison', () => {
  it('gives TVD 0 and equal shares when the release equals the real table', () => {
    const comparison = compareReleases(real, [real, real]);
    expect(comparison.tvdOneWay).toEqual([0, 0]);
    expect(comparison.tvdTwoWay).toEqual([0, 0]);
    for (const overlay of comparison.overlays) {
      for (const cell of overlay.cells) expect(cell.synthetic).toBeCloseTo(cell.real, 15);
    }
  });

  it('agrees with the core TVD, overall and per column', () => {
    const comparison = compareReleases(real, [synthetic]);
    const oneWay = tvdKWay(real, synthetic, 1);
    expect(comparison.tvdOneWay[0]).toBe(oneWay.mean);
    expect(comparison.tvdTwoWay[0]).toBe(tvdKWay(real, synthetic, 2).mean);
    expect(comparison.overlays.map((overlay) => overlay.tvd)).toEqual(
      oneWay.subsets.map((subset) => subset.tvd),
    );
    // Column g by hand: ½(|.2−.3| + |.3−.2| + |.4−.3| + |0−.2| + |.1−0|) = 0.3.
    expect(comparison.overlays[1]!.tvd).toBeCloseTo(0.3, 12);
  });

  it('draws the pair heatmap whose TVD is the 2-way TVD of that pair', () => {
    const heatmap = pairHeatmap(real, synthetic, 'x', 'g');
    const twoWay = tvdKWay(real, synthetic, 2).subsets[0]!.tvd;
    // The grid sums shares of 1/n; the core divides integer counts once, so allow a few ulps.
    expect(heatmap.tvd).toBeCloseTo(twoWay, 12);
    const total = heatmap.real.flat().reduce((sum, share) => sum + share, 0);
    expect(total).toBeCloseTo(1, 12);
    expect(heatmap.rowLabels).toHaveLength(11);
    expect(heatmap.columnLabels).toEqual(['a', 'b', 'c', 'd', MISSING_CELL_LABEL]);
  });
});
