import type { SparseCellCounts } from '../../cells/sparse-cell-counts';
import type { Rational } from '../../rng/rational';
import type { Rng } from '../../rng/types';
import type { ChargeableStep } from '../meter';
import { querySensitivity, type QueryKind } from '../query-sensitivity';
import { pureCost } from './costs';
import {
  drawNoisyPositiveCells,
  type NoisyPositiveCells,
  type SparseNoiseOptions,
} from './sparse-cell-noise';

export type { NoisyPositiveCells, SparseNoiseOptions } from './sparse-cell-noise';

/**
 * The Laplace sanitizer over a partition, metered: y_k = min(upper, x_k + Z_k) with Z_k discrete Laplace
 * of scale t, P(z) ∝ exp(−|z|/t), independently in EVERY cell k of the K = `options.domainCells` cells
 * (empty ones too; `counts` lists the occupied cells), and only the cells with y_k > 0 returned
 * (Canonne, Kamath & Steinke 2020, Algorithm 2; DIPS §3.1.1–3.1.2). Before the first draw it charges
 * `step` ε = Δ₁/t, Δ₁ the L1 sensitivity of `query` under the step's relation (counts over a partition:
 * 2 under replace-one, 1 under add-remove) — (ε, 0) on an (ε, δ) step, ε²/2 on a zCDP step. Clamping
 * and dropping the non-positive cells are post-processing of the noisy vector, so they cost nothing.
 *
 * Draws: exact geometric skipping over empty cells when 1/t ≤ 64 (an empty cell is kept iff its noise is
 * positive, p = q/(1 + q); the gaps between kept empty cells are geometric, a kept value is 1 plus a
 * geometric variate; sparse-cell-noise.ts), else noise on every cell. Time O(occupied + kept cells)
 * or O(K); the abort signal is read every 16,384 kept empty cells or 65,536 cells.
 */
export function meteredNoisyPositiveCells(
  step: ChargeableStep,
  query: QueryKind,
  counts: SparseCellCounts,
  scale: Rational,
  rng: Rng,
  options: SparseNoiseOptions,
): NoisyPositiveCells {
  if (!scale.isPositive()) throw new RangeError(`the noise scale must be > 0; got ${scale.toString()}`);
  const { l1 } = querySensitivity(query, step.neighbouring);
  step.charge(pureCost(step, l1.div(scale), false));
  return drawNoisyPositiveCells(rng, counts, scale, options);
}
