import type { Rational } from '../../rng/rational';
import { MeterMismatchError, type ChargeableStep } from '../meter';
import { querySensitivity, type Neighbouring, type QueryKind } from '../query-sensitivity';
import { pureCost } from './costs';

/**
 * The exponential mechanism over a continuous parameter θ with a score u(θ) to minimise (McSherry &
 * Talwar 2007; Snoke & Slavković 2018, eq. 2), sampled by a Markov chain, metered. The target's log
 * weight is −ε·u/(2Δu), Δu the sensitivity of `query` under the steps' relation (the pMSE score:
 * 1/(2n) when proven, 1/n for greedy trees; privacy/query-sensitivity.ts); the chain gets it from here as
 * `logWeightOfScore` and adds only its prior and burn-in tempering. Every released draw is one
 * exponential-mechanism output at ε: before the chain runs, each of `steps` (one per draw the chain
 * releases, in draw order) is charged ε — (ε, 0) on an (ε, δ) step, ε²/8 on a zCDP step (ε-bounded
 * range, Cesar & Rogers 2021, Lemma 3.2). After it, the chain must have released exactly that many
 * draws (MeterMismatchError otherwise); a chain that releases none (run for its diagnostics) charges
 * nothing. `neighbouring` is the run's relation (every step's). ε holds for exact draws; a finite chain only approximates them,
 * and the doubles ε (rounded down) and Δu (rounded to nearest) are used in the weight, so the mechanism's
 * claim must call its bound unproven.
 */
export function meteredMcmcExponentialMechanism<R extends { draws: readonly unknown[] }>(
  steps: readonly ChargeableStep[],
  neighbouring: Neighbouring,
  query: Extract<QueryKind, { kind: 'pmse-score' }>,
  epsilon: Rational,
  runChain: (logWeightOfScore: (score: number) => number) => R,
): R {
  if (!epsilon.isPositive()) throw new RangeError(`ε must be > 0; got ${epsilon.toString()}`);
  if (steps.some((step) => step.neighbouring !== neighbouring))
    throw new RangeError(`the draws of this chain are for ${neighbouring} neighbours; a step is not`);
  const sensitivity = querySensitivity(query, neighbouring).l1.toNumber();
  for (const step of steps) step.charge(pureCost(step, epsilon, true));
  const weightEpsilon = epsilon.toNumberDown();
  const result = runChain((score) => (-weightEpsilon * score) / (2 * sensitivity));
  if (result.draws.length !== steps.length) {
    throw new MeterMismatchError(
      `Privacy meter: a chain of the exponential mechanism released ${result.draws.length} draws for ` +
        `${steps.length} charged steps; nothing is released.`,
    );
  }
  return result;
}
