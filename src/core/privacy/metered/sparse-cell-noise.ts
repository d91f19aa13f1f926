import { throwIfAborted } from '../../abort';
import {
  makeDiscreteLaplacePositivePartSampler,
  makeDiscreteLaplaceSampler,
} from '../../rng/discrete-laplace';
import { GeometricByInversion } from '../../rng/geometric-inversion';
import { makeGeometricExpNegSampler } from '../../rng/geometric-exp-neg';
import { expNegBracket, inverseOnePlusBracket } from '../../rng/ratio-brackets';
import { Rational } from '../../rng/rational';
import type { Rng } from '../../rng/types';
import { GrowableCellWeights } from '../../cells/growable-cells';
import type { SparseCellCounts } from '../../cells/sparse-cell-counts';
import type { AbortSignalLike } from '../../abort';

/*
 * The draws behind meteredNoisyPositiveCells (noisy-positive-cells.ts): discrete Laplace noise on every
 * cell of a partition, only the positive repaired cells kept. Internal to privacy/metered/: a mechanism
 * reaches these draws only through the metered primitive, which charges the step first.
 */

/** The positive cells after noise and repair: the DP output the rows are then drawn from. */
export interface NoisyPositiveCells {
  /** Increasing cell indices whose repaired noisy count is > 0. */
  cells: Uint32Array;
  /** The repaired noisy count of each listed cell. */
  weights: Float64Array;
}

export interface SparseNoiseOptions {
  /** Size K of the domain: every cell 0 … K − 1 gets noise, empty or not. */
  domainCells: number;
  /** Upper clamp of the noisy counts (n for boundary-inflated repair, Infinity otherwise). */
  upper: number;
  signal: AbortSignalLike;
  /** Called with the fraction of the domain passed. */
  onProgress?: (fraction: number) => void;
}

const STEPS_BETWEEN_CHECKS = 16_384;

/** The samplers for one noise scale b = Δ/ε, built once (the inversion table costs a few ms). */
export interface SparseNoiseSamplers {
  /** Noise of an occupied cell: discrete Laplace with P(z) ∝ q^|z|, q = e^(−1/b). */
  occupied: (rng: Rng) => number;
  /** Empty cells passed over before the next one whose noise is positive: P(G ≥ k) = (1 + q)^(−k). */
  gap: GeometricByInversion;
  /** The noise of an empty cell given that it is positive, minus 1: P(V ≥ k) = q^k. */
  positiveExcess: (rng: Rng) => number;
  /** q/(1 + q) as a double: only to size the output buffers, never to decide anything random. */
  keptShare: number;
}

/**
 * Buffer size for the kept cells: every occupied cell plus the expected number of kept empty cells
 * and 6 standard deviations (binomial), so that the buffers rarely grow or need trimming.
 */
function expectedKeptCapacity(domainCells: number, occupied: number, keptShare: number): number {
  const empty = domainCells - occupied;
  const expected = empty * keptShare;
  const margin = 6 * Math.sqrt(expected * (1 - keptShare)) + 1024;
  return Math.min(domainCells, Math.ceil(occupied + expected + margin));
}

/**
 * Smallest 1/b for which the positive values are drawn by inversion too: below it q^4096 > e^(−4)
 * and the inversion table would restart often; the generic exact geometric sampler takes over.
 */
const SMALLEST_INVERSION_RATE = Rational.of(1, 1024);

/**
 * Largest 1/b = ε/Δ for which the samplers are built: beyond it q = e^(−ε/Δ) < 1.6·10⁻²⁸, the table's
 * exact words cost a long series, and drawNoisyPositiveCells uses the dense loop instead.
 */
export const LARGEST_SKIPPING_RATE = Rational.of(64);

/** Samplers for noise scale b (a positive rational with 1/b ≤ LARGEST_SKIPPING_RATE). */
export function makeSparseNoiseSamplers(scale: Rational): SparseNoiseSamplers {
  const gamma = Rational.ONE.div(scale);
  if (!gamma.isPositive() || gamma.compare(LARGEST_SKIPPING_RATE) > 0) {
    throw new RangeError(`sparse noise: 1/scale must be in (0, 64], got ${gamma.toString()}`);
  }
  const q = expNegBracket(gamma.num, gamma.den);
  let positiveExcess: (rng: Rng) => number;
  if (gamma.compare(SMALLEST_INVERSION_RATE) >= 0) {
    const excess = new GeometricByInversion(q);
    positiveExcess = (rng) => excess.draw(rng);
  } else {
    positiveExcess = makeGeometricExpNegSampler(gamma);
  }
  const qDouble = Math.exp(-gamma.toNumber());
  return {
    occupied: makeDiscreteLaplaceSampler(scale),
    gap: new GeometricByInversion(inverseOnePlusBracket(q)),
    positiveExcess,
    keptShare: qDouble / (1 + qDouble),
  };
}

/**
 * The Laplace sanitizer on a whole cross-tabulation (DIPS §3.1.1–3.1.2), n*_k = n_k + e_k for every
 * cell k with e_k discrete Laplace, P(e) = (1 − q)/(1 + q)·q^|e| (Canonne, Kamath & Steinke 2020),
 * keeping the cells whose repaired count is positive — in time O(occupied + kept cells), not O(K).
 *
 * Occupied cells draw their noise as usual. An empty cell is kept iff its noise is positive, which
 * happens independently for each with p = Σ_{e ≥ 1} P(e) = q/(1 + q); so the numbers of empty cells
 * passed over between kept ones are independent geometric variates with P(G ≥ k) = (1 − p)^k =
 * (1 + q)^(−k), drawn exactly by inversion (GeometricByInversion). A kept empty cell's noise has the
 * conditional law P(e = k | e > 0) = (1 − q)q^(k − 1), k ≥ 1: 1 plus a geometric variate with ratio q.
 * Every cell thus gets the same noise law as the dense loop; only non-positive values of empty cells,
 * which are dropped unreleased, are never drawn. Skipping empty cells without noise would reveal which
 * cells are empty; here they are skipped by a draw, not by their count.
 */
export function perturbCellCountsSparsely(
  rng: Rng,
  counts: SparseCellCounts,
  samplers: SparseNoiseSamplers,
  options: SparseNoiseOptions,
): NoisyPositiveCells {
  const { domainCells, upper, signal, onProgress } = options;
  const occupiedCells = counts.cells;
  const occupiedCount = occupiedCells.length;
  const kept = new GrowableCellWeights(expectedKeptCapacity(domainCells, occupiedCount, samplers.keptShare));
  const keepOccupied = (index: number) => {
    const noisy = Math.min(upper, counts.counts[index]! + samplers.occupied(rng));
    if (noisy > 0) kept.push(occupiedCells[index]!, noisy);
  };
  let cell = 0; // every cell below has been decided
  let nextOccupied = 0;
  let emptyLeft = domainCells - occupiedCount;
  let steps = 0;
  while (emptyLeft > 0) {
    // Progress is reported every 16,384 kept empty cells, so its timing follows the data; it reaches only
    // the data holder's progress bar, never a release or report.
    if (++steps % STEPS_BETWEEN_CHECKS === 0) {
      throwIfAborted(signal);
      onProgress?.(cell / domainCells);
    }
    const passed = samplers.gap.draw(rng, emptyLeft);
    if (passed >= emptyLeft) break;
    // The empty cell with `passed` empty cells before it from `cell` on; occupied ones on the way get their noise.
    let target = cell + passed;
    while (nextOccupied < occupiedCount && occupiedCells[nextOccupied]! <= target) {
      keepOccupied(nextOccupied++);
      target++;
    }
    // Repaired like any other cell: with upper = n = 0 a positive draw is still released as 0, so dropped.
    const value = Math.min(upper, 1 + samplers.positiveExcess(rng));
    if (value > 0) kept.push(target, value);
    emptyLeft -= passed + 1;
    cell = target + 1;
  }
  while (nextOccupied < occupiedCount) {
    if (++steps % STEPS_BETWEEN_CHECKS === 0) throwIfAborted(signal);
    keepOccupied(nextOccupied++);
  }
  throwIfAborted(signal);
  onProgress?.(1);
  return kept.toArrays();
}

/**
 * Cells between two looks at the abort signal (and progress reports) in the dense loop.
 */
const CELLS_BETWEEN_CHECKS = 65_536;

/**
 * Options of the dense loop: `upper` clamps every noisy count (boundary-inflated repair: n), and an
 * empty cell may draw only the positive part of its noise (`sampleEmptyCellNoise`).
 */
export interface EveryCellNoiseOptions extends SparseNoiseOptions {
  /**
   * Draws max(e, 0) for the same noise law as `sampleNoise`; used for empty cells, where a non-positive
   * noisy count is dropped anyway. Without it, empty cells use `sampleNoise`.
   */
  sampleEmptyCellNoise?: (rng: Rng) => number;
}

/**
 * The Laplace sanitizer on a whole cross-tabulation (DIPS §3.1.1–3.1.2): n*_k = n_k + e_k for every
 * cell k of the domain, e_k drawn independently by `sampleNoise`, then clamped to `upper`; only cells
 * whose repaired count is positive are kept, so memory grows with the number of positive noisy cells,
 * never with a dense array over the domain. Empty cells get noise like any other cell — skipping them
 * would reveal which cells are empty. An empty cell may draw only the positive part of its noise: its
 * kept value has the same law, and what is dropped was never released. Checks the abort signal every
 * 65,536 cells. Cost O(K) noise draws.
 */
export function perturbEveryCell(
  rng: Rng,
  counts: SparseCellCounts,
  sampleNoise: (rng: Rng) => number,
  options: EveryCellNoiseOptions,
): NoisyPositiveCells {
  const { domainCells, upper, signal, onProgress } = options;
  const emptyCellNoise = options.sampleEmptyCellNoise ?? sampleNoise;
  const kept = new GrowableCellWeights(Math.min(domainCells, Math.max(1024, 2 * counts.cells.length)));
  let next = 0;
  for (let cell = 0; cell < domainCells; cell++) {
    if (cell % CELLS_BETWEEN_CHECKS === 0) {
      throwIfAborted(signal);
      onProgress?.(cell / domainCells);
    }
    let noisy: number;
    if (next < counts.cells.length && counts.cells[next] === cell) {
      noisy = Math.min(upper, counts.counts[next++]! + sampleNoise(rng));
    } else {
      noisy = Math.min(upper, emptyCellNoise(rng));
    }
    if (noisy > 0) kept.push(cell, noisy);
  }
  onProgress?.(1);
  return kept.toArrays();
}

/** Samplers by scale, most recently used last: they hold no state, and sweeps and releases reuse them. */
const samplersByScale = new Map<string, SparseNoiseSamplers>();
const SAMPLER_SCALES_KEPT = 16;

function sparseNoiseSamplersFor(scale: Rational): SparseNoiseSamplers {
  const key = scale.toString();
  const samplers = samplersByScale.get(key) ?? makeSparseNoiseSamplers(scale);
  samplersByScale.delete(key);
  samplersByScale.set(key, samplers);
  if (samplersByScale.size > SAMPLER_SCALES_KEPT)
    samplersByScale.delete(samplersByScale.keys().next().value!);
  return samplers;
}

/**
 * Discrete Laplace noise of scale t on every cell of the domain, each noisy count clamped to
 * `options.upper`, the positive cells kept: in time O(occupied + kept cells) by exact geometric skipping
 * over empty cells (perturbCellCountsSparsely) while 1/t ≤ 64, else O(K) by the dense loop with the
 * positive-part sampler on empty cells. Both give every cell the same noise law. Unmetered: the
 * metered primitive (meteredNoisyPositiveCells) charges before calling it.
 */
export function drawNoisyPositiveCells(
  rng: Rng,
  counts: SparseCellCounts,
  scale: Rational,
  options: SparseNoiseOptions,
): NoisyPositiveCells {
  if (Rational.ONE.div(scale).compare(LARGEST_SKIPPING_RATE) > 0) {
    return perturbEveryCell(rng, counts, makeDiscreteLaplaceSampler(scale), {
      ...options,
      sampleEmptyCellNoise: makeDiscreteLaplacePositivePartSampler(scale),
    });
  }
  return perturbCellCountsSparsely(rng, counts, sparseNoiseSamplersFor(scale), options);
}
