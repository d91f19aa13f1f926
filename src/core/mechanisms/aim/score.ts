import { gridL1Error, SCORE_GRID } from '../common/graphical-models/grid-score';

/** √(2/π): E|Z| for Z ~ N(0, 1), the expected L1 error per cell of a measurement with σ = 1. */
export const HALF_NORMAL_MEAN = Math.sqrt(2 / Math.PI);

/**
 * AIM's quality score of a candidate marginal r (paper Alg. 1; private-pgm `worst_approximated`) on
 * the 2^−20 grid, exact as a bigint:
 *   q_r = w_r · (‖M_r(D) − M_r(p̂)‖₁ − √(2/π)·σ·cells_r),
 * the weighted error of the current model minus the error measuring r would itself bring. The L1 term
 * is an exact integer (grid-score.ts) that moves by at most 2 counts = 2·2^20 units under replace-one
 * (one row leaves one cell and enters another; p̂ and σ come from earlier outputs); the bias term does
 * not depend on the data and is rounded to the grid (an integer-valued double, exact as a bigint even
 * past 2^53). So q_r moves by at most 2·w_r·2^20, and Δ = 2·max w·2^20 bounds every score's change.
 * bigint, because w_r·σ·cells_r·2^20 passes 2^53 at small ε (σ in the thousands, weights in the hundreds).
 */
export function aimScore(
  answer: Float64Array,
  estimate: Float64Array,
  weight: number,
  sigma: number,
): bigint {
  const bias = Math.round(HALF_NORMAL_MEAN * sigma * answer.length * SCORE_GRID);
  return BigInt(weight) * (gridL1Error(answer, estimate) - BigInt(bias));
}
