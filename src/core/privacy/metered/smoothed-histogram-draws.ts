import { uniformInt } from '../../rng/uniform-int';
import type { Rng } from '../../rng/types';
import { throwIfAborted } from '../../abort';
import type { AbortSignalLike } from '../types';

const ROWS_BETWEEN_CHECKS = 65_536;

/**
 * `rows` independent cells from the smoothed histogram q = (1 − λ)·p̂ + λ·Uniform(K) (DIPS eq. 6),
 * sampled as the mixture it is: with probability λ a uniform cell of the domain, otherwise the cell
 * of a uniformly chosen real row (which is a draw from p̂ exactly). No array over the domain is
 * built, so memory is O(n + rows) whatever K is. The branch is taken when a 53-bit uniform is < λ,
 * which happens with probability ≥ λ (see smoothingWeight). Checks the abort signal every 65,536 rows.
 */
export function drawSmoothedHistogramCells(
  rng: Rng,
  cellOfRealRow: Uint32Array,
  domainCells: number,
  lambda: number,
  rows: number,
  signal: AbortSignalLike,
  onProgress?: (fraction: number) => void,
): Uint32Array {
  const n = cellOfRealRow.length;
  const cells = new Uint32Array(rows);
  for (let r = 0; r < rows; r++) {
    if (r % ROWS_BETWEEN_CHECKS === 0) {
      throwIfAborted(signal);
      onProgress?.(r / rows);
    }
    cells[r] =
      n === 0 || rng.nextFloat() < lambda ? uniformInt(rng, domainCells) : cellOfRealRow[uniformInt(rng, n)]!;
  }
  return cells;
}
