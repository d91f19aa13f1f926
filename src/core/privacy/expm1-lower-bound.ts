import { parseRational, type Rational } from '../rng/rational';
import { roundDown } from './round-up';

/**
 * Relative margin taken off Math.expm1: ECMAScript leaves its accuracy to the implementation, and
 * the engines in use are within one or two units in the last place (about 2e−16); 1e−12 covers that.
 */
const EXPM1_RELATIVE_MARGIN = 1e-12;

/**
 * An exact rational that is <= e^x − 1 for a rational x > 0, for prior weights such as
 * α = n/(e^ε − 1) that must not come out smaller than the exact value (a larger α is more private).
 * The larger of two lower bounds: x itself (e^x − 1 >= x for every x, from the series), and
 * Math.expm1 at the double just below x, shrunk by a relative 1e−12 and rounded down to 15
 * significant digits. Throws RangeError unless x > 0. Cost O(1).
 * Example: expm1LowerBound(1) ≈ 1.71828182845733 (e − 1 = 1.71828182845905…).
 */
export function expm1LowerBound(x: Rational): Rational {
  if (!x.isPositive()) throw new RangeError(`expm1LowerBound: x must be > 0, got ${x.toString()}`);
  const value = Math.expm1(x.toNumberDown()) * (1 - EXPM1_RELATIVE_MARGIN);
  const floating = Number.isFinite(value)
    ? parseRational(roundDown(value, 15))
    : parseRational(roundDown(Number.MAX_VALUE, 15));
  return floating.compare(x) > 0 ? floating : x;
}
