/**
 * Running mean and sum of squared deviations of several scalar series at once (Welford 1962,
 * "Note on a method for calculating corrected sums of squares and products", Technometrics 4(3)):
 * after x_t, mean_t = mean_{t−1} + (x_t − mean_{t−1})/t and M2_t = M2_{t−1} + (x_t − mean_{t−1})(x_t − mean_t).
 * The sample variance is M2 / (t − 1). Numerically stable, O(1) memory per series, no allocation
 * per update. Used for the half-chain summaries behind split-R̂ and the burn-in covariance.
 */
export interface RunningMoments {
  count: number;
  readonly mean: Float64Array;
  readonly sumSquaredDeviations: Float64Array;
}

/** Plain-data summary of RunningMoments (structured-clone friendly: crosses worker boundaries). */
export interface MomentsSummary {
  count: number;
  mean: number[];
  variance: number[];
}

export function makeRunningMoments(width: number): RunningMoments {
  return { count: 0, mean: new Float64Array(width), sumSquaredDeviations: new Float64Array(width) };
}

/** Adds one observation vector (its first `mean.length` entries). */
export function updateRunningMoments(moments: RunningMoments, values: ArrayLike<number>): void {
  moments.count += 1;
  const t = moments.count;
  const { mean, sumSquaredDeviations } = moments;
  for (let j = 0; j < mean.length; j++) {
    const x = values[j]!;
    const before = mean[j]!;
    const after = before + (x - before) / t;
    mean[j] = after;
    sumSquaredDeviations[j] = sumSquaredDeviations[j]! + (x - before) * (x - after);
  }
}

export function resetRunningMoments(moments: RunningMoments): void {
  moments.count = 0;
  moments.mean.fill(0);
  moments.sumSquaredDeviations.fill(0);
}

/** Means and unbiased sample variances (NaN variance below two observations). */
export function summarizeRunningMoments(moments: RunningMoments): MomentsSummary {
  const denominator = moments.count - 1;
  return {
    count: moments.count,
    mean: Array.from(moments.mean),
    variance: Array.from(moments.sumSquaredDeviations, (m2) => (denominator > 0 ? m2 / denominator : NaN)),
  };
}

/**
 * Running mean and covariance of a vector series (Welford's update generalised to cross products):
 * C_t = C_{t−1} + (x_t − mean_{t−1})(x_t − mean_t)ᵀ; the covariance is C / (t − 1).
 * Row-major d × d, no allocation per update.
 */
export interface RunningCovariance {
  count: number;
  readonly dimension: number;
  readonly mean: Float64Array;
  readonly crossProducts: Float64Array;
  /** Scratch: deviation from the previous mean. */
  readonly deltaBefore: Float64Array;
}

export function makeRunningCovariance(dimension: number): RunningCovariance {
  return {
    count: 0,
    dimension,
    mean: new Float64Array(dimension),
    crossProducts: new Float64Array(dimension * dimension),
    deltaBefore: new Float64Array(dimension),
  };
}

export function updateRunningCovariance(state: RunningCovariance, x: ArrayLike<number>): void {
  state.count += 1;
  const { dimension: d, mean, crossProducts, deltaBefore } = state;
  for (let i = 0; i < d; i++) {
    deltaBefore[i] = x[i]! - mean[i]!;
    mean[i] = mean[i]! + deltaBefore[i]! / state.count;
  }
  for (let i = 0; i < d; i++) {
    const afterI = x[i]! - mean[i]!;
    for (let j = 0; j < d; j++)
      crossProducts[i * d + j] = crossProducts[i * d + j]! + afterI * deltaBefore[j]!;
  }
}

export function resetRunningCovariance(state: RunningCovariance): void {
  state.count = 0;
  state.mean.fill(0);
  state.crossProducts.fill(0);
}

/** Writes the sample covariance C / (t − 1) into `out` (requires t ≥ 2). */
export function writeSampleCovariance(state: RunningCovariance, out: Float64Array): void {
  const scale = 1 / (state.count - 1);
  for (let k = 0; k < out.length; k++) out[k] = state.crossProducts[k]! * scale;
}
