import type { ChargeableStep } from '../../privacy/meter';
import { meteredExponentialMechanismBig } from '../../privacy/metered/exponential-mechanism';
import type { Rational } from '../../rng/rational';
import type { Rng } from '../../rng/types';
import { SCORE_GRID } from '../common/graphical-models/grid-score';
import { aimScore } from './score';

/** A candidate of one round: the data's counts on r, the current model's marginal on r, and w_r. */
export interface ScoredCandidate {
  answer: Float64Array;
  estimate: Float64Array;
  weight: number;
}

/**
 * One AIM selection (paper Alg. 1; private-pgm `worst_approximated`): the exponential mechanism at ε
 * over the candidates' scores q_r (score.ts), sampled exactly through the privacy meter, for the query
 * "L1-error score of weight max_r w_r" on the 2^−20 grid: every q_r moves by at most w_r times the
 * counts' L1 change, so Δ = 2·max w counts under replace-one (private-pgm's add/remove uses max w).
 * ε-DP and ε-bounded range, hence ε²/8-zCDP (Cesar & Rogers 2021, Lemma 3.2), charged to `step`
 * before the draw. The candidate set, the model and σ must come from public facts and earlier DP
 * outputs only. Returns the chosen index.
 */
export function selectMarginal(
  step: ChargeableStep,
  rng: Rng,
  candidates: readonly ScoredCandidate[],
  sigma: number,
  epsilon: Rational,
): number {
  let largestWeight = 0;
  const scores = candidates.map(({ answer, estimate, weight }) => {
    largestWeight = Math.max(largestWeight, weight);
    return aimScore(answer, estimate, weight, sigma);
  });
  return meteredExponentialMechanismBig(
    step,
    { kind: 'l1-error-score', weight: largestWeight, grid: SCORE_GRID },
    scores,
    epsilon,
    rng,
  );
}
