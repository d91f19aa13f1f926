import { makeDiscreteLaplaceSampler } from '../../rng/discrete-laplace';
import { bernoulliRationalSafe } from '../../rng/bernoulli-rational';
import type { Rational } from '../../rng/rational';
import type { Rng } from '../../rng/types';
import { uniformIntBelow32 } from '../../rng/uniform-int';
import { generateFrom, type BayesNet } from '../../models/bayes-net/generate';
import type { SeedBands } from './seed-bands';

/**
 * One slot = one synthetic row (README.md, "Rows"): with probability p_f = t/(t + n_S) (an exact
 * Bernoulli) the row comes from the network alone; otherwise a seed d (uniform over the n_S seeds, with
 * replacement) and ω (uniform on [ωmin, ωmax], independent of d) are drawn, the privacy test runs on
 * c(d, ω), and on a pass the row keeps d's levels on σ(1..m − ω) and draws the rest from the network;
 * on a failure the row comes from the network alone. Nothing else is produced: no failure is
 * reported, no row is missing.
 */

/** Pass iff c − k >= Z with Z exact discrete Laplace of scale 1/ε0 (Privacy Test 2's threshold). */
export type PrivacyTest = (plausibleSeeds: number, rng: Rng) => boolean;

export function makeRandomizedTest(k: number, testEpsilon: Rational): PrivacyTest {
  const noise = makeDiscreteLaplaceSampler(testEpsilon.inverse());
  return (plausibleSeeds, rng) => plausibleSeeds - k >= noise(rng);
}

export interface SlotSetup {
  net: BayesNet;
  m: number;
  /** Seeds row-major, n_S × m levels. */
  seedLevels: Uint32Array;
  bands: SeedBands;
  test: PrivacyTest;
  /** p_f = fallbackNum/fallbackDen. */
  fallbackNum: number;
  fallbackDen: number;
}

/** Fills `row` (m levels) with one slot's output. Cost O(m) plus the test's few random words. */
export function runSlot(rng: Rng, setup: SlotSetup, row: Uint32Array): void {
  const { net, m, bands } = setup;
  if (bernoulliRationalSafe(rng, setup.fallbackNum, setup.fallbackDen)) {
    generateFrom(rng, net, row, 0);
    return;
  }
  const seed = uniformIntBelow32(rng, bands.seeds);
  const omega = bands.omegaMin + uniformIntBelow32(rng, bands.omegaMax - bands.omegaMin + 1);
  const plausible = bands.counts[(omega - bands.omegaMin) * bands.seeds + seed]!;
  if (!setup.test(plausible, rng)) {
    generateFrom(rng, net, row, 0);
    return;
  }
  const kept = m - omega;
  const base = seed * m;
  for (let q = 0; q < kept; q++) {
    const attribute = net.order[q]!;
    row[attribute] = setup.seedLevels[base + attribute]!;
  }
  generateFrom(rng, net, row, kept);
}
