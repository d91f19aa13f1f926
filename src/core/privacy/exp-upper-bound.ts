import { parseRational, type Rational } from '../rng/rational';
import { roundUp } from './round-up';

/**
 * Relative margin added to Math.exp: ECMAScript leaves its accuracy to the implementation, and the
 * engines in use are within one or two units in the last place (about 2e−16); 1e−12 covers that with
 * room to spare.
 */
const EXP_RELATIVE_MARGIN = 1e-12;

/**
 * An exact rational that is >= e^x, for composing δ terms such as (1 + e^ε)·δ without rounding
 * down: e^x is evaluated at the double just above x, widened by a relative 1e−12, and rounded up to
 * 15 significant decimal digits. Returns null when e^x overflows a double (x > 709.78). Cost O(1).
 */
export function exponentialUpperBound(x: Rational): Rational | null {
  const value = Math.exp(x.toNumberUp()) * (1 + EXP_RELATIVE_MARGIN);
  if (!Number.isFinite(value)) return null;
  return parseRational(roundUp(value, 15));
}
