import { makeNormalSampler, sampleInverseWishart } from '../../rng/continuous';
import { choleskyLower } from '../../linalg/cholesky';
import { parseRational, Rational } from '../../rng/rational';
import type { Rng } from '../../rng/types';
import type { RealStatistic } from '../../privacy/query-sensitivity';
import { projectToPositiveDefinite } from '../../linalg/nearest-positive-definite';
import { glomStatistics, type GlomNumericInput } from '../../models/glom-statistics';
import {
  GRID_STEPS_PER_SENSITIVITY,
  noisyCount,
  noisyOnGrid,
  noisySymmetricOnGrid,
  type MeteredShare,
} from '../common/noisy-counts/grid-noise';

/**
 * The statistics of the numeric block (Bowen & Liu §4.3.2: z̄ and S), over all n rows, each value
 * clamped into its bounds and a missing value counted at the midpoint c_j = (lo_j + hi_j)/2:
 * - centredMeans[j] = z̄_j − c_j;
 * - covariance[j][l] = S_jl = Σ_i (z_ij − z̄_j)(z_il − z̄_l)/(n − 1);
 * - missing[j] = the number of missing values of column j.
 */
export interface NumericBlockStatistics {
  centredMeans: number[];
  covariance: number[][];
  missing: number[];
}

/** The statistics above, with compensated sums (models/glom-statistics.ts, one cell). Requires n >= 2. Cost O(n·p²). */
export function numericBlockStatistics(
  columns: readonly GlomNumericInput[],
  n: number,
): NumericBlockStatistics {
  const one = glomStatistics(new Uint32Array(n), 1, columns);
  return {
    centredMeans: one.sums.map((sum) => sum[0]! / n),
    covariance: one.scatter.map((row) => row.map((entry) => entry / (n - 1))),
    missing: one.missing,
  };
}

/**
 * Replace-one sensitivities with n public and widths w_j = hi_j − lo_j (the paper's values, §4.3.2,
 * re-derived for replacing a row; the README gives the proof):
 * - z̄_j: one value moves by at most w_j, so z̄_j by at most w_j/n;
 * - S_jl: with μ the mean of the n − 1 unchanged rows, Σ_i (z_i − z̄)(z_i − z̄)ᵀ = W₀ + (n − 1)/n·(z − μ)(z − μ)ᵀ
 *   for the row z, W₀ the scatter of the others; so replacing z by z′ moves S_jl by
 *   |P(z) − P(z′)|/n with P(z) = (z_j − μ_j)(z_l − μ_l). Over the box, P spans at most w_j·w_l
 *   (j = l: [0, w_j²]; j ≠ l: the largest minus the smallest corner product, at most w_j·w_l for any μ
 *   in the box), so S_jl moves by at most w_j·w_l/n (diagonal and off-diagonal alike).
 * Exact rationals from the declared bounds.
 */
export function numericBlockSensitivities(
  n: number,
  bounds: readonly (readonly [number, number])[],
): { means: Rational[]; covariance: Rational[][] } {
  const size = Rational.of(n);
  const widths = bounds.map(([lo, hi]) => parseRational(hi).sub(parseRational(lo)));
  return {
    means: widths.map((w) => w.div(size)),
    covariance: widths.map((wj) => widths.map((wl) => wj.mul(wl).div(size))),
  };
}

/**
 * ε and step of each statistic of one release: every mean, every covariance entry (mirrored), every
 * missing count (null for a column that cannot be missing: its count is 0 by the schema, not measured).
 */
export interface NumericBlockBudget {
  means: MeteredShare[];
  covariance: MeteredShare[][];
  missing: (MeteredShare | null)[];
}

/**
 * The statistics as the query table names them (privacy/query-sensitivity.ts): z̄_j − c_j the mean of
 * values centred in [−w_j/2, w_j/2] over the public n, S_jl the covariance entry of widths (w_j, w_l);
 * their sensitivities are those of numericBlockSensitivities.
 */
export function numericBlockQueries(
  n: number,
  bounds: readonly (readonly [number, number])[],
): { means: RealStatistic[]; covariance: RealStatistic[][] } {
  const widths = bounds.map(([lo, hi]) => parseRational(hi).sub(parseRational(lo)));
  const half = Rational.of(1, 2);
  return {
    means: widths.map((w) => ({
      kind: 'clipped-mean',
      lower: w.mul(half).neg(),
      upper: w.mul(half),
      rows: n,
    })),
    covariance: widths.map((wj) =>
      widths.map((wl) => ({ kind: 'covariance-entry', widths: [wj, wl], rows: n })),
    ),
  };
}

/**
 * The noisy statistics, each through the privacy meter on its own step: each z̄_j − c_j and each S_jl
 * (j <= l) on a grid of 1/100 of its sensitivity with exact discrete Laplace noise of 101 grid steps/ε
 * (common/noisy-counts/grid-noise.ts, DESIGN.md rule 4), each missing count with exact discrete Laplace noise of
 * scale 1/ε (none for a complete column, whose count is 0 by the schema: a run whose data has a missing
 * value there is refused before this).
 */
export function sanitizeNumericBlock(
  rng: Rng,
  statistics: NumericBlockStatistics,
  n: number,
  bounds: readonly (readonly [number, number])[],
  budget: NumericBlockBudget,
): NumericBlockStatistics {
  const queries = numericBlockQueries(n, bounds);
  const centredMeans = statistics.centredMeans.map((mean, j) =>
    noisyOnGrid(budget.means[j]!.step, queries.means[j]!, mean, budget.means[j]!.epsilon, rng),
  );
  const covariance = noisySymmetricOnGrid(budget.covariance, queries.covariance, statistics.covariance, rng);
  const missing = statistics.missing.map((count, j) => {
    const share = budget.missing[j] ?? null;
    return share === null ? 0 : noisyCount(share.step, count, share.epsilon, rng);
  });
  return { centredMeans, covariance, missing };
}

/**
 * Post-processing (no privacy cost): means clamped into ±w_j/2 around the midpoint, missing counts to
 * [0, n], the covariance projected to eigenvalues >= one grid step of the smallest diagonal
 * sensitivity, min_j w_j²/(100·n) (Higham 1988, linalg/nearest-positive-definite.ts).
 */
export function repairNumericBlock(
  noisy: NumericBlockStatistics,
  n: number,
  bounds: readonly (readonly [number, number])[],
): NumericBlockStatistics {
  const floor = Math.min(...bounds.map(([lo, hi]) => (hi - lo) ** 2)) / (GRID_STEPS_PER_SENSITIVITY * n);
  return {
    centredMeans: noisy.centredMeans.map((mean, j) => {
      const half = (bounds[j]![1] - bounds[j]![0]) / 2;
      return Math.min(half, Math.max(-half, mean));
    }),
    covariance: projectToPositiveDefinite(noisy.covariance, floor),
    missing: noisy.missing.map((count) => Math.min(n, Math.max(0, count))),
  };
}

/**
 * One posterior draw and n rows of the numeric block (DIPS §4.3.2 with the prior f(μ, Σ) ∝ |Σ|^−(p+1)/2;
 * Gelman et al., BDA3 §3.6): Σ* ~ Inv-Wishart(n − 1, (n − 1)·S*), μ* ~ N_p(z̄*, Σ* / n), each row
 * N_p(μ*, Σ*) clamped into the bounds and rounded for integer columns. Requires n − 1 > p − 1.
 * Returns one Float64Array per column. Cost O(n·p²).
 */
export function drawNumericBlock(
  rng: Rng,
  repaired: NumericBlockStatistics,
  n: number,
  bounds: readonly (readonly [number, number])[],
  integer: readonly boolean[],
): Float64Array[] {
  const p = bounds.length;
  const scale = repaired.covariance.map((row) => row.map((entry) => (n - 1) * entry));
  const covariance = sampleInverseWishart(rng, n - 1, scale);
  const root = choleskyLower(covariance);
  const normal = makeNormalSampler(rng);
  const centre = bounds.map(([lo, hi], j) => (lo + hi) / 2 + repaired.centredMeans[j]!);
  const shrink = 1 / Math.sqrt(n);
  const z = new Float64Array(p);
  for (let j = 0; j < p; j++) z[j] = normal(0, 1);
  const mean = centre.map((c, j) => {
    let s = 0;
    for (let l = 0; l <= j; l++) s += root[j]![l]! * z[l]!;
    return c + shrink * s;
  });
  const limits = bounds.map(([lo, hi], j) => (integer[j] ? [Math.ceil(lo), Math.floor(hi)] : [lo, hi]));
  const values = bounds.map(() => new Float64Array(n));
  for (let i = 0; i < n; i++) {
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
