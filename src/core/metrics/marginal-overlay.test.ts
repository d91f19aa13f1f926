import { describe, expect, it } from 'vitest';
import { tableFromColumns } from '../table';
import { encodeColumnCells, MISSING_CELL_LABEL } from './column-cells';
import { MARGINAL_MAX_LEVEL_BARS, marginalOverlay } from './marginal-overlay';

describe('marginalOverlay', () => {
  it('numeric: one bar per bin in order, the missing cell last, synthetic shares averaged over releases', () => {
    const real = tableFromColumns([{ name: 'x', kind: 'numeric', values: [0, 1, 2, null] }]);
    const first = tableFromColumns([{ name: 'x', kind: 'numeric', values: [0, 0, 2, 2] }]);
    const second = tableFromColumns([{ name: 'x', kind: 'numeric', values: [2, 2, 2, 2] }]);
    const bars = marginalOverlay(encodeColumnCells(real, [first, second], 'x', 2));
    // Pooled range [0, 2], bins [0, 1) and [1, 2]: real 1/4, 2/4, missing 1/4; releases 2/4, 2/4 and 0, 4/4.
    expect(bars).toEqual([
      { label: '0.0 – 1.0', kind: 'bin', real: 0.25, synthetic: 0.25 },
      { label: '1.0 – 2.0', kind: 'bin', real: 0.5, synthetic: 0.75 },
      { label: MISSING_CELL_LABEL, kind: 'missing', real: 0.25, synthetic: 0 },
    ]);
  });

  it('categorical: levels most frequent first (ties by token), no missing bar when nothing is missing', () => {
    const real = tableFromColumns([{ name: 'g', kind: 'categorical', values: ['b', 'a', 'a', 'c'] }]);
    const release = tableFromColumns([{ name: 'g', kind: 'categorical', values: ['c', 'b', 'a', 'c'] }]);
    const bars = marginalOverlay(encodeColumnCells(real, [release], 'g'));
    // a: 0.5 + 0.25, c: 0.25 + 0.5 (tie, a before c), b: 0.25 + 0.25.
    expect(bars.map((bar) => bar.label)).toEqual(['a', 'c', 'b']);
    expect(bars.every((bar) => bar.kind === 'level')).toBe(true);
  });

  it('pools the levels beyond the bar limit into one bar that keeps their shares', () => {
    const levels = Array.from({ length: 80 }, (_, i) => `L${String(i).padStart(2, '0')}`);
    const table = tableFromColumns([{ name: 'c', kind: 'categorical', values: levels }]);
    const bars = marginalOverlay(encodeColumnCells(table, [table], 'c'));
    expect(bars).toHaveLength(MARGINAL_MAX_LEVEL_BARS);
    const other = bars.at(-1)!;
    expect(other).toMatchObject({ kind: 'other', label: '31 other levels' });
    expect(other.real).toBeCloseTo(31 / 80, 12);
    expect(bars.reduce((sum, bar) => sum + bar.synthetic, 0)).toBeCloseTo(1, 12);
  });
});
