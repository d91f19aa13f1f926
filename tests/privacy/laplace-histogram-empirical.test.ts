/**
 * Empirical privacy check of the laplace-histogram noise step, able to fail.
 *
 * The real noise code (meteredNoisyPositiveCells, which the mechanism calls: exact geometric skipping over
 * the empty cell 1) runs on a
 * 4-cell domain with two replace-one neighbours: counts a = (10, 0, 5, 3) and b = (11, 0, 4, 3)
 * (one row moved from cell 2 to cell 0). Each side runs RUNS times with fresh randomness; each
 * pre-registered event E gives the lower confidence bound
 *   ε̂ = log( CP_lower(P[E | x]) / CP_upper(P[E | x′]) ),  one-sided Clopper–Pearson at α = 10⁻⁶,
 * for both orders (x, x′) = (a, b) and (b, a). A mechanism fails when any ε̂ exceeds the claimed ε.
 * For an ε-DP mechanism each ε̂ ≤ ε with probability ≥ 1 − 2α, so the correct noise passes; the
 * three broken variants must fail.
 *
 * Pre-registered events on the released (repaired) counts y = (y0, y1, y2, y3), cells 0-based:
 * - TAIL: y0 ≥ 11 and y2 ≤ 4. For discrete Laplace with scale t and q = e^(−1/t),
 *   P(Z ≥ 0) = 1/(1 + q) and P(Z ≥ 1) = q/(1 + q), so P[TAIL | b] / P[TAIL | a] = 1/q² = e^(2/t):
 *   exactly e^ε at the correct scale t = 2/ε — the event is tight.
 * - OFF_GRID: y0 is a value the floating-point sampler below can produce from the count 10 but not
 *   from the count 11. "y0 is not an integer" would not do: under the floating-point sampler it has
 *   probability ≈ 1 on both sides and so reveals nothing about the neighbours. What leaks (Mironov
 *   2012) is that the doubles reachable as fl(count + noise) differ with the count: where the noise
 *   is large its attainable values are sparser than the double grid, so a given output is reachable
 *   from one count and not the other. Under b this event is impossible (every output of b is
 *   reachable from 11); under a it has a clearly positive probability. For exact integer noise the
 *   event is merely a set of integers (some far from 10 are reachable from 10 and not from 11), so
 *   like any event its probabilities differ by at most e^ε.
 *
 * ε̂ measured with these seeds (ε = 1, 50,000 runs per side), best order:
 *   correct          TAIL 0.911  OFF_GRID 0.273  → passes (TAIL's true log-ratio is exactly 1)
 *   scale ÷ 1.25     TAIL 1.173  OFF_GRID 0.303  → fails  (true 1.25)
 *   sensitivity 1    TAIL 1.911  OFF_GRID 0.242  → fails  (true 2)
 *   floating point   TAIL 0.907  OFF_GRID 5.879  → fails  (OFF_GRID never occurs under b)
 * The SD of the TAIL log-ratio is about 0.017 (delta method: √((1 − p)/(Np)) per side), so the
 * margins of 0.17 and 0.9 are ≥ 10 SD; the confidence bounds already subtract about 4.75 SD.
 */
import { describe, expect, it } from 'vitest';
import {
  countNoiseScale,
  laplaceScaleFor,
  type NoisyPositiveCells,
} from '../../src/core/privacy/noisy-cell-counts';
import { meteredNoisyPositiveCells } from '../../src/core/privacy/metered/noisy-positive-cells';
import {
  makeCountNoiseSampler,
  perturbAllCellCounts,
  recordingStep,
} from '../../src/core/privacy/metered/testing';
import { sparseFromDenseCounts, type SparseCellCounts } from '../../src/core/cells/sparse-cell-counts';
import { makeDiscreteLaplaceSampler } from '../../src/core/rng/discrete-laplace';
import { Rational } from '../../src/core/rng/rational';
import { SeededRng } from '../../src/core/rng/seeded-rng';
import type { Rng } from '../../src/core/rng/types';
import { epsilonLowerBound } from './clopper-pearson';

const CLAIMED_EPSILON = 1;
const EPSILON = Rational.of(CLAIMED_EPSILON);
const RUNS = 50_000;
const ALPHA = 1e-6;
const NEIGHBOUR_A = [10, 0, 5, 3];
const NEIGHBOUR_B = [11, 0, 4, 3];
const TWO_POW_MINUS_53 = 2 ** -53;
const TWO_POW_53 = 2 ** 53;

type NoiseSampler = (rng: Rng) => number;

/** The textbook floating-point Laplace sampler, −b·log(U) with a random sign (what rule 4 forbids). */
function floatingPointLaplaceSampler(scale: number): NoiseSampler {
  return (rng) => {
    const magnitude = -scale * Math.log(1 - rng.nextFloat()); // 1 − U = j·2^−53 exactly, j in [1, 2^53]
    return rng.nextUint32() >>> 31 === 1 ? -magnitude : magnitude;
  };
}

/**
 * Whether fl(count ± (−scale·log(j·2^−53))) = y for some j in [1, 2^53], i.e. whether the floating-
 * point sampler can release y from `count`. The value is monotone in j for each sign, so a binary
 * search over j finds the first j on the far side of y; y is reachable iff that j lands on it.
 */
function floatingPointSamplerCanRelease(y: number, count: number, scale: number): boolean {
  if (y === count) return true; // j = 2^53: log(1) = 0
  const sign = y > count ? 1 : -1;
  const released = (j: number) => count + sign * (-scale * Math.log(j * TWO_POW_MINUS_53));
  // sign +1: released(j) decreases with j; find the first j with released(j) ≤ y. sign −1: mirror.
  const pastY = (j: number) => (sign === 1 ? released(j) <= y : released(j) >= y);
  let lo = 1;
  let hi = TWO_POW_53;
  if (!pastY(hi)) return false;
  while (lo < hi) {
    const mid = lo + Math.floor((hi - lo) / 2); // every integer up to 2^53 is exact
    if (pastY(mid)) hi = mid;
    else lo = mid + 1;
  }
  return released(lo) === y;
}

interface EventCounts {
  tail: number;
  offGrid: number;
}

type NoiseStep = (rng: Rng, counts: SparseCellCounts) => NoisyPositiveCells;
const NOISE_OPTIONS = { domainCells: 4, repair: 'zero', nRows: 18, signal: { aborted: false } } as const;

/**
 * The mechanism's own noise step at ε: the metered primitive at the scale laplaceScaleFor gives, as
 * laplace-histogram's run calls it (counts over a partition, replace-one: scale 2/ε).
 */
const PARTITION = { kind: 'partition-counts' } as const;
const METERED = recordingStep('approx-dp');
const productNoise: NoiseStep = (rng, counts) =>
  meteredNoisyPositiveCells(METERED, PARTITION, counts, laplaceScaleFor(METERED, PARTITION, EPSILON), rng, {
    domainCells: NOISE_OPTIONS.domainCells,
    upper: Infinity,
    signal: NOISE_OPTIONS.signal,
  });

/** A noise step that draws every cell's noise with `sampler` (the dense path), for the broken controls. */
function noiseFrom(sampler: NoiseSampler): NoiseStep {
  return (rng, counts) => perturbAllCellCounts(rng, counts, sampler, NOISE_OPTIONS);
}

/** Runs the noise step RUNS times on `counts` and counts how often each pre-registered event occurs. */
function countEvents(rng: Rng, counts: number[], noise: NoiseStep, floatScale: number): EventCounts {
  const sparse = sparseFromDenseCounts(counts);
  const hits = { tail: 0, offGrid: 0 };
  const y = [0, 0, 0, 0];
  for (let run = 0; run < RUNS; run++) {
    const noisy = noise(rng, sparse);
    y.fill(0);
    noisy.cells.forEach((cell, i) => (y[cell] = noisy.weights[i]!));
    if (y[0]! >= 11 && y[2]! <= 4) hits.tail++;
    if (
      y[0]! > 0 &&
      floatingPointSamplerCanRelease(y[0]!, 10, floatScale) &&
      !floatingPointSamplerCanRelease(y[0]!, 11, floatScale)
    ) {
      hits.offGrid++;
    }
  }
  return hits;
}

/** The largest ε̂ over both events and both orders of the neighbours. */
function largestEpsilonEstimate(noise: NoiseStep, seed: number): { epsilon: number; detail: string } {
  const floatScale = countNoiseScale(EPSILON).toNumber();
  const a = countEvents(new SeededRng(seed), NEIGHBOUR_A, noise, floatScale);
  const b = countEvents(new SeededRng(seed + 1), NEIGHBOUR_B, noise, floatScale);
  const estimates = {
    tail: Math.max(
      epsilonLowerBound(b.tail, a.tail, RUNS, ALPHA),
      epsilonLowerBound(a.tail, b.tail, RUNS, ALPHA),
    ),
    offGrid: Math.max(
      epsilonLowerBound(a.offGrid, b.offGrid, RUNS, ALPHA),
      epsilonLowerBound(b.offGrid, a.offGrid, RUNS, ALPHA),
    ),
  };
  const detail = `hits a=${JSON.stringify(a)} b=${JSON.stringify(b)}; ε̂ tail=${estimates.tail.toFixed(3)} off-grid=${estimates.offGrid.toFixed(3)}`;
  return { epsilon: Math.max(estimates.tail, estimates.offGrid), detail };
}

describe('laplace-histogram noise, empirical privacy at ε = 1', () => {
  it('passes with the mechanism’s own noise step (scale 2/ε, exact discrete Laplace, empty cells skipped)', () => {
    const { epsilon, detail } = largestEpsilonEstimate(productNoise, 101);
    expect(epsilon, detail).toBeLessThanOrEqual(CLAIMED_EPSILON);
    expect(epsilon, detail).toBeGreaterThan(0.8); // the tight event reaches close to ε
  });

  it('detects a scale divided by 1.25 (true loss 1.25)', () => {
    const shrunk = makeDiscreteLaplaceSampler(countNoiseScale(EPSILON).div(Rational.of(5, 4)));
    const { epsilon, detail } = largestEpsilonEstimate(noiseFrom(shrunk), 202);
    expect(epsilon, detail).toBeGreaterThan(CLAIMED_EPSILON);
  });

  it('detects sensitivity 1 instead of 2 (true loss 2)', () => {
    const { epsilon, detail } = largestEpsilonEstimate(noiseFrom(makeCountNoiseSampler(EPSILON, 1)), 303);
    expect(epsilon, detail).toBeGreaterThan(CLAIMED_EPSILON);
  });

  it('detects floating-point −b·log(u) Laplace noise through the doubles it can reach', () => {
    const floatScale = countNoiseScale(EPSILON).toNumber();
    const { epsilon, detail } = largestEpsilonEstimate(
      noiseFrom(floatingPointLaplaceSampler(floatScale)),
      404,
    );
    expect(epsilon, detail).toBeGreaterThan(CLAIMED_EPSILON);
  });
});
