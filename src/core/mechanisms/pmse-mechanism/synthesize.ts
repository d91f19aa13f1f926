import type { Rng } from '../../rng/types';
import type { SynthesisModel } from './model';

/**
 * The randomness of one synthetic dataset of g(θ), drawn apart from θ: per column a uniform for the
 * missing flag (when modelled) and a standard normal (numeric) or a uniform (categorical) for the
 * value. A dataset is then a deterministic function of (θ, noise) — see synthesizeModelSpace — so
 * fixing the noise once turns u(X, θ) into a deterministic function of θ (common random numbers).
 */
export interface ModelNoise {
  rows: number;
  missingUniforms: (Float64Array | null)[];
  valueNoise: Float64Array[];
}

/** Scratch buffers reused by every synthesis call (no allocation per call). */
export interface SynthesisScratch {
  design: Float64Array;
  levelWeights: Float64Array;
  /** σ = exp(log σ) of each numeric column, computed once per call. */
  columnSd: Float64Array;
}

/** Synthetic values beyond this magnitude are capped so that overflowing parameters stay finite. */
const LARGEST_SYNTHETIC_MAGNITUDE = 1e300;

export function drawModelNoise(
  model: SynthesisModel,
  rows: number,
  rng: Rng,
  standardNormal: () => number,
): ModelNoise {
  const missingUniforms = model.columns.map((column) => {
    if (!column.mayBeMissing) return null;
    const uniforms = new Float64Array(rows);
    for (let i = 0; i < rows; i++) uniforms[i] = rng.nextFloat();
    return uniforms;
  });
  const valueNoise = model.columns.map((column) => {
    const values = new Float64Array(rows);
    if (column.kind === 'numeric') for (let i = 0; i < rows; i++) values[i] = standardNormal();
    else for (let i = 0; i < rows; i++) values[i] = rng.nextFloat();
    return values;
  });
  return { rows, missingUniforms, valueNoise };
}

export function makeSynthesisScratch(model: SynthesisModel): SynthesisScratch {
  const largestLevelCount = Math.max(1, ...model.columns.map((column) => column.categories.length));
  return {
    design: new Float64Array(model.fullDesignWidth),
    levelWeights: new Float64Array(largestLevelCount),
    columnSd: new Float64Array(model.columns.length),
  };
}

/** One Float64Array of `rows` values per model column (model order). */
export function makeModelSpaceColumns(model: SynthesisModel, rows: number): Float64Array[] {
  return model.columns.map(() => new Float64Array(rows));
}

/**
 * Writes one synthetic dataset X^s = g(θ; noise) into `out` (one array per model column, model
 * order): numeric columns in original units (x = center + scale·z, capped at ±1e300, clamped to
 * bounds when known, rounded when integer), categorical columns as level codes 0 … K−1; NaN marks a
 * missing value. Row by row, column t uses the design of the values already drawn for that row
 * (model.ts). Categorical draws invert the cumulative softmax at the uniform; a missing flag is
 * set when its uniform falls below logistic(γ·d_t).
 * Cost O(rows · Σ_t parameters_t); no allocation.
 */
export function synthesizeModelSpace(
  model: SynthesisModel,
  theta: ArrayLike<number>,
  noise: ModelNoise,
  scratch: SynthesisScratch,
  out: Float64Array[],
): void {
  const { design, levelWeights, columnSd } = scratch;
  const columns = model.columns;
  for (let t = 0; t < columns.length; t++) {
    const column = columns[t]!;
    if (column.kind === 'numeric') columnSd[t] = Math.exp(theta[column.valueOffset + column.designWidth]!);
  }
  for (let row = 0; row < noise.rows; row++) {
    design[0] = 1;
    for (let t = 0; t < columns.length; t++) {
      const column = columns[t]!;
      const width = column.designWidth;
      const offset = column.featureOffset;
      let missing = false;
      if (column.mayBeMissing) {
        const eta = linearPredictor(theta, column.missingOffset, design, width);
        missing = noise.missingUniforms[t]![row]! < logistic(eta);
        design[offset + column.featureWidth - 1] = missing ? 1 : 0;
      }
      if (column.kind === 'numeric') {
        if (missing) {
          out[t]![row] = NaN;
          design[offset] = 0;
          continue;
        }
        const mean = linearPredictor(theta, column.valueOffset, design, width);
        let value = column.center + column.scale * (mean + columnSd[t]! * noise.valueNoise[t]![row]!);
        value = capMagnitude(value);
        if (column.bounds) value = Math.min(column.bounds[1], Math.max(column.bounds[0], value));
        if (column.integer) value = Math.round(value);
        out[t]![row] = value;
        design[offset] = capMagnitude((value - column.center) / column.scale);
      } else {
        const levels = column.categories.length;
        for (let k = 1; k < levels; k++) design[offset + k - 1] = 0;
        if (missing || levels === 0) {
          out[t]![row] = NaN;
          continue;
        }
        const level = drawLevel(
          theta,
          column.valueOffset,
          design,
          width,
          levels,
          levelWeights,
          noise.valueNoise[t]![row]!,
        );
        out[t]![row] = level;
        if (level > 0) design[offset + level - 1] = 1;
      }
    }
  }
}

function linearPredictor(
  theta: ArrayLike<number>,
  offset: number,
  design: Float64Array,
  width: number,
): number {
  let sum = 0;
  for (let j = 0; j < width; j++) sum += theta[offset + j]! * design[j]!;
  return sum;
}

/** logistic(η) = 1 / (1 + e^−η), written to stay finite for large |η|. */
function logistic(eta: number): number {
  if (eta >= 0) return 1 / (1 + Math.exp(-eta));
  const e = Math.exp(eta);
  return e / (1 + e);
}

function capMagnitude(value: number): number {
  if (value > LARGEST_SYNTHETIC_MAGNITUDE) return LARGEST_SYNTHETIC_MAGNITUDE;
  if (value < -LARGEST_SYNTHETIC_MAGNITUDE) return -LARGEST_SYNTHETIC_MAGNITUDE;
  return value === value ? value : 0;
}

/**
 * Level k with probability softmax(η)_k, η_0 = 0, η_k = β_k·d (k ≥ 1), by inverting the cumulative
 * weights at `uniform`; the maximum is subtracted before exponentiating for stability.
 */
function drawLevel(
  theta: ArrayLike<number>,
  offset: number,
  design: Float64Array,
  width: number,
  levels: number,
  weights: Float64Array,
  uniform: number,
): number {
  let largest = 0;
  weights[0] = 0;
  for (let k = 1; k < levels; k++) {
    const eta = linearPredictor(theta, offset + (k - 1) * width, design, width);
    weights[k] = capMagnitude(eta);
    if (weights[k]! > largest) largest = weights[k]!;
  }
  let total = 0;
  for (let k = 0; k < levels; k++) {
    weights[k] = Math.exp(weights[k]! - largest);
    total += weights[k]!;
  }
  const threshold = uniform * total;
  let cumulative = 0;
  for (let k = 0; k < levels - 1; k++) {
    cumulative += weights[k]!;
    if (threshold < cumulative) return k;
  }
  return levels - 1;
}
