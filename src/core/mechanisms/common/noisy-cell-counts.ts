import { roundUp, roundUpRational } from '../../privacy/round-up';
import { makeDiscreteLaplaceSampler } from '../../rng/discrete-laplace';
import { Rational } from '../../rng/rational';
import type { Rng } from '../../rng/types';
import { throwIfAborted } from '../../table/abort';
import { InputError } from '../../table/errors';
import { formatCount } from './format-count';
import { GrowableCellWeights } from './growable-cells';
import type { SparseCellCounts } from './sparse-cell-counts';
import type { AbortSignalLike } from '../types';

/**
 * L1 sensitivity of a full cross-tabulation under replace-one neighbours: the replaced row leaves
 * one cell (−1) and enters another (+1), so ‖n − n′‖₁ ≤ 2 (DIPS study §3.1.1, Bowen & Liu;
 * DESIGN.md privacy rule 1). The study's simulations use 1, which is the add/remove value.
 */
export const CROSS_TABULATION_SENSITIVITY_REPLACE_ONE = 2;

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
  const scale = countNoiseScale(epsilon, sensitivity);
  if (scale.toNumber() > LARGEST_COUNT_NOISE_SCALE) {
    throw new InputError(
      `ε = ${roundUpRational(epsilon)} per count gives a noise scale of ${scale.toNumber().toPrecision(3)}, above ` +
        `${LARGEST_COUNT_NOISE_SCALE.toExponential(2)}: the counts would be pure noise and cannot be sampled ` +
        'exactly. Use a larger ε or fewer releases.',
    );
  }
  return makeDiscreteLaplaceSampler(scale);
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
}

const CELLS_BETWEEN_CHECKS = 65_536;

/**
 * The Laplace sanitizer on a whole cross-tabulation (DIPS §3.1.1–3.1.2): n*_k = n_k + e_k for
 * every cell k of the domain, e_k drawn independently by `sampleNoise`, then repaired; only cells
 * whose repaired count is positive are kept, so memory grows with the number of positive noisy
 * cells, never with a dense array over the domain. Empty cells get noise like any other cell —
 * skipping them would reveal which cells are empty. Checks the abort signal every 65,536 cells.
 * Cost O(K) noise draws.
 */
export function perturbAllCellCounts(
  rng: Rng,
  counts: SparseCellCounts,
  sampleNoise: (rng: Rng) => number,
  options: CellNoiseOptions,
): NoisyPositiveCells {
  const { domainCells, repair, nRows, signal, onProgress } = options;
  const upper = repair === 'boundary-inflated' ? nRows : Infinity;
  const kept = new GrowableCellWeights(Math.min(domainCells, Math.max(1024, 2 * counts.cells.length)));
  let next = 0;
  for (let cell = 0; cell < domainCells; cell++) {
    if (cell % CELLS_BETWEEN_CHECKS === 0) {
      throwIfAborted(signal);
      onProgress?.(cell / domainCells);
    }
    let count = 0;
    if (next < counts.cells.length && counts.cells[next] === cell) count = counts.counts[next++]!;
    const noisy = Math.min(upper, count + sampleNoise(rng));
    if (noisy > 0) kept.push(cell, noisy);
  }
  onProgress?.(1);
  return kept.toArrays();
}

/**
 * Expected positive part E[max(X, 0)] of one discrete Laplace draw X with P(X = k) ∝ e^(−|k|/b):
 * with q = e^(−1/b), Σ_{k≥1} k·(1 − q)/(1 + q)·q^k = q / (1 − q²). For counts at ε with L1
 * sensitivity 2, b = 2/ε. Example: ε = 1 → q = e^(−0.5) = 0.6065, E[X⁺] = 0.9596. Cost O(1).
 */
export function expectedPositiveNoise(
  epsilon: number,
  sensitivity = CROSS_TABULATION_SENSITIVITY_REPLACE_ONE,
): number {
  const q = Math.exp(-epsilon / sensitivity);
  return q / (1 - q * q);
}

/**
 * A public warning when noise would dominate the drawn rows: every one of the K cells gets noise,
 * and an empty cell keeps its positive part, about K·E[X⁺] in all, against the n real rows. When
 * that exceeds n, more than half of the synthetic rows are expected to land in cells drawn by
 * noise alone. From K, n and ε only. Example: K = 17,694,720, n = 10,000, ε = 1 → 99.9 %.
 */
export function noiseDominanceWarning(domainCells: number, n: number, releaseEpsilon: number): string[] {
  const noiseMass = domainCells * expectedPositiveNoise(releaseEpsilon);
  if (!(noiseMass > n)) return [];
  const share = noiseMass / (noiseMass + n);
  return [
    `With ${formatCount(domainCells)} cells, ${formatCount(n)} rows and ε = ` +
      `${roundUp(releaseEpsilon, 3)} per release, up to about ${(100 * share).toFixed(1)}% of the synthetic ` +
      'rows are expected to come from noise in cells the data may not occupy: choose fewer bins or columns, ' +
      'or spend more ε.',
  ];
}
