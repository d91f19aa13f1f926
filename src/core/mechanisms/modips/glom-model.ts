import { choleskyLower } from '../../linalg/cholesky';
import { projectToPositiveDefinite } from '../../linalg/nearest-positive-definite';
import type { GlomStatistics } from '../../models/glom-statistics';
import { makeNormalSampler, sampleInverseWishart } from '../../rng/continuous';
import { parseRational, Rational } from '../../rng/rational';
import type { Rng } from '../../rng/types';
import type { RealStatistic } from '../../privacy/query-sensitivity';
import {
  GRID_STEPS_PER_SENSITIVITY,
  noisyCount,
  noisyCounts,
  noisySymmetricOnGrid,
  noisyVectorOnGrid,
  type MeteredShare,
} from '../common/noisy-counts/grid-noise';

/**
 * Replace-one sensitivities with n public and widths w_j = hi_j − lo_j (re-derived here; the paper's
 * (c₁ − c₀)/n_k for a cell mean divides by a count that itself changes, so cell sums are released instead):
 * - cell sums of column j, as one vector over the cells: the replaced row leaves its cell (the sum moves
 *   by |a − c_j| <= w_j/2) and joins one (|b − c_j| <= w_j/2), or stays (|a − b| <= w_j): L1 <= w_j;
 * - scatter entry (j, l): adding a point x to a cell of m points with mean μ adds
 *   m/(m + 1)·(x − μ)(x − μ)ᵀ, removing one subtracts the same form, each term below w_j·w_l in
 *   absolute value and the diagonal terms non-negative; so a replacement (moving cells or not) changes a
 *   diagonal entry by less than w_j² and an off-diagonal entry by less than 2·w_j·w_l (reached as
 *   m → ∞ with x − μ = (w, w) added and (w, −w) removed);
 * - counts: the cross-tabulation, L1 sensitivity 2; each missing count, 1.
 */
export function glomSensitivities(bounds: readonly (readonly [number, number])[]): {
  sums: Rational[];
  scatter: Rational[][];
} {
  const widths = bounds.map(([lo, hi]) => parseRational(hi).sub(parseRational(lo)));
  return {
    sums: widths,
    scatter: widths.map((wj, j) =>
      widths.map((wl, l) => (j === l ? wj.mul(wj) : Rational.of(2).mul(wj).mul(wl))),
    ),
  };
}

/**
 * ε and step of each statistic in one release: the cell counts, each column's sum vector, each scatter
 * entry (scatter[j][l], mirrored) and each column's missing count (null for a column that cannot be
 * missing: its count is 0 by the schema and gets no noise and no budget).
 */
export interface GlomStatisticBudget {
  counts: MeteredShare;
  sums: MeteredShare[];
  scatter: MeteredShare[][];
  missing: (MeteredShare | null)[];
}

/**
 * The statistics as the query table names them (privacy/query-sensitivity.ts): each column's cell sums
 * of values centred in [−w_j/2, w_j/2] over the cells, and each scatter entry of widths (w_j, w_l);
 * their sensitivities are those of glomSensitivities.
 */
export function glomStatisticQueries(bounds: readonly (readonly [number, number])[]): {
  sums: RealStatistic[];
  scatter: RealStatistic[][];
} {
  const widths = bounds.map(([lo, hi]) => parseRational(hi).sub(parseRational(lo)));
  const half = Rational.of(1, 2);
  return {
    sums: widths.map((w) => ({
      kind: 'partition-clipped-sums',
      lower: w.mul(half).neg(),
      upper: w.mul(half),
    })),
    scatter: widths.map((wj, j) =>
      widths.map((wl, l) => ({ kind: 'pooled-scatter-entry', widths: [wj, wl], diagonal: j === l })),
    ),
  };
}

/**
 * The noisy statistics, before any repair, each through the privacy meter on its own step: counts with
 * exact discrete Laplace noise of scale 2/ε (counts of a partition, sensitivity 2), each column's cell
 * sums on the grid w_j/100 with noise of 102 grid steps/ε (noisyVectorOnGrid, two cells change), each
 * scatter entry on a grid of 1/100 of its sensitivity with noise of 101 grid steps/ε (noisyOnGrid), each
 * missing count with noise of scale 1/ε (none for a complete column, whose count is 0 by the schema).
 */
export function sanitizeGlomStatistics(
  rng: Rng,
  statistics: GlomStatistics,
  bounds: readonly (readonly [number, number])[],
  budget: GlomStatisticBudget,
): GlomStatistics {
  const queries = glomStatisticQueries(bounds);
  const counts = noisyCounts(
    budget.counts.step,
    { kind: 'partition-counts' },
    statistics.counts,
    budget.counts.epsilon,
    rng,
  );
  const sums = statistics.sums.map((sum, j) =>
    noisyVectorOnGrid(budget.sums[j]!.step, queries.sums[j]!, sum, budget.sums[j]!.epsilon, rng),
  );
  const scatter = noisySymmetricOnGrid(budget.scatter, queries.scatter, statistics.scatter, rng);
  const missing = statistics.missing.map((count, j) => {
    const share = budget.missing[j] ?? null;
    return share === null ? count : noisyCount(share.step, count, share.epsilon, rng);
  });
  return { counts, sums, scatter, missing };
}

/**
 * The smallest eigenvalue kept when the noisy scatter is made positive definite: one grid step of the
 * smallest diagonal sensitivity, min_j w_j²/100. Public (bounds only).
 */
export function scatterEigenvalueFloor(bounds: readonly (readonly [number, number])[]): number {
  return Math.min(...bounds.map(([lo, hi]) => (hi - lo) ** 2)) / GRID_STEPS_PER_SENSITIVITY;
}

/**
 * The repaired noisy statistics (post-processing, no privacy cost): counts and missing counts
 * clamped to [0, n] (boundary inflated truncation, Liu 2016c); the scatter projected to eigenvalues
 * >= scatterEigenvalueFloor; each cell mean x̄*_kj = c_j + sum*_kj / max(n*_k, 1) clamped into
 * [lo_j, hi_j] (an empty or negative noisy cell gets the clamped sum over one row).
 */
export interface RepairedGlomStatistics {
  counts: Float64Array;
  /** means[k][j] on the data's scale. */
  means: Float64Array[];
  scatter: number[][];
  missing: number[];
}

export function repairGlomStatistics(
  noisy: GlomStatistics,
  n: number,
  bounds: readonly (readonly [number, number])[],
): RepairedGlomStatistics {
  const clampCount = (count: number) => Math.min(n, Math.max(0, count));
  const counts = noisy.counts.map(clampCount);
  const means = Array.from(counts, (count, k) =>
    Float64Array.from(bounds, ([lo, hi], j) => {
      const mean = (lo + hi) / 2 + noisy.sums[j]![k]! / Math.max(count, 1);
      return Math.min(hi, Math.max(lo, mean));
    }),
  );
  const scatter = projectToPositiveDefinite(noisy.scatter, scatterEigenvalueFloor(bounds));
  return { counts, means, scatter, missing: noisy.missing.map(clampCount) };
}

/** One posterior draw of the numeric part: Σ* and a sampler of μ*_k for the cells that get rows. */
export interface GlomNumericPosterior {
  covariance: number[][];
  /** Lower Cholesky factor of the covariance. */
  covarianceRoot: number[][];
  /** μ*_k for cell k, drawn on first use. */
  cellMean: (cell: number) => Float64Array;
}

/**
 * The posterior of the numeric part given repaired statistics (DIPS §4.3.1, prior f(μ, Σ) ∝ |Σ⁻¹|):
 * Σ* ~ Inv-Wishart(n − K, W*) and μ*_k ~ N_p(x̄*_k, Σ* / max(n*_k, 1)),
 * with n*_k the repaired noisy count. μ*_k is drawn only for cells that receive synthetic rows (the
 * others are never seen), in cell order of first use. Requires n − K > p − 1 (check() ensures n − K >= p + 2).
 */
export function drawGlomPosterior(
  rng: Rng,
  repaired: RepairedGlomStatistics,
  degreesOfFreedom: number,
): GlomNumericPosterior {
  const covariance = sampleInverseWishart(rng, degreesOfFreedom, repaired.scatter);
  const covarianceRoot = choleskyLower(covariance);
  const normal = makeNormalSampler(rng);
  const p = covariance.length;
  const drawn = new Map<number, Float64Array>();
  const cellMean = (cell: number) => {
    const known = drawn.get(cell);
    if (known) return known;
    const shrink = 1 / Math.sqrt(Math.max(repaired.counts[cell]!, 1));
    const z = Array.from({ length: p }, () => normal(0, 1));
    const mean = Float64Array.from(repaired.means[cell]!, (centre, j) => {
      let s = 0;
      for (let l = 0; l <= j; l++) s += covarianceRoot[j]![l]! * z[l]!;
      return centre + shrink * s;
    });
    drawn.set(cell, mean);
    return mean;
  };
  return { covariance, covarianceRoot, cellMean };
}

/**
 * The numeric values of n synthetic rows: row i in cell k gets μ*_k + L·z with z ~ N_p(0, I),
 * clamped into the bounds (boundary inflated truncation) and rounded for integer columns. Returns one
 * Float64Array per numeric column. Cost O(n·p²).
 */
export function drawGlomValues(
  rng: Rng,
  posterior: GlomNumericPosterior,
  cellOfRow: Uint32Array,
  bounds: readonly (readonly [number, number])[],
  integer: readonly boolean[],
): Float64Array[] {
  const n = cellOfRow.length;
  const p = bounds.length;
  const normal = makeNormalSampler(rng);
  const values = bounds.map(() => new Float64Array(n));
  const limits = bounds.map(([lo, hi], j) => (integer[j] ? [Math.ceil(lo), Math.floor(hi)] : [lo, hi]));
  const z = new Float64Array(p);
  const root = posterior.covarianceRoot;
  for (let i = 0; i < n; i++) {
    const mean = posterior.cellMean(cellOfRow[i]!);
    for (let j = 0; j < p; j++) z[j] = normal(0, 1);
    for (let j = 0; j < p; j++) {
      let s = mean[j]!;
      for (let l = 0; l <= j; l++) s += root[j]![l]! * z[l]!;
      if (integer[j]) s = Math.round(s);
      values[j]![i] = Math.min(limits[j]![1]!, Math.max(limits[j]![0]!, s));
    }
  }
  return values;
}
