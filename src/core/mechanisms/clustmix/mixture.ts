import type { Rng } from '../../rng/types';
import type { ClusterGeometry, ClusterStatistics } from './cluster-statistics';

/** Smallest variance s_k² of a component (keeps the Gaussian spread proper when the estimate is ≤ 0). */
export const MIN_SPREAD_VARIANCE = 1e-4;

/** The released isotropic mixture (post-processing of DP outputs only). */
export interface ClustmixMixture {
  /** Component centres μ_k (kept × d, row-major) in the encoded space, inside the box. */
  means: Float64Array;
  /** s_k: SD of each numeric u coordinate around μ_k. */
  spreads: Float64Array;
  /** Weights ∝ Ñ_k, summing to 1. */
  weights: Float64Array;
  /** Class of each component. */
  classOf: Uint32Array;
  components: number;
}

/** x clamped into [0, upper]. */
function clampBox(x: number, upper: number): number {
  return x < 0 ? 0 : x > upper ? upper : x;
}

/** A point drawn uniformly in the box (centroids are drawn this way, after every reservation). */
export function drawInBox(boxUpper: Float64Array, rng: Rng, out: Float64Array, offset: number): void {
  for (let j = 0; j < boxUpper.length; j++) out[offset + j] = boxUpper[j]! * rng.nextFloat();
}

/** K starting centroids uniform in the box: data-independent. */
export function initialCentroids(clusters: number, boxUpper: Float64Array, rng: Rng): Float64Array {
  const d = boxUpper.length;
  const centroids = new Float64Array(clusters * d);
  for (let k = 0; k < clusters; k++) drawInBox(boxUpper, rng, centroids, k * d);
  return centroids;
}

/**
 * One Lloyd update from a DP release (eqs. 1–3 in the k-means limit): c_k ← clamp(c_k + γ·S̃_k/Ñ_k)
 * when Ñ_k ≥ l_min, otherwise c_k is redrawn uniformly in the box. Returns the number redrawn.
 */
export function updateCentroids(
  geometry: ClusterGeometry,
  released: ClusterStatistics,
  minClusterSize: number,
  boxUpper: Float64Array,
  rng: Rng,
): number {
  const { centroids, clusters: K, dimension: d } = geometry;
  const gamma = geometry.clipRadius / geometry.grid;
  let redrawn = 0;
  for (let k = 0; k < K; k++) {
    const size = released.counts[k]!;
    if (size < minClusterSize) {
      drawInBox(boxUpper, rng, centroids, k * d);
      redrawn++;
      continue;
    }
    for (let j = 0; j < d; j++) {
      centroids[k * d + j] = clampBox(
        centroids[k * d + j]! + (gamma * released.sums[k * d + j]!) / size,
        boxUpper[j]!,
      );
    }
  }
  return redrawn;
}

/**
 * The mixture from the final release (replaces the paper's eqs. 6–7): clusters with Ñ_k ≥ l_min are
 * kept, weights ∝ Ñ_k, μ_k = clamp(c_k + γS̃_k/Ñ_k) and
 * s_k² = max(10⁻⁴, (γ²Q̃_k/Ñ_k − ‖numeric part of γS̃_k/Ñ_k‖²)/d_num), the residuals' mean square less
 * the square of their mean. Null when no cluster is kept.
 */
export function mixtureFromRelease(
  geometry: ClusterGeometry,
  released: ClusterStatistics,
  minClusterSize: number,
  boxUpper: Float64Array,
): ClustmixMixture | null {
  const { centroids, clusters: K, dimension: d, numericCoordinates } = geometry;
  const gamma = geometry.clipRadius / geometry.grid;
  const kept: number[] = [];
  for (let k = 0; k < K; k++) if (released.counts[k]! >= minClusterSize) kept.push(k);
  if (kept.length === 0) return null;
  const means = new Float64Array(kept.length * d);
  const spreads = new Float64Array(kept.length);
  const weights = new Float64Array(kept.length);
  const classOf = new Uint32Array(kept.length);
  let total = 0;
  kept.forEach((k, c) => {
    const size = released.counts[k]!;
    total += size;
    weights[c] = size;
    classOf[c] = Math.floor(k / geometry.clustersPerClass);
    for (let j = 0; j < d; j++) {
      means[c * d + j] = clampBox(
        centroids[k * d + j]! + (gamma * released.sums[k * d + j]!) / size,
        boxUpper[j]!,
      );
    }
    if (numericCoordinates.length > 0 && released.squares) {
      let meanSquare = 0;
      for (const j of numericCoordinates) {
        const m = (gamma * released.sums[k * d + j]!) / size;
        meanSquare += m * m;
      }
      const variance =
        ((gamma * gamma * released.squares[k]!) / size - meanSquare) / numericCoordinates.length;
      spreads[c] = Math.sqrt(Math.max(MIN_SPREAD_VARIANCE, variance));
    } else {
      spreads[c] = Math.sqrt(MIN_SPREAD_VARIANCE);
    }
  });
  for (let c = 0; c < kept.length; c++) weights[c]! /= total;
  return { means, spreads, weights, classOf, components: kept.length };
}
