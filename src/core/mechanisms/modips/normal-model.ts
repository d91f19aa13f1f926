import type { RealStatistic } from '../../privacy/query-sensitivity';
import { parseRational, Rational } from '../../rng/rational';
import { sampleInverseGamma, sampleNormal } from '../../rng/continuous';
import type { Rng } from '../../rng/types';
import type { NumericColumn } from '../../table/types';
import { shuffleInPlace } from '../../rng/shuffle';
import { noisyCount, noisyOnGrid, type MeteredShare } from '../common/noisy-counts/grid-noise';

/** The sufficient statistics of one numeric column under the normal model, over all n rows. */
export interface NormalStatistics {
  /** Rows whose value is missing. */
  missing: number;
  /** x̄ = Σ x_i / n, a missing value counted at the midpoint of the bounds. */
  mean: number;
  /**
   * x̄ − c₀, computed from the shifted values x_i − c₀ ∈ [0, c₁ − c₀]: the statistic that is put on the
   * grid, so that its rounding error stays far below one grid step even when the bounds are far from 0.
   */
  meanAboveLower: number;
  /** S² = Σ (x_i − x̄)² / (n − 1), missing values at the midpoint as for x̄. */
  variance: number;
}

/** Neumaier's compensated sum, so that x̄ and S² stay far below one grid step of error. */
function compensatedSum(values: Float64Array): number {
  let sum = 0;
  let compensation = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    const t = sum + v;
    compensation += Math.abs(sum) >= Math.abs(v) ? sum - t + v : v - t + sum;
    sum = t;
  }
  return sum + compensation;
}

/**
 * x̄, S² and the missing count of a column, values clamped into [lo, hi] and a missing value counted at
 * the midpoint (lo + hi)/2, so every row lies in [lo, hi] and the sensitivities below hold whatever
 * the data (Bowen & Liu §4.2: s = (x̄, S²); the missing count is added so missing values are
 * synthesized at a DP rate). Requires n >= 2. Cost O(n).
 */
export function normalStatistics(column: NumericColumn, lo: number, hi: number): NormalStatistics {
  const n = column.values.length;
  const imputed = new Float64Array(n);
  const midpoint = (lo + hi) / 2;
  let missing = 0;
  for (let i = 0; i < n; i++) {
    const v = column.values[i]!;
    if (column.missing[i] === 1 || Number.isNaN(v)) {
      missing++;
      imputed[i] = midpoint - lo;
    } else imputed[i] = Math.min(hi, Math.max(lo, v)) - lo;
  }
  const meanAboveLower = compensatedSum(imputed) / n;
  for (let i = 0; i < n; i++) imputed[i] = (imputed[i]! - meanAboveLower) ** 2;
  return { missing, mean: lo + meanAboveLower, meanAboveLower, variance: compensatedSum(imputed) / (n - 1) };
}

/**
 * Replace-one sensitivities of x̄ and S² for n values in [lo, hi], w = hi − lo (Liu 2016b; DIPS §4.2,
 * which states them with n fixed, i.e. already for replace-one):
 * - x̄: one value moves by at most w, so x̄ by at most w/n;
 * - S²: with ȳ the mean of the n − 1 other values, replacing a by b changes S² by
 *   (a − b)(a + b − 2ȳ)/n = ((a − ȳ)² − (b − ȳ)²)/n, at most w²/n in absolute value.
 * Exact rationals from the declared bounds.
 */
export function normalSensitivities(
  n: number,
  lo: number,
  hi: number,
): { mean: Rational; variance: Rational } {
  const width = parseRational(hi).sub(parseRational(lo));
  const size = Rational.of(n);
  return { mean: width.div(size), variance: width.mul(width).div(size) };
}

/** ε and step for each statistic of one column; `missing` null only when no value can be missing. */
export interface NormalStatisticBudget {
  missing: MeteredShare | null;
  mean: MeteredShare;
  variance: MeteredShare;
}

/**
 * The statistics as the query table names them (privacy/query-sensitivity.ts): x̄ − c₀ is the mean of
 * the shifted values in [0, c₁ − c₀] over the public n, S² the variance entry of values in an interval of
 * width c₁ − c₀ (its sensitivities are those of normalSensitivities).
 */
export function normalStatisticQueries(
  n: number,
  lo: number,
  hi: number,
): { mean: RealStatistic; variance: RealStatistic } {
  const width = parseRational(hi).sub(parseRational(lo));
  return {
    mean: { kind: 'clipped-mean', lower: Rational.ZERO, upper: width, rows: n },
    variance: { kind: 'covariance-entry', widths: [width, width], rows: n },
  };
}

/**
 * The sanitized statistics (Bowen & Liu §4.2): the missing count with exact discrete Laplace noise
 * (sensitivity 1), x̄ and S² on grids with discrete noise (grid-noise.ts), each through the privacy meter
 * on its own step; then boundary inflated truncation (Liu 2016c), i.e. clamping: the count to [0, n], x̄*
 * to [lo, hi], S²* to [0, w²/4 · n/(n − 1)] (the largest sample variance of n values in [lo, hi], Macleod
 * & Henderson 1984). Clamping is post-processing. The paper's other option, keeping only in-range draws,
 * is left out: its acceptance probability depends on the data, so it is not free post-processing.
 */
export function sanitizeNormalStatistics(
  rng: Rng,
  statistics: NormalStatistics,
  n: number,
  lo: number,
  hi: number,
  budget: NormalStatisticBudget,
): NormalStatistics {
  if (budget.missing === null && statistics.missing > 0)
    throw new Error('sanitizeNormalStatistics: missing values present but no budget for their count.');
  const queries = normalStatisticQueries(n, lo, hi);
  const missing =
    budget.missing === null
      ? 0
      : Math.min(
          n,
          Math.max(0, noisyCount(budget.missing.step, statistics.missing, budget.missing.epsilon, rng)),
        );
  const meanAboveLower = Math.min(
    hi - lo,
    Math.max(
      0,
      noisyOnGrid(budget.mean.step, queries.mean, statistics.meanAboveLower, budget.mean.epsilon, rng),
    ),
  );
  const largestVariance = ((hi - lo) ** 2 / 4) * (n / (n - 1));
  const variance = Math.min(
    largestVariance,
    Math.max(
      0,
      noisyOnGrid(budget.variance.step, queries.variance, statistics.variance, budget.variance.epsilon, rng),
    ),
  );
  return { missing, mean: lo + meanAboveLower, meanAboveLower, variance };
}

/** The posterior draw of (μ, σ²) given sanitized statistics of n_o observed values. */
export interface NormalParameters {
  mean: number;
  variance: number;
}

/**
 * One draw from the posterior of the normal model with prior f(μ, σ²) ∝ σ⁻² (DIPS §4.2):
 * σ²* ~ Inv-Gamma((n_o − 1)/2, (n_o − 1)S²/2), μ* ~ N(x̄, σ²* / n_o), given the statistics of the
 * observed values. These are recovered from the sanitized all-row statistics (missing values at the
 * midpoint c) as a mixture: with q = missing/n, x̄ = (1 − q)μ_o + qc and the population variance
 * V = (n − 1)S²/n = (1 − q)σ_o² + q(1 − q)(μ_o − c)². With q = 0 this is exactly the paper's model.
 * S² is floored at `varianceFloor` (> 0) so the inverse gamma is proper. n_o below 2 uses 2.
 * Post-processing of DP statistics: floating-point samplers are fine here.
 */
export function drawNormalPosterior(
  rng: Rng,
  sanitized: NormalStatistics,
  n: number,
  lo: number,
  hi: number,
  varianceFloor: number,
): NormalParameters {
  const observed = Math.max(2, n - sanitized.missing);
  const q = sanitized.missing / n;
  const c = (lo + hi) / 2;
  const meanObserved = q < 1 ? Math.min(hi, Math.max(lo, (sanitized.mean - q * c) / (1 - q))) : c;
  const population = (sanitized.variance * (n - 1)) / n;
  const varianceObserved = q < 1 ? (population - q * (1 - q) * (meanObserved - c) ** 2) / (1 - q) : 0;
  const s2 = Math.max(varianceFloor, (varianceObserved * observed) / (observed - 1));
  const variance = sampleInverseGamma(rng, (observed - 1) / 2, ((observed - 1) * s2) / 2);
  const mean = sampleNormal(rng, meanObserved, Math.sqrt(variance / observed));
  return { mean, variance };
}

/**
 * n synthetic values from N(μ*, σ²*), clamped into [lo, hi] (boundary inflated truncation, as DIPS §4.2
 * does for out-of-bound synthetic values), rounded for integer columns, and `missing` of them set
 * missing at uniformly chosen rows. Cost O(n).
 */
export function drawNormalColumn(
  rng: Rng,
  name: string,
  parameters: NormalParameters,
  n: number,
  missing: number,
  lo: number,
  hi: number,
  integer: boolean,
): NumericColumn {
  const values = new Float64Array(n);
  const flags = new Uint8Array(n);
  const sd = Math.sqrt(parameters.variance);
  const low = integer ? Math.ceil(lo) : lo;
  const high = integer ? Math.floor(hi) : hi;
  for (let i = 0; i < n; i++) {
    const draw = sampleNormal(rng, parameters.mean, sd);
    values[i] = Math.min(high, Math.max(low, integer ? Math.round(draw) : draw));
  }
  if (missing === 0) return { kind: 'numeric', name, values, missing: flags };
  const order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  shuffleInPlace(rng, order);
  for (let j = 0; j < missing; j++) {
    flags[order[j]!] = 1;
    values[order[j]!] = NaN;
  }
  return { kind: 'numeric', name, values, missing: flags };
}
