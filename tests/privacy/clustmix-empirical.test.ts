/**
 * Empirical privacy check of clustmix's final release, able to fail.
 *
 * The real release code (clusterStatistics + addClusterNoise with the noise clusterNoise calibrates
 * from ρ_f) runs on a one-coordinate encoding with two public centroids c = (0.25, 0.75), clipping
 * radius C = 1/16 and the grid B = 4096, at ρ_f = 2. Worst-case replace-one neighbours:
 * - SUMS: a row at 0.375 (nearest 0.25, residual 0.125 > C, so v = +B) replaced by one at 0.125
 *   (v = −B): only S_0 moves, by 2B = Δ_S. Counts and squares have the same distribution under
 *   both, so this pair is held to the ρ_S = ρ_f/2 of the sums alone (a valid, tighter bound).
 * - MOVE: a row at 0.125 (cluster 0, v = −B) replaced by one at 0.875 (cluster 1, v = +B): counts
 *   move by √2 = Δ_N, squares by √2·B² = Δ_Q, sums by √2·B. Held to ρ_f.
 * Each side runs RUNS times; per run the likelihood-ratio statistic of the discrete Gaussians,
 *   T(o) = Σ_j (m_j − m′_j)(o_j − (m_j + m′_j)/2)/σ_j²  (the exact privacy loss log p(o|x)/p(o|x′)),
 * is computed with the means m, m′ of the exact statistics and the σ_j² the variant really uses.
 * Events E_t = {T > t}, t = 0, 0.5, …, 8, pre-registered. For δ′ ∈ {0.01, 0.05, 0.1} and
 * ε′ = zcdpToApproxDp(ρ, δ′), a variant fails when for some t and either order
 *   CP_lower(P[E_t | x]) > e^ε′·CP_upper(P[E_t | x′]) + δ′   (one-sided Clopper–Pearson, α = 10⁻⁶).
 * A correct mechanism fails each comparison with probability ≤ 2α (about 200 comparisons).
 *
 * Why these must fail: with σ ÷ 1.5 the SUMS pair has privacy-loss variance μ² = 2.25·2ρ_S = 4.5
 * where ρ_S-zCDP allows the Gaussian μ² = 2: at δ′ = 0.05 the event T > 3 has P ≈ 0.46 vs 0.0044
 * (e^ε′ = e^3.45): 0.46 − 31.5·0.0044 − 0.05 ≈ 0.27 > 0, far beyond the CP widths (≤ 0.01 and,
 * times e^ε′, ≈ 0.04). With the add/remove Δ = B the sums get σ ÷ 2: μ² = 8. The paper-literal
 * pipeline (k-means on the data, then cluster means with Theorem 2's noise σ = 1/(l·μ), μ = √(2ρ))
 * runs on three groups of 20 where the replaced row decides which side the middle group joins: both
 * released means jump by ≈ 0.2 while σ = 1/(l·μ) ≈ 0.012–0.024, so μ² ≈ 350 against the claimed 4.
 * The correct release's margins: μ² = 2ρ_S = 2 (SUMS) and 1.5ρ_f = 3 (MOVE) against ρ = 1 and 2;
 * the conversion (CKS Cor. 13) is not tight for the Gaussian, so the best event stays ≥ 0.007 below
 * the bound before the CP widths are subtracted.
 * Largest excess measured with these seeds (> 0 fails):
 *   correct SUMS −0.031, MOVE −0.117;  σ ÷ 1.5 +0.116;  Δ_S = B +0.374;  paper-literal +0.875.
 */
import { describe, expect, it } from 'vitest';
import {
  addClusterNoise,
  clusterStatistics,
  type ClusterGeometry,
  type ClusterStatistics,
} from '../../src/core/mechanisms/clustmix/cluster-statistics';
import type { EncodedRows } from '../../src/core/mechanisms/clustmix/encoding';
import { clusterNoise, RESIDUAL_GRID, type ClusterNoise } from '../../src/core/mechanisms/clustmix/plan';
import { zcdpToApproxDp } from '../../src/core/privacy/zcdp';
import { makeDiscreteGaussianSampler } from '../../src/core/rng/discrete-gaussian';
import { recordingStep } from '../../src/core/privacy/metered/testing';
import { Rational } from '../../src/core/rng/rational';
import { SeededRng } from '../../src/core/rng/seeded-rng';
import type { Rng } from '../../src/core/rng/types';
import { clopperPearsonLower, clopperPearsonUpper } from './clopper-pearson';

const RUNS = 50_000;
const ALPHA = 1e-6;
const DELTAS = [0.01, 0.05, 0.1];
const THRESHOLDS = Array.from({ length: 17 }, (_, i) => i / 2);
const RHO_FINAL = Rational.of(2);
const B = RESIDUAL_GRID;

const GEOMETRY: ClusterGeometry = {
  centroids: Float64Array.of(0.25, 0.75),
  clusters: 2,
  clustersPerClass: 2,
  dimension: 1,
  clipRadius: 1 / 16,
  grid: B,
  numericCoordinates: [0],
};
const BASE = [0.2, 0.3, 0.25, 0.7, 0.8];

function rowsOf(values: number[]): EncodedRows {
  return {
    n: values.length,
    dimension: 1,
    values: Float64Array.from(values),
    classOfRow: new Uint32Array(values.length),
  };
}

/** Statistics as one flat vector: counts, sums, squares. */
function flat(stats: ClusterStatistics): Float64Array {
  return Float64Array.from([...stats.counts, ...stats.sums, ...stats.squares!]);
}

function sigma2Vector(noise: ClusterNoise): number[] {
  const K = GEOMETRY.clusters;
  return [
    ...Array<number>(K).fill(noise.countSigma2.toNumber()),
    ...Array<number>(K).fill(noise.sumSigma2.toNumber()),
    ...Array<number>(K).fill(noise.squareSigma2!.toNumber()),
  ];
}

/** A release procedure: a side's rows → one output vector. */
type Release = (side: 0 | 1, rng: Rng) => Float64Array;

/** Counts of {T > t} per threshold on each side. */
function hitsOf(release: Release, means: [Float64Array, Float64Array], sigma2: number[], seed: number) {
  const hits: [number[], number[]] = [THRESHOLDS.map(() => 0), THRESHOLDS.map(() => 0)];
  const [m, mPrime] = means;
  for (const side of [0, 1] as const) {
    const rng = new SeededRng(seed + side);
    for (let run = 0; run < RUNS; run++) {
      const o = release(side, rng);
      let t = 0;
      for (let j = 0; j < o.length; j++) {
        const diff = m[j]! - mPrime[j]!;
        if (diff !== 0) t += (diff * (o[j]! - (m[j]! + mPrime[j]!) / 2)) / sigma2[j]!;
      }
      THRESHOLDS.forEach((threshold, k) => {
        if (t > threshold) hits[side][k]!++;
      });
    }
  }
  return hits;
}

/** The largest CP_low(P[E|a]) − e^ε′·CP_up(P[E|b]) − δ′ over events, orders and δ′ (> 0 = violation). */
function worstExcess(hits: [number[], number[]], rho: number): number {
  let worst = -Infinity;
  for (const deltaPrime of DELTAS) {
    const factor = Math.exp(zcdpToApproxDp(rho, deltaPrime));
    for (let k = 0; k < THRESHOLDS.length; k++) {
      for (const [a, b] of [
        [0, 1],
        [1, 0],
      ] as const) {
        const lower = clopperPearsonLower(hits[a][k]!, RUNS, ALPHA);
        const upper = clopperPearsonUpper(hits[b][k]!, RUNS, ALPHA);
        worst = Math.max(worst, lower - factor * upper - deltaPrime);
      }
    }
  }
  return worst;
}

const PAIRS = {
  sums: [rowsOf([...BASE, 0.375]), rowsOf([...BASE, 0.125])],
  move: [rowsOf([...BASE, 0.125]), rowsOf([...BASE, 0.875])],
} as const;

/** The real final release on a pair with a given noise calibration; T uses that calibration's σ². */
function excessOfRelease(
  pair: readonly [EncodedRows, EncodedRows],
  noise: ClusterNoise,
  rho: number,
  seed: number,
) {
  const exact = pair.map((rows) => clusterStatistics(rows, GEOMETRY, true)) as [
    ClusterStatistics,
    ClusterStatistics,
  ];
  const step = recordingStep();
  const release: Release = (side, rng) => flat(addClusterNoise(step, exact[side], noise, RESIDUAL_GRID, rng));
  return worstExcess(hitsOf(release, [flat(exact[0]), flat(exact[1])], sigma2Vector(noise), seed), rho);
}

const CORRECT = clusterNoise(RHO_FINAL, true);
const rhoSums = RHO_FINAL.toNumber() / 2;

/** Lloyd's k-means with K = 2 from the data's minimum and maximum, to convergence (the paper's GMM step on the data). */
function kMeansOnData(values: number[]): number[][] {
  let centres = [Math.min(...values), Math.max(...values)];
  for (let iteration = 0; iteration < 100; iteration++) {
    const groups: number[][] = [[], []];
    for (const v of values) groups[Math.abs(v - centres[0]!) <= Math.abs(v - centres[1]!) ? 0 : 1]!.push(v);
    const next = groups.map((g) => g.reduce((s, v) => s + v, 0) / g.length);
    if (next[0] === centres[0] && next[1] === centres[1]) return groups;
    centres = next;
  }
  throw new Error('k-means did not converge');
}

describe('clustmix final release, empirical privacy', () => {
  it('the correct calibration passes on both worst-case pairs', () => {
    expect(excessOfRelease(PAIRS.sums, CORRECT, rhoSums, 101)).toBeLessThanOrEqual(0);
    expect(excessOfRelease(PAIRS.move, CORRECT, RHO_FINAL.toNumber(), 201)).toBeLessThanOrEqual(0);
  }, 120_000);

  it('fails with σ ÷ 1.5', () => {
    const shrink = Rational.of(4, 9);
    const smaller: ClusterNoise = {
      countSigma2: CORRECT.countSigma2.mul(shrink),
      sumSigma2: CORRECT.sumSigma2.mul(shrink),
      squareSigma2: CORRECT.squareSigma2!.mul(shrink),
    };
    expect(excessOfRelease(PAIRS.sums, smaller, rhoSums, 301)).toBeGreaterThan(0);
  }, 120_000);

  it('fails with the add/remove sensitivity Δ_S = B', () => {
    const addRemove: ClusterNoise = { ...CORRECT, sumSigma2: CORRECT.sumSigma2.div(Rational.of(4)) };
    expect(excessOfRelease(PAIRS.sums, addRemove, rhoSums, 401)).toBeGreaterThan(0);
  }, 120_000);

  it('fails for the paper-literal pipeline: k-means on the data, Theorem 2’s σ = 1/(l·μ)', () => {
    // Left 0.1 ×20, middle 0.5 ×20, right 0.9 ×20; the replaced row at 0 or 1 decides the middle's
    // side: {0, .1×20 | .5×20, .9×20} (means 0.095, 0.7) vs {.1×20, .5×20 | .9×20, 1} (0.3, 0.905).
    const groups = [0.1, 0.5, 0.9].flatMap((v) => Array<number>(20).fill(v));
    const sides = [kMeansOnData([...groups, 0]), kMeansOnData([...groups, 1])];
    expect(sides.map((s) => s.map((g) => g.length))).toEqual([
      [21, 40],
      [40, 21],
    ]);
    const mu2 = 2 * RHO_FINAL.toNumber();
    // Means on the grid 1/B with discrete Gaussian noise of variance (B/(l·μ))² = B²/(l²·μ²), exact.
    const means = sides.map((s) =>
      Float64Array.from(s, (g) => Math.round((B * g.reduce((a, v) => a + v, 0)) / g.length)),
    );
    const samplers = sides.map((s) =>
      s.map((g) =>
        makeDiscreteGaussianSampler(
          Rational.of(B * B).div(
            Rational.of(g.length * g.length)
              .mul(RHO_FINAL)
              .mul(Rational.of(2)),
          ),
        ),
      ),
    );
    const release: Release = (side, rng) =>
      Float64Array.from(means[side]!, (m, k) => m + samplers[side]![k]!(rng));
    const sigma2 = sides[0]!.map((g) => (B * B) / (g.length * g.length * mu2));
    const excess = worstExcess(hitsOf(release, [means[0]!, means[1]!], sigma2, 501), RHO_FINAL.toNumber());
    expect(excess).toBeGreaterThan(0);
  }, 120_000);
});
