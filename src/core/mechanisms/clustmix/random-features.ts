import { makeNormalSampler } from '../../rng/continuous';
import type { ChargeableStep } from '../../privacy/meter';
import { meteredDiscreteGaussian } from '../../privacy/metered';
import type { Rng } from '../../rng/types';
import { throwIfAborted } from '../../abort';
import type { AbortSignalLike } from '../types';
import { ROWS_PER_ABORT_CHECK } from './cluster-statistics';
import type { EncodedRows } from './encoding';
import { FEATURE_GRID, type MomentNoise } from './plan';
import { residualOnGrid } from './residual-grid';

/** Random Fourier frequencies ω_f ~ N(0, I/ℓ²), F × d row-major (Rahimi & Recht 2007). */
export interface RandomFrequencies {
  omega: Float64Array;
  features: number;
  dimension: number;
}

/** F frequencies for the Gaussian kernel exp(−‖x − x′‖²/(2ℓ²)); drawn after every reservation. */
export function drawRandomFrequencies(
  features: number,
  dimension: number,
  lengthScale: number,
  rng: Rng,
): RandomFrequencies {
  const normal = makeNormalSampler(rng);
  const omega = new Float64Array(features * dimension);
  for (let i = 0; i < omega.length; i++) omega[i] = normal(0, 1 / lengthScale);
  return { omega, features, dimension };
}

/**
 * φ(x) = F^(−½)·(cos ω_1ᵀx, …, cos ω_Fᵀx, sin ω_1ᵀx, …, sin ω_Fᵀx), so ‖φ(x)‖ = 1 for every x and
 * φ(x)ᵀφ(x′) = F⁻¹Σ cos(ω_fᵀ(x − x′)) approximates the Gaussian kernel. Writes 2F values into `out`.
 */
export function randomFeatures(
  x: Float64Array,
  offset: number,
  frequencies: RandomFrequencies,
  out: Float64Array,
): void {
  const { omega, features: F, dimension: d } = frequencies;
  const scale = 1 / Math.sqrt(F);
  for (let f = 0; f < F; f++) {
    let z = 0;
    for (let j = 0; j < d; j++) z += omega[f * d + j]! * x[offset + j]!;
    out[f] = scale * Math.cos(z);
    out[F + f] = scale * Math.sin(z);
  }
}

/** Index of entry (a, b), a ≤ b, of the upper triangle of a D × D matrix stored row by row. */
export function upperIndex(a: number, b: number, D: number): number {
  return a * D - (a * (a - 1)) / 2 + (b - a);
}

/**
 * The noisy moments of the kernel ridge regression loss, in grid units: the upper triangle of
 * A = Σ φ̂φ̂ᵀ (with its diagonal) and b = Σ φ̂ yᵀ (y the row's class, one-hot), φ̂ the row's features
 * truncated toward 0 on the grid 1/B_φ with ‖φ̂‖ ≤ B_φ. Replace-one sensitivities: upper(aaᵀ − ccᵀ)
 * has squared norm (‖M‖_F² + Σ M_ii²)/2 ≤ (2B_φ⁴ + 2B_φ⁴)/2 = 2B_φ⁴, so Δ_A = √2·B_φ²; b changes by
 * φ̂′e_c′ᵀ − φ̂e_cᵀ, of norm ≤ 2B_φ (same class, opposite features). Exact discrete Gaussian noise.
 */
export interface NoisyMoments {
  /** Upper triangle of A, D(D + 1)/2 entries, grid units (B_φ² per unit). */
  gramUpper: Float64Array;
  /** b, D × classes row-major, grid units (B_φ per unit). */
  cross: Float64Array;
  featureDimension: number;
  classes: number;
}

/** The exact integer moments (before noise). Cost O(n·(d·F + F²)). */
export function momentStatistics(
  rows: EncodedRows,
  frequencies: RandomFrequencies,
  classes: number,
  signal?: AbortSignalLike,
): NoisyMoments {
  const D = 2 * frequencies.features;
  const gramUpper = new Float64Array((D * (D + 1)) / 2);
  const cross = new Float64Array(D * classes);
  const phi = new Float64Array(D);
  const zeros = new Float64Array(D);
  const v = new Int32Array(D);
  for (let i = 0; i < rows.n; i++) {
    if (i % ROWS_PER_ABORT_CHECK === 0) throwIfAborted(signal);
    randomFeatures(rows.values, i * rows.dimension, frequencies, phi);
    residualOnGrid(phi, 0, zeros, 0, D, 1, FEATURE_GRID, v);
    accumulateMoments(v, rows.classOfRow[i]!, classes, gramUpper, cross);
  }
  return { gramUpper, cross, featureDimension: D, classes };
}

/** Adds one row's grid features v (class c) to upper(A) += upper(v·vᵀ) and b[·, c] += v. Exact integers. */
export function accumulateMoments(
  v: Int32Array,
  c: number,
  classes: number,
  gramUpper: Float64Array,
  cross: Float64Array,
): void {
  const D = v.length;
  let index = 0;
  for (let a = 0; a < D; a++) {
    const va = v[a]!;
    cross[a * classes + c]! += va;
    for (let b = a; b < D; b++) gramUpper[index++]! += va * v[b]!;
  }
}

/**
 * The moments plus their noise: one DP release, reserved as "noisy random-feature moments", metered:
 * upper(A) as `ball-gram` and b as `ball-sums` (cells: the classes) of grid features of norm <= B_φ,
 * each charging `step` its own ρ (ρ_A and ρ_b of the plan).
 */
export function releaseMoments(
  step: ChargeableStep,
  rows: EncodedRows,
  frequencies: RandomFrequencies,
  classes: number,
  noise: MomentNoise,
  rng: Rng,
  signal?: AbortSignalLike,
): NoisyMoments {
  const exact = momentStatistics(rows, frequencies, classes, signal);
  const gramUpper = meteredDiscreteGaussian(
    step,
    { kind: 'ball-gram', radius: FEATURE_GRID },
    exact.gramUpper,
    noise.gramSigma2,
    rng,
    signal,
  );
  const cross = meteredDiscreteGaussian(
    step,
    { kind: 'ball-sums', radius: FEATURE_GRID },
    exact.cross,
    noise.crossSigma2,
    rng,
    signal,
  );
  return { ...exact, gramUpper, cross };
}
