import { roundUpRational } from '../../privacy/round-up';
import {
  makeDiscreteLaplacePositivePartSampler,
  makeDiscreteLaplaceSampler,
} from '../../rng/discrete-laplace';
import { Rational } from '../../rng/rational';
import type { Rng } from '../../rng/types';
import { throwIfAborted } from '../../abort';
import { InputError } from '../../table/errors';
import { CROSS_TABULATION_SENSITIVITY_REPLACE_ONE } from './count-sensitivity';
import { GrowableCellWeights } from './growable-cells';
import type { SparseCellCounts } from './sparse-cell-counts';
import type { AbortSignalLike } from '../types';

export { CROSS_TABULATION_SENSITIVITY_REPLACE_ONE } from './count-sensitivity';
export { expectedPositiveNoise, noiseDominanceWarning } from './noise-dominance';

/**
 * The discrete Laplace scale t = Δ/ε for noisy counts, exactly as a rational. Adding independent
 * noise P(z) ∝ exp(−|z|/t) to every cell of a query with L1 sensitivity Δ is ε-DP
 * (Canonne, Kamath & Steinke 2020, §5.2; the discrete analogue of DIPS Definition 3).
 * Example: ε = 1/2, Δ = 2 → t = 4.
 */
export function countNoiseScale(
  epsilon: Rational,
  sensitivity: number = CROSS_TABULATION_SENSITIVITY_REPLACE_ONE,
): Rational {
  return Rational.of(sensitivity).div(epsilon);
}

/**
 * Largest noise scale accepted: 2^40. A discrete Laplace draw then exceeds 2^53 (beyond exact
 * integers in a double) with probability about e^(−2^53/2^40) = e^(−8192), i.e. never; larger
 * scales (ε below about 2·10⁻¹² per count) are refused up front instead of failing mid-run.
 */
export const LARGEST_COUNT_NOISE_SCALE = 2 ** 40;

/** The exact discrete Laplace sampler for noisy counts at this ε (scale 2/ε by default). */
export function makeCountNoiseSampler(
  epsilon: Rational,
  sensitivity: number = CROSS_TABULATION_SENSITIVITY_REPLACE_ONE,
): (rng: Rng) => number {
  return makeDiscreteLaplaceSampler(checkedCountNoiseScale(epsilon, sensitivity));
}

/**
 * The exact sampler of the positive part max(e, 0) of the same noise, for empty cells, whose
 * non-positive noisy counts are dropped: same law for what is kept, fewer random draws.
 */
export function makeEmptyCellNoiseSampler(
  epsilon: Rational,
  sensitivity: number = CROSS_TABULATION_SENSITIVITY_REPLACE_ONE,
): (rng: Rng) => number {
  return makeDiscreteLaplacePositivePartSampler(checkedCountNoiseScale(epsilon, sensitivity));
}

function checkedCountNoiseScale(epsilon: Rational, sensitivity: number): Rational {
  const scale = countNoiseScale(epsilon, sensitivity);
  if (scale.toNumber() > LARGEST_COUNT_NOISE_SCALE) {
    throw new InputError(
      `ε = ${roundUpRational(epsilon)} per count gives a noise scale of ${scale.toNumber().toPrecision(3)}, above ` +
        `${LARGEST_COUNT_NOISE_SCALE.toExponential(2)}: the counts would be pure noise and cannot be sampled ` +
        'exactly. Use a larger ε or fewer releases.',
    );
  }
  return scale;
}

/**
 * How noisy counts are made legitimate (post-processing, so no privacy cost; DIPS §3.1.2):
 * - 'zero': negative counts become 0 (Barak et al. 2007);
 * - 'boundary-inflated': counts are clamped to [0, n], the mass outside piling up on the
 *   boundaries (boundary inflated truncation, Liu 2016c; DIPS §4.1).
 */
export type NoisyCountRepair = 'zero' | 'boundary-inflated';

/** The positive cells after noise and repair: the DP output the rows are then drawn from. */
export interface NoisyPositiveCells {
  /** Increasing cell indices whose repaired noisy count is > 0. */
  cells: Uint32Array;
  /** The repaired noisy count of each listed cell. */
  weights: Float64Array;
}

export interface CellNoiseOptions {
  /** Size K of the domain: every cell 0 … K − 1 gets noise, empty or not. */
  domainCells: number;
  repair: NoisyCountRepair;
  /** Public row count n, the upper clamp of 'boundary-inflated'. */
  nRows: number;
  signal: AbortSignalLike;
  /** Called with the fraction of cells done, every few tens of thousands of cells. */
  onProgress?: (fraction: number) => void;
  /**
   * Draws max(e, 0) for the same noise law as `sampleNoise` (makeEmptyCellNoiseSampler); used for
   * empty cells, where a non-positive noisy count is dropped anyway. Without it, empty cells use
   * `sampleNoise`.
   */
  sampleEmptyCellNoise?: (rng: Rng) => number;
}

const CELLS_BETWEEN_CHECKS = 65_536;

/**
 * The Laplace sanitizer on a whole cross-tabulation (DIPS §3.1.1–3.1.2): n*_k = n_k + e_k for
 * every cell k of the domain, e_k drawn independently by `sampleNoise`, then repaired; only cells
 * whose repaired count is positive are kept, so memory grows with the number of positive noisy
 * cells, never with a dense array over the domain. Empty cells get noise like any other cell —
 * skipping them would reveal which cells are empty. An empty cell may draw only the positive part
 * of its noise (options.sampleEmptyCellNoise): its kept value has the same law, and what is
 * dropped was never released. Checks the abort signal every 65,536 cells. Cost O(K) noise draws.
 */
export function perturbAllCellCounts(
  rng: Rng,
  counts: SparseCellCounts,
  sampleNoise: (rng: Rng) => number,
  options: CellNoiseOptions,
): NoisyPositiveCells {
  const { domainCells, repair, nRows, signal, onProgress } = options;
  const emptyCellNoise = options.sampleEmptyCellNoise ?? sampleNoise;
  const upper = repair === 'boundary-inflated' ? nRows : Infinity;
  const kept = new GrowableCellWeights(Math.min(domainCells, Math.max(1024, 2 * counts.cells.length)));
  let next = 0;
  for (let cell = 0; cell < domainCells; cell++) {
    if (cell % CELLS_BETWEEN_CHECKS === 0) {
      throwIfAborted(signal);
      onProgress?.(cell / domainCells);
    }
    let noisy: number;
    if (next < counts.cells.length && counts.cells[next] === cell) {
      noisy = Math.min(upper, counts.counts[next++]! + sampleNoise(rng));
    } else {
      noisy = Math.min(upper, emptyCellNoise(rng));
    }
    if (noisy > 0) kept.push(cell, noisy);
  }
  onProgress?.(1);
  return kept.toArrays();
}
