import { sampleExponentialMechanismBig } from '../../rng/exponential-mechanism';
import type { Rational } from '../../rng/rational';
import type { Rng } from '../../rng/types';
import { SCORE_GRID } from '../common/pgm/grid-score';
import { aimScore } from './score';

/** A candidate of one round: the data's counts on r, the current model's marginal on r, and w_r. */
export interface ScoredCandidate {
  answer: Float64Array;
  estimate: Float64Array;
  weight: number;
}

/**
 * One AIM selection (paper Alg. 1; private-pgm `worst_approximated`): the exponential mechanism at ε
 * over the candidates' scores q_r (score.ts), sampled exactly, with sensitivity
 *   Δ = countSensitivity · max_r w_r  counts (in 2^−20 grid units),
 * countSensitivity = 2 under replace-one (private-pgm's add/remove uses 1). ε-DP and ε-bounded range,
 * hence ε²/8-zCDP (Cesar & Rogers 2021, Lemma 3.2). The candidate set, the model and σ must come from
 * public facts and earlier DP outputs only. Returns the chosen index.
 */
export function selectMarginal(
  rng: Rng,
  candidates: readonly ScoredCandidate[],
  sigma: number,
  epsilon: Rational,
  countSensitivity = 2,
): number {
  let largestWeight = 0;
  const scores = candidates.map(({ answer, estimate, weight }) => {
    largestWeight = Math.max(largestWeight, weight);
    return aimScore(answer, estimate, weight, sigma);
  });
  const sensitivity = BigInt(countSensitivity) * BigInt(largestWeight) * BigInt(SCORE_GRID);
  return sampleExponentialMechanismBig(rng, scores, epsilon, sensitivity);
}
