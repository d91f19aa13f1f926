import type { Rational } from '../rng/rational';
import { roundDownRational, roundUpRational, sqrtRationalDown } from './round-up';

/** σ = √σ² rounded down to 4 significant digits, for sentences (a smaller σ shown is the cautious side). */
export function sigmaInWords(sigma2: Rational): string {
  return String(roundDownRational(sqrtRationalDown(sigma2, 4), 4));
}

/** An ε for sentences, rounded up to 6 significant digits (privacy rule 7). */
export function epsilonInWords(epsilon: Rational): string {
  return String(roundUpRational(epsilon));
}
