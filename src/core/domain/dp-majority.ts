import { makeDiscreteLaplaceSampler } from '../rng/discrete-laplace';
import { Rational } from '../rng/rational';
import type { Rng } from '../rng/types';

/**
 * Whether more rows have a property than have its opposite, decided with ε-DP: with `yes` rows that
 * have it and `no` rows that have the opposite (other rows, e.g. missing cells, count for neither),
 * the answer is yes + … (yes − no) + Z ≥ 1 with Z exact discrete Laplace noise of scale 2/ε
 * (Canonne, Kamath & Steinke 2020), so a tie answers no.
 *
 * Sensitivity under replace-one with n public: one replaced row leaves one of the three groups
 * (yes, no, neither) and joins one, so yes − no moves by at most 2 (a row turning from yes to no);
 * noise of scale Δ/ε = 2/ε makes the noisy difference ε-DP, and the answer is post-processing.
 */
export function dpMajority(rng: Rng, yes: number, no: number, epsilon: Rational): boolean {
  const noise = makeDiscreteLaplaceSampler(MAJORITY_SENSITIVITY.div(epsilon))(rng);
  return yes - no + noise >= 1;
}

/** L1 sensitivity of yes − no under replace-one. */
export const MAJORITY_SENSITIVITY = Rational.of(2);
