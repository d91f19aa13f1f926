import { throwIfAborted } from '../../abort';
import type { AbortSignalLike } from '../../abort';
import { makeDiscreteLaplaceSampler } from '../../rng/discrete-laplace';
import type { Rational } from '../../rng/rational';
import type { Rng } from '../../rng/types';
import type { ChargeableStep } from '../meter';
import { gridUnit, querySensitivity, type QueryKind } from '../query-sensitivity';
import { pureCost } from './costs';

/** Entries between two looks at the abort signal. */
const ENTRIES_PER_ABORT_CHECK = 65_536;

/**
 * A real statistic v released on a grid with exact discrete Laplace noise (DESIGN.md privacy rule 4),
 * metered: g = Δ/G from the `on-grid` query (Δ the statistic's L1 sensitivity under the step's relation,
 * G its grid steps), k = round(v/g) entry by entry, and (k + Z)·g with Z discrete Laplace of scale t,
 * P(z) ∝ exp(−|z|/t), independently per entry (Canonne, Kamath & Steinke 2020, Algorithm 2). k has the
 * whole L1 sensitivity G + c (c the entries one neighbour changes; privacy/query-sensitivity.ts), so
 * before the first draw it charges `step` ε = (G + c)/t — (ε, 0) on an (ε, δ) step, ε²/2 on a zCDP step.
 * Returns the noisy values in the statistic's units. Cost O(entries) draws.
 * Example: a mean of n = 100 values in [0, 1] (Δ = 1/100), G = 100: g = 1e−4; at t = 101 it costs ε = 1.
 */
export function meteredLaplaceOnGrid(
  step: ChargeableStep,
  query: Extract<QueryKind, { kind: 'on-grid' }>,
  values: ArrayLike<number>,
  scale: Rational,
  rng: Rng,
  signal?: AbortSignalLike,
): Float64Array {
  const unit = gridUnit(query, step.neighbouring).toNumber();
  const sample = makeDiscreteLaplaceSampler(scale);
  const { l1 } = querySensitivity(query, step.neighbouring);
  step.charge(pureCost(step, l1.div(scale), false));
  const noisy = new Float64Array(values.length);
  for (let i = 0; i < values.length; i++) {
    if (i % ENTRIES_PER_ABORT_CHECK === 0) throwIfAborted(signal);
    noisy[i] = (Math.round(values[i]! / unit) + sample(rng)) * unit;
  }
  return noisy;
}
