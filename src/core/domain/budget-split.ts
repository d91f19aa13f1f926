import { formatRational } from '../privacy/format-rational';
import { roundDownRational } from '../privacy/round-up';
import { parseRational, Rational } from '../rng/rational';

/** Significant digits of each step's share: a terminating decimal, so the schema records it exactly. */
const SHARE_DIGITS = 12;

/**
 * `total · part / whole`, rounded down to a 12-digit decimal: the steps of a split never add up to
 * more than the total, and each is written in the schema as the exact decimal it is.
 */
export function shareOf(total: Rational, part: number, whole: number): Rational {
  if (total.isZero() || part === 0) return Rational.ZERO;
  return parseRational(roundDownRational(total.mul(Rational.of(part, whole)), SHARE_DIGITS));
}

/**
 * A terminating decimal written exactly, so that parseRational reads back the same rational:
 * "0.025", or "125e-30" when it has more than 20 decimal places. Throws RangeError for a rational
 * that has no terminating decimal (every share made by shareOf has one).
 */
export function exactDecimal(r: Rational): string {
  let twos = 0;
  let fives = 0;
  let den = r.den;
  while (den % 2n === 0n) {
    den /= 2n;
    twos++;
  }
  while (den % 5n === 0n) {
    den /= 5n;
    fives++;
  }
  if (den !== 1n) throw new RangeError(`${r.toString()} has no terminating decimal`);
  const places = Math.max(twos, fives);
  const scaled = (r.num * 10n ** BigInt(places)) / r.den;
  if (places > 20) return `${scaled}e-${places}`;
  return formatRational(r);
}
