/**
 * Empirical privacy check of one plausible-deniability draw (one slot: fallback coin, seed, ω, the
 * randomized privacy test, generation), able to fail. It runs the real slot code (runSlot with the
 * collapsed counts of seedBandCounts and the exact discrete Laplace test) on replace-one neighbours of
 * 20 seeds, over a tiny fixed network: two binary attributes, σ = (x0, x1), ω = 1, so a seed-based row
 * keeps the seed's x0 and draws x1. Test parameters: k = 12, t = 2, ε0 = 1, so one draw is
 * (ε_a, δ_a) = (1 + ln 1.5, e^(−10)/(22·(1 + e^(−1)))) = (1.405, 1.5·10⁻⁶) and p_f = t/(t + 20) = 1/11.
 * ε̂ = log((CP_lower(P[E | x]) − δ_a)/CP_upper(P[E | x′])) at α = 10⁻⁶ per side must stay <= ε_a,
 * both orders.
 *
 * Pair 1 ("k − 1 vs k copies of A"): x has 12 copies of A = (0, 0) and 8 of B = (1, 1); x′ replaces one
 * A by B. θ(x0 = 0) = 0.02. E = "x0 = 0". With F(a) = P[Z <= a] (F(0) = 1/(1 + e^−1) = 0.731,
 * F(−1) = 0.269): P[E | x] = (1/11)·0.02 + (10/11)·(0.6·(F(0) + (1 − F(0))·0.02) + 0.4·(1 − F(−4))·0.02) = 0.411
 * and P[E | x′] = (1/11)·0.02 + (10/11)·(0.55·(F(−1) + (1 − F(−1))·0.02) + 0.45·(1 − F(−3))·0.02) = 0.151:
 * log-ratio 1.00 < 1.405. Control: a deterministic threshold (pass iff c >= k, Privacy Test 1) lets all
 * 12 A seeds through in x and none of the 11 in x′: P[E | x] = 0.555, P[E | x′] = 0.020, log-ratio 3.32.
 *
 * Pair 2 ("equal seeds vs one outlier"): x has 20 copies of A; x′ replaces one by B. θ(x0 = 0) = 0.98.
 * E = "x0 ≠ 0", which only network rows (fallback or failed test) or the outlier produce:
 * P[E | x] = (1/11)·0.02 + (10/11)·(1 − F(8))·0.02 = 0.00182, P[E | x′] = 0.00182 + (10/11)(1/20)·0.02 =
 * 0.00273: log-ratio 0.41. Control: p_f = 0 (no fallback coin): P[E | x] = (1 − F(8))·0.02 = 1.8·10⁻⁶,
 * P[E | x′] = 0.001: the outlier's failure shows, log-ratio 6.3.
 *
 * Clopper–Pearson at α = 10⁻⁶ costs about 4.8 sd per side. Pair 1 (N = 200,000): the sd of the
 * log-probabilities, √((1 − p)/(Np)), is 0.0027 and 0.0053, so ε̂ ≈ 1.00 − 0.04 = 0.96, 0.44 below 1.405
 * (over 50 sd); the control gives ε̂ ≈ 3.32 − 0.1 (sd 0.016 for x′). Pair 2 (N = 10⁶): sd 0.023 and
 * 0.019, ε̂ ≈ 0.41 − 0.2 = 0.2; the control's x side has about 2 hits, so CP_upper ≈ 2·10⁻⁵ and
 * ε̂ ≈ log((0.00094 − δ_a)/2·10⁻⁵) ≈ 3.8, far above 1.405.
 */
import { describe, expect, it } from 'vitest';
import { tableShapes, type BayesNet } from '../../src/core/models/bayes-net';
import { seedBandCounts } from '../../src/core/mechanisms/plausible-deniability/seed-bands';
import {
  runSlot,
  type PrivacyTestDraw,
  type SlotSetup,
} from '../../src/core/mechanisms/plausible-deniability/slots';
import { meteredPlausibleDeniabilityTest } from '../../src/core/privacy/metered';
import { recordingStep } from '../../src/core/privacy/metered/testing';
import { bernoulliRationalSafe } from '../../src/core/rng/bernoulli-rational';
import { lnOnePlusInverseUpperBound } from '../../src/core/mechanisms/plausible-deniability/draw-budget';
import { Rational } from '../../src/core/rng/rational';
import { SeededRng } from '../../src/core/rng/seeded-rng';
import { clopperPearsonLower, clopperPearsonUpper } from './clopper-pearson';

const SEEDS = 20;
const K = 12;
const T_PARAM = 2;
const TEST_EPSILON = Rational.ONE;
const ALPHA = 1e-6;
const EPSILON_DRAW = 1 + lnOnePlusInverseUpperBound(T_PARAM).toNumber();
// δ_a of the metered test: (1 − p_f)/n_S · e^(−ε0(k − t))/(1 + e^(−ε0)) with p_f = t/(t + n_S).
const DELTA_DRAW = Math.exp(-1 * (K - T_PARAM)) / ((T_PARAM + SEEDS) * (1 + Math.exp(-1)));

function net(probabilityX0IsZero: number): BayesNet {
  return {
    shapes: tableShapes([[], []], [2, 2]),
    order: [0, 1],
    cumulative: [Float64Array.from([probabilityX0IsZero, 1]), Float64Array.from([0.5, 1])],
  };
}

/** Seeds row-major: `a` copies of A = (0, 0), the rest B = (1, 1). */
function seeds(copiesOfA: number): Uint32Array {
  const levels = new Uint32Array(SEEDS * 2);
  for (let s = copiesOfA; s < SEEDS; s++) levels.set([1, 1], s * 2);
  return levels;
}

/** A slot's test for `draws` draws: the mechanism's metered test, or a control. */
type Variant = (draws: number) => PrivacyTestDraw;

/** The metered test with the fallback coin p_f = num/den. */
const meteredTest =
  (fallbackNum: number, fallbackDen: number): Variant =>
  (draws) =>
    meteredPlausibleDeniabilityTest(
      recordingStep('approx-dp'),
      { k: K, t: T_PARAM, testEpsilon: TEST_EPSILON, seeds: SEEDS, fallbackNum, fallbackDen },
      draws,
    );

const MECHANISM: Variant = meteredTest(T_PARAM, T_PARAM + SEEDS);

/** How many of `draws` slots fall in E. */
function hits(
  seedLevels: Uint32Array,
  network: BayesNet,
  variant: Variant,
  event: (row: Uint32Array) => boolean,
  draws: number,
  seed: string,
): number {
  const setup: SlotSetup = {
    net: network,
    m: 2,
    seedLevels,
    bands: seedBandCounts(seedLevels, 2, network.order, 1, 1),
    test: variant(draws),
  };
  const rng = new SeededRng(seed);
  const row = new Uint32Array(2);
  let count = 0;
  for (let i = 0; i < draws; i++) {
    runSlot(rng, setup, row);
    if (event(row)) count++;
  }
  return count;
}

/** log((CP_lower(P[E | a]) − δ_a)/CP_upper(P[E | b])). */
function epsilonHat(hitsA: number, hitsB: number, draws: number): number {
  const lower = clopperPearsonLower(hitsA, draws, ALPHA) - DELTA_DRAW;
  return lower <= 0 ? -Infinity : Math.log(lower / clopperPearsonUpper(hitsB, draws, ALPHA));
}

function bothOrders(
  x: Uint32Array,
  xPrime: Uint32Array,
  network: BayesNet,
  variant: Variant,
  event: (row: Uint32Array) => boolean,
  draws: number,
  name: string,
) {
  const a = hits(x, network, variant, event, draws, `${name} x`);
  const b = hits(xPrime, network, variant, event, draws, `${name} x′`);
  const forward = epsilonHat(a, b, draws);
  const backward = epsilonHat(b, a, draws);
  return {
    worst: Math.max(forward, backward),
    detail: `hits x=${a} x′=${b}; ε̂ = ${forward.toFixed(3)}, ${backward.toFixed(3)}`,
  };
}

const ROW_KEEPS_A = (row: Uint32Array) => row[0] === 0;
const ROW_LEAVES_A = (row: Uint32Array) => row[0] !== 0;
/** Control: the same coin and seed draws, but the deterministic threshold of Privacy Test 1. */
const DETERMINISTIC: Variant = () => (rng, pickSeed) =>
  !bernoulliRationalSafe(rng, T_PARAM, T_PARAM + SEEDS) && pickSeed(rng) >= K;
/** Control: no fallback coin (the metered test then adds 1/n_S to δ_a, so a run would refuse). */
const NO_FALLBACK: Variant = meteredTest(0, 1);

describe('one plausible-deniability draw, empirical privacy at (ε_a, δ_a) = (1 + ln 1.5, 1.5·10⁻⁶)', () => {
  it('k − 1 vs k copies of A: passes with the randomized test', () => {
    const { worst, detail } = bothOrders(
      seeds(K),
      seeds(K - 1),
      net(0.02),
      MECHANISM,
      ROW_KEEPS_A,
      200_000,
      'pair 1',
    );
    expect(worst, detail).toBeLessThanOrEqual(EPSILON_DRAW);
    expect(worst, detail).toBeGreaterThan(0.7); // the event is close to the test's own ε0 + ln-ratio
  });

  it('k − 1 vs k copies of A: detects a deterministic threshold (Privacy Test 1)', () => {
    const { worst, detail } = bothOrders(
      seeds(K),
      seeds(K - 1),
      net(0.02),
      DETERMINISTIC,
      ROW_KEEPS_A,
      200_000,
      'pair 1 det',
    );
    expect(worst, detail).toBeGreaterThan(EPSILON_DRAW);
  });

  it('equal seeds vs one outlier: passes with the fallback coin', () => {
    const { worst, detail } = bothOrders(
      seeds(SEEDS),
      seeds(SEEDS - 1),
      net(0.98),
      MECHANISM,
      ROW_LEAVES_A,
      1_000_000,
      'pair 2',
    );
    expect(worst, detail).toBeLessThanOrEqual(EPSILON_DRAW);
  });

  it('equal seeds vs one outlier: detects p_f = 0 (a failure shows)', () => {
    const { worst, detail } = bothOrders(
      seeds(SEEDS),
      seeds(SEEDS - 1),
      net(0.98),
      NO_FALLBACK,
      ROW_LEAVES_A,
      1_000_000,
      'pair 2 no fallback',
    );
    expect(worst, detail).toBeGreaterThan(EPSILON_DRAW);
  });
});
