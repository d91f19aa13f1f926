import {
  checkedCountNoiseScale,
  CROSS_TABULATION_SENSITIVITY_REPLACE_ONE,
  repairUpper,
  type CountNoiseOptions,
  type NoisyCountRepair,
} from '../noisy-cell-counts';
import type { AbortSignalLike } from '../../abort';
import type { SparseCellCounts } from '../../cells/sparse-cell-counts';
import { makeDiscreteLaplaceSampler } from '../../rng/discrete-laplace';
import type { Rational } from '../../rng/rational';
import type { Rng } from '../../rng/types';
import type { ChargeableStep, StepCost } from '../meter';
import type { Neighbouring } from '../query-sensitivity';
import { drawNoisyPositiveCells, perturbEveryCell, type NoisyPositiveCells } from './sparse-cell-noise';

/**
 * For tests that call a metered primitive many times outside a run (statistical and empirical privacy
 * tests): a step with no plan that keeps every charge it is given, so the test can also check them.
 */
export function recordingStep(
  notion: StepCost['notion'] = 'zcdp',
  neighbouring: Neighbouring = 'replace-one',
): ChargeableStep & { charges: StepCost[] } {
  const charges: StepCost[] = [];
  return {
    id: 0,
    what: 'test step',
    notion,
    neighbouring,
    charges,
    charge(cost: StepCost): void {
      charges.push(cost);
    },
  };
}

/**
 * For tests and benchmarks only, never a mechanism: the exact discrete Laplace sampler at scale Δ/ε
 * (default Δ = 2), unmetered, refused above LARGEST_COUNT_NOISE_SCALE like the mechanisms' scales.
 */
export function makeCountNoiseSampler(
  epsilon: Rational,
  sensitivity: number = CROSS_TABULATION_SENSITIVITY_REPLACE_ONE,
): (rng: Rng) => number {
  return makeDiscreteLaplaceSampler(checkedCountNoiseScale(epsilon, sensitivity));
}

/**
 * For tests and benchmarks only, never a mechanism: the Laplace sanitizer at ε with sensitivity Δ
 * (default 2) on a whole cross-tabulation, unmetered — the same draws as meteredNoisyPositiveCells at
 * scale Δ/ε (sparse-cell-noise.ts), with the repair as a mechanism states it.
 */
export function perturbCellCounts(
  rng: Rng,
  counts: SparseCellCounts,
  epsilon: Rational,
  options: CountNoiseOptions,
): NoisyPositiveCells {
  const scale = checkedCountNoiseScale(
    epsilon,
    options.sensitivity ?? CROSS_TABULATION_SENSITIVITY_REPLACE_ONE,
  );
  return drawNoisyPositiveCells(rng, counts, scale, {
    domainCells: options.domainCells,
    upper: repairUpper(options.repair, options.nRows),
    signal: options.signal,
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
  });
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

/**
 * For tests only, never a mechanism (it takes a raw sampler): the Laplace sanitizer with noise from `sampleNoise` on every cell of the domain (empty ones too),
 * repaired, positive cells kept: the dense loop of sparse-cell-noise.ts, for tests
 * that compare it with other samplers. Cost O(K) noise draws.
 */
export function perturbAllCellCounts(
  rng: Rng,
  counts: SparseCellCounts,
  sampleNoise: (rng: Rng) => number,
  options: CellNoiseOptions,
): NoisyPositiveCells {
  return perturbEveryCell(rng, counts, sampleNoise, {
    domainCells: options.domainCells,
    upper: repairUpper(options.repair, options.nRows),
    signal: options.signal,
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    ...(options.sampleEmptyCellNoise ? { sampleEmptyCellNoise: options.sampleEmptyCellNoise } : {}),
  });
}
