import {
  checkedCountNoiseScale,
  CROSS_TABULATION_SENSITIVITY_REPLACE_ONE,
  repairUpper,
  type CountNoiseOptions,
} from '../../mechanisms/common/noisy-cell-counts';
import type { SparseCellCounts } from '../../mechanisms/common/sparse-cell-counts';
import { makeDiscreteLaplaceSampler } from '../../rng/discrete-laplace';
import type { Rational } from '../../rng/rational';
import type { Rng } from '../../rng/types';
import type { ChargeableStep, StepCost } from '../meter';
import type { Neighbouring } from '../query-sensitivity';
import { drawNoisyPositiveCells, type NoisyPositiveCells } from './sparse-cell-noise';

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
