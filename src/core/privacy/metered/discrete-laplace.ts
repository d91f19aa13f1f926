import { throwIfAborted } from '../../abort';
import type { AbortSignalLike } from '../../abort';
import { makeDiscreteLaplaceSampler } from '../../rng/discrete-laplace';
import type { Rational } from '../../rng/rational';
import type { Rng } from '../../rng/types';
import type { ChargeableStep } from '../meter';
import { querySensitivity, type QueryKind } from '../query-sensitivity';
import { pureCost } from './costs';

/** Entries between two looks at the abort signal. */
const ENTRIES_PER_ABORT_CHECK = 65_536;

/**
 * y = x + Z with Z discrete Laplace of scale t, P(z) ∝ exp(−|z|/t), independently in every entry of the
 * integer answers x of `query`, sampled exactly (Canonne, Kamath & Steinke 2020, Algorithm 2), metered:
 * before the first draw it charges `step` ε = Δ₁/t, Δ₁ the query's L1 sensitivity under the step's
 * relation (counts over a partition under replace-one: ε = 2/t) — (ε, 0) on an (ε, δ) step, ε²/2 on a
 * zCDP step. Cost O(entries) draws.
 */
export function meteredDiscreteLaplace(
  step: ChargeableStep,
  query: QueryKind,
  answers: Float64Array,
  scale: Rational,
  rng: Rng,
  signal?: AbortSignalLike,
): Float64Array {
  const sample = makeDiscreteLaplaceSampler(scale);
  const { l1 } = querySensitivity(query, step.neighbouring);
  step.charge(pureCost(step, l1.div(scale), false));
  const noisy = new Float64Array(answers.length);
  for (let c = 0; c < answers.length; c++) {
    if (c % ENTRIES_PER_ABORT_CHECK === 0) throwIfAborted(signal);
    noisy[c] = answers[c]! + sample(rng);
  }
  return noisy;
}
