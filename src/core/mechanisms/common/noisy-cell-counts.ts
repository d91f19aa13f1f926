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
import {
  LARGEST_SKIPPING_RATE,
  makeSparseNoiseSamplers,
  perturbCellCountsSparsely,
  type NoisyPositiveCells,
  type SparseNoiseSamplers,
} from './sparse-cell-noise';
import type { AbortSignalLike } from '../types';

export { CROSS_TABULATION_SENSITIVITY_REPLACE_ONE } from './count-sensitivity';
export { expectedPositiveNoise, noiseDominanceWarning } from './noise-dominance';
export type { NoisyPositiveCells } from './sparse-cell-noise';

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

/** Samplers by scale, most recently used last: they hold no state, and sweeps and releases reuse them. */
const samplersByScale = new Map<string, SparseNoiseSamplers>();
const SAMPLER_SCALES_KEPT = 16;

function sparseNoiseSamplersFor(scale: Rational): SparseNoiseSamplers {
  const key = scale.toString();
  const samplers = samplersByScale.get(key) ?? makeSparseNoiseSamplers(scale);
  samplersByScale.delete(key);
  samplersByScale.set(key, samplers);
  if (samplersByScale.size > SAMPLER_SCALES_KEPT)
    samplersByScale.delete(samplersByScale.keys().next().value!);
  return samplers;
}

export interface CountNoiseOptions {
  /** Size K of the domain: every cell 0 … K − 1 gets noise, empty or not. */
  domainCells: number;
  repair: NoisyCountRepair;
  /** Public row count n, the upper clamp of 'boundary-inflated'. */
  nRows: number;
  signal: AbortSignalLike;
  /** Called with the fraction of the domain done. */
  onProgress?: (fraction: number) => void;
  /** L1 sensitivity Δ of the whole table of counts (default 2: a cross-tabulation under replace-one). */
  sensitivity?: number;
}

/**
 * The Laplace sanitizer at ε with sensitivity Δ on a whole cross-tabulation: every cell of the domain
 * gets exact discrete Laplace noise of scale Δ/ε, the counts are repaired, and the positive cells
 * kept. Time O(occupied + kept cells) by exact geometric skipping over empty cells
 * (perturbCellCountsSparsely); for ε/Δ above 64, O(K) with the dense loop. Both give every cell the
 * same noise law. Throws InputError when the scale is too large to sample (see LARGEST_COUNT_NOISE_SCALE).
 */
export function perturbCellCounts(
  rng: Rng,
  counts: SparseCellCounts,
  epsilon: Rational,
  options: CountNoiseOptions,
): NoisyPositiveCells {
  const sensitivity = options.sensitivity ?? CROSS_TABULATION_SENSITIVITY_REPLACE_ONE;
  const scale = checkedCountNoiseScale(epsilon, sensitivity);
  const rate = Rational.ONE.div(scale);
  if (rate.compare(LARGEST_SKIPPING_RATE) > 0) {
    return perturbAllCellCounts(rng, counts, makeDiscreteLaplaceSampler(scale), {
      ...options,
      sampleEmptyCellNoise: makeDiscreteLaplacePositivePartSampler(scale),
    });
  }
  return perturbCellCountsSparsely(rng, counts, sparseNoiseSamplersFor(scale), {
    domainCells: options.domainCells,
    upper: options.repair === 'boundary-inflated' ? options.nRows : Infinity,
    signal: options.signal,
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
  });
}

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
