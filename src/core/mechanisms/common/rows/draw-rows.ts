import { sampleMultinomial } from '../../../rng/multinomial';
import type { Rng } from '../../../rng/types';
import { shuffleInPlace } from '../../../rng/shuffle';
import { uniformInt } from '../../../rng/uniform-int';

/**
 * The cell of each of `nRows` synthetic rows, drawn independently with P(cell[i]) ∝ weights[i]
 * (one multinomial draw of the cell counts, then the rows laid out and shuffled so that row order
 * carries no information about cell order). When every weight is 0 — possible after noisy counts
 * are clamped at 0 — the rows are drawn uniformly over the whole domain of `domainCells` cells,
 * a choice that does not depend on the data. Cost O(cells + nRows).
 */
export function drawCellsForRows(
  rng: Rng,
  nRows: number,
  cells: ArrayLike<number>,
  weights: Float64Array,
  domainCells: number,
): Uint32Array {
  const cellOfRow = new Uint32Array(nRows);
  let total = 0;
  for (let i = 0; i < weights.length; i++) total += weights[i]!;
  if (!(total > 0)) {
    for (let r = 0; r < nRows; r++) cellOfRow[r] = uniformInt(rng, domainCells);
    return cellOfRow;
  }
  const rowsPerCell = sampleMultinomial(rng, nRows, weights);
  let r = 0;
  for (let i = 0; i < rowsPerCell.length; i++) {
    const cell = cells[i]!;
    for (let c = rowsPerCell[i]!; c > 0; c--) cellOfRow[r++] = cell;
  }
  shuffleInPlace(rng, cellOfRow);
  return cellOfRow;
}
