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

/**
 * One draw of the metered privacy test (privacy/metered/plausible-deniability-test.ts): the fallback
 * coin, then `pickSeed` (the seed and ω, returning c(d, ω)), then the threshold; true on a pass.
 */
export type PrivacyTestDraw = (rng: Rng, pickSeed: (rng: Rng) => number) => boolean;

export interface SlotSetup {
  net: BayesNet;
  m: number;
  /** Seeds row-major, n_S × m levels. */
  seedLevels: Uint32Array;
  bands: SeedBands;
  /** The fallback coin and the test (one metered primitive). */
  test: PrivacyTestDraw;
}

/** Fills `row` (m levels) with one slot's output. Cost O(m) plus the test's few random words. */
export function runSlot(rng: Rng, setup: SlotSetup, row: Uint32Array): void {
  const { net, m, bands } = setup;
  let seed = 0;
  let omega = 0;
  const pickSeed = (r: Rng): number => {
    seed = uniformIntBelow32(r, bands.seeds);
    omega = bands.omegaMin + uniformIntBelow32(r, bands.omegaMax - bands.omegaMin + 1);
    return bands.counts[(omega - bands.omegaMin) * bands.seeds + seed]!;
  };
  if (!setup.test(rng, pickSeed)) {
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
