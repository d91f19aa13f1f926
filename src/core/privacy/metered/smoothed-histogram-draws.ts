import { throwIfAborted } from '../../abort';
import type { AbortSignalLike } from '../../abort';
import { Rational } from '../../rng/rational';
import type { Rng } from '../../rng/types';
import { uniformInt } from '../../rng/uniform-int';
import type { ChargeableStep } from '../meter';
import { describeQuery, type QueryKind } from '../query-sensitivity';
import { pureCost } from './costs';
import { smoothingWeight } from './smoothing-weight';

const ROWS_BETWEEN_CHECKS = 65_536;

/**
 * `rows` independent cells from the smoothed histogram q = (1 − λ)·p̂ + λ·Uniform(K) (DIPS eq. 6),
 * sampled as the mixture it is: with probability λ a uniform cell of the domain, otherwise the cell
 * of a uniformly chosen real row (which is a draw from p̂ exactly). No array over the domain is
 * built, so memory is O(n + rows) whatever K is. The branch is taken when a 53-bit uniform is < λ,
 * which happens with probability ≥ λ (see smoothingWeight). Checks the abort signal every 65,536 rows.
 */
function drawSmoothedHistogramCells(
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

/**
 * What fixes λ: the ε of the whole design, spent by `calls` equal calls of `rows` draws each (M releases
 * of n rows: M calls; T = M·n rows from one histogram).
 */
export interface SmoothingDesign {
  /** ε spent by all calls together. */
  epsilon: Rational;
  /** Number of calls (releases) that draw from this histogram, each with the same number of rows. */
  calls: number;
}

/**
 * `rows` cells drawn from Wasserman & Zhou's smoothed histogram q = (1 − λ)·p̂ + λ·Uniform(K) of the real
 * rows' cells (DIPS §3.1.2, eqs. 6–7), metered: the sampling is the mechanism. λ is computed HERE, from
 * T = calls·rows and the design's ε rounded down: λ = smoothingWeight(K, n, T, ε) ≥ K/(K + n(e^(ε/T) − 1))
 * (smoothing-weight.ts derives it), so each drawn row is (ε/T)-DP — one draw's probability ratio between
 * neighbours is at most 1 + (1 − λ)K/(nλ) ≤ e^(ε/T) — and this call's `rows` draws are (ε/calls)-DP.
 * Before the first draw it charges `step` ε/calls — (ε/calls, 0), or its square over 2 on a zCDP step —
 * so the design's calls charge ε exactly. With n = 0 or no rows, λ = 1 and the rows carry nothing of the
 * data; the call still charges its share of the claim.
 *
 * `query` must be counts over a partition (the cells of the domain), under replace-one: λ reads n, public
 * only there. Add-remove is refused: n would be private, and the analysis changes (n in every q_k).
 * n = `cellOfRealRow.length`. Returns the drawn cells; O(n + rows) memory whatever K is.
 */
export function meteredSmoothedHistogramDraws(
  step: ChargeableStep,
  query: QueryKind,
  cellOfRealRow: Uint32Array,
  domainCells: number,
  rows: number,
  design: SmoothingDesign,
  rng: Rng,
  signal: AbortSignalLike,
  onProgress?: (fraction: number) => void,
): Uint32Array {
  if (query.kind !== 'partition-counts') {
    throw new RangeError(
      `a smoothed histogram is drawn from counts over a partition, not ${describeQuery(query)}`,
    );
  }
  if (step.neighbouring !== 'replace-one') {
    throw new RangeError(
      'the smoothed histogram sets λ from n, which is public only under replace-one neighbours; it cannot run under add-remove',
    );
  }
  if (!(Number.isSafeInteger(design.calls) && design.calls >= 1)) {
    throw new RangeError(`a smoothed-histogram design has a whole number of calls >= 1; got ${design.calls}`);
  }
  const n = cellOfRealRow.length;
  const lambda = smoothingWeight(domainCells, n, design.calls * rows, design.epsilon.toNumberDown());
  step.charge(pureCost(step, design.epsilon.div(Rational.of(design.calls)), false));
  return drawSmoothedHistogramCells(rng, cellOfRealRow, domainCells, lambda, rows, signal, onProgress);
}
