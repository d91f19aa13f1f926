import { cellStrides, type ColumnCoding } from '../mechanisms/common/coding/column-coding';
import type { SparseCellCounts } from '../cells/sparse-cell-counts';
import { attributeSetKey, marginalCells, marginalStrides } from './count-source';

/**
 * Marginals summed from the sparse full cross-tabulation: each non-empty cell's levels (mixed radix,
 * last column fastest) added to the marginal cell they fall in. Integer counts, so each marginal
 * equals counting the rows on its attributes. Cost O(non-empty cells · Σ|attrs|).
 */
export function marginalsFromCells(
  codings: readonly ColumnCoding[],
  cells: SparseCellCounts,
  marginals: readonly (readonly number[])[],
): Map<string, Float64Array> {
  const strides = cellStrides(codings);
  const sizes = codings.map((coding) => coding.levels);
  const out = new Map<string, Float64Array>();
  const targets = marginals.map((attrs) => {
    const counts = new Float64Array(marginalCells(codings, attrs));
    out.set(attributeSetKey(attrs), counts);
    return { attrs, counts, strides: marginalStrides(codings, attrs) };
  });
  const level = new Array<number>(codings.length);
  for (let k = 0; k < cells.cells.length; k++) {
    const cell = cells.cells[k]!;
    for (let j = 0; j < codings.length; j++) level[j] = Math.floor(cell / strides[j]!) % sizes[j]!;
    const count = cells.counts[k]!;
    for (const target of targets) {
      let index = 0;
      target.attrs.forEach((a, q) => (index += level[a]! * target.strides[q]!));
      target.counts[index] += count;
    }
  }
  return out;
}
