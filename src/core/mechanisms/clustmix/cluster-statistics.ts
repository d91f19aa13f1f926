import type { ChargeableStep } from '../../privacy/meter';
import { meteredDiscreteGaussian } from '../../privacy/metered';
import type { Rng } from '../../rng/types';
import { throwIfAborted } from '../../abort';
import type { AbortSignalLike } from '../types';
import type { EncodedRows } from './encoding';
import type { ClusterNoise } from './plan';
import { residualOnGrid } from './residual-grid';

/** Rows between abort checks. */
export const ROWS_PER_ABORT_CHECK = 65_536;

/** The public geometry of a release: centroids (K × d, row-major) and the grid. */
export interface ClusterGeometry {
  centroids: Float64Array;
  clusters: number;
  /** Centroids k·perClass … (k + 1)·perClass − 1 belong to class k. */
  clustersPerClass: number;
  dimension: number;
  clipRadius: number;
  grid: number;
  /** Coordinates whose squared residuals Q sums (the numeric u values). */
  numericCoordinates: readonly number[];
}

/** Exact integer statistics of the clusters (grid units), before noise. */
export interface ClusterStatistics {
  counts: Float64Array;
  sums: Float64Array;
  squares: Float64Array | null;
}

/** The nearest centroid of the row's class (squared Euclidean distance; ties to the lower index). */
export function nearestCentroid(rows: EncodedRows, row: number, geometry: ClusterGeometry): number {
  const { centroids, clustersPerClass, dimension: d } = geometry;
  const first = rows.classOfRow[row]! * clustersPerClass;
  const offset = row * d;
  let best = first;
  let bestDistance = Infinity;
  for (let k = first; k < first + clustersPerClass; k++) {
    let distance = 0;
    for (let j = 0; j < d; j++) {
      const diff = rows.values[offset + j]! - centroids[k * d + j]!;
      distance += diff * diff;
    }
    if (distance < bestDistance) {
      bestDistance = distance;
      best = k;
    }
  }
  return best;
}

/**
 * N_k, S_k = Σ v and (optionally) Q_k = Σ Σ_{numeric j} v_j² over the rows assigned to cluster k,
 * v the row's clipped residual to the public centroid c_k on the grid (residualOnGrid). Under
 * replace-one neighbours the assignment of every other row is unchanged (the centroids are public),
 * so one row leaves cluster a and one joins cluster b: L2 sensitivities √2 (counts), 2B (sums; same
 * cluster, opposite residuals of norm B) and √2·B² (squares; a row of Q = B² changes cluster).
 * Cost O(n·K_class·d).
 */
export function clusterStatistics(
  rows: EncodedRows,
  geometry: ClusterGeometry,
  withSquares: boolean,
  signal?: AbortSignalLike,
): ClusterStatistics {
  const { clusters: K, dimension: d } = geometry;
  const counts = new Float64Array(K);
  const sums = new Float64Array(K * d);
  const squares = withSquares ? new Float64Array(K) : null;
  const v = new Int32Array(d);
  for (let i = 0; i < rows.n; i++) {
    if (i % ROWS_PER_ABORT_CHECK === 0) throwIfAborted(signal);
    const k = nearestCentroid(rows, i, geometry);
    residualOnGrid(rows.values, i * d, geometry.centroids, k * d, d, geometry.clipRadius, geometry.grid, v);
    counts[k]! += 1;
    for (let j = 0; j < d; j++) sums[k * d + j]! += v[j]!;
    if (squares) {
      let q = 0;
      for (const j of geometry.numericCoordinates) q += v[j]! * v[j]!;
      squares[k]! += q;
    }
  }
  return { counts, sums, squares };
}

/**
 * Exact discrete Gaussian noise on every count, sum coordinate and square (privacy rule 4), metered:
 * counts as `partition-counts` (the clusters of public centroids), sums as `ball-sums` of grid vectors of
 * norm <= B, squares as `partition-bounded-sums` of integers in [0, B²]; each draw charges `step` its
 * own ρ = Δ₂²/(2σ²) (ρ_N, ρ_S and ρ_Q of the plan).
 */
export function addClusterNoise(
  step: ChargeableStep,
  stats: ClusterStatistics,
  noise: ClusterNoise,
  grid: number,
  rng: Rng,
  signal?: AbortSignalLike,
): ClusterStatistics {
  const counts = meteredDiscreteGaussian(
    step,
    { kind: 'partition-counts' },
    stats.counts,
    noise.countSigma2,
    rng,
    signal,
  );
  const sums = meteredDiscreteGaussian(
    step,
    { kind: 'ball-sums', radius: grid },
    stats.sums,
    noise.sumSigma2,
    rng,
    signal,
  );
  let squares: Float64Array | null = null;
  if (stats.squares) {
    if (!noise.squareSigma2) throw new Error('squares need their own noise scale');
    squares = meteredDiscreteGaussian(
      step,
      { kind: 'partition-bounded-sums', upper: grid * grid },
      stats.squares,
      noise.squareSigma2,
      rng,
      signal,
    );
  }
  return { counts, sums, squares };
}

/** One DP release: the statistics at public centroids plus their noise. */
export function releaseClusterStatistics(
  step: ChargeableStep,
  rows: EncodedRows,
  geometry: ClusterGeometry,
  noise: ClusterNoise,
  rng: Rng,
  signal?: AbortSignalLike,
): ClusterStatistics {
  const exact = clusterStatistics(rows, geometry, noise.squareSigma2 !== null, signal);
  return addClusterNoise(step, exact, noise, geometry.grid, rng, signal);
}
