import type { Rational } from '../rng/rational';
import { roundUpRational } from './round-up';

/** Largest number of decimal places written out in full before falling back to a fraction. */
const MAX_EXACT_DECIMAL_PLACES = 20;

/** The exponent of prime p in n (n > 0). */
function multiplicity(n: bigint, p: bigint): number {
  let count = 0;
  while (n % p === 0n) {
    n /= p;
    count += 1;
  }
  return count;
}

/**
 * A privacy value for messages, written exactly: a terminating decimal when the denominator has no
 * prime factor other than 2 and 5 ("0.1", "0.0005"), else the fraction with its value rounded up
 * ("1/3 (≈ 0.333334)"). Example: formatRational(Rational.of(1, 8)) === "0.125".
 */
export function formatRational(r: Rational): string {
  const twos = multiplicity(r.den, 2n);
  const fives = multiplicity(r.den, 5n);
  const terminates = r.den === 2n ** BigInt(twos) * 5n ** BigInt(fives);
  const places = Math.max(twos, fives);
  if (!terminates || places > MAX_EXACT_DECIMAL_PLACES) {
    return `${r.toString()} (≈ ${roundUpRational(r)})`;
  }
  const scaled = (r.num * 10n ** BigInt(places)) / r.den;
  const negative = scaled < 0n;
  const digits = (negative ? -scaled : scaled).toString().padStart(places + 1, '0');
  const whole = digits.slice(0, digits.length - places);
  const fraction = digits.slice(digits.length - places);
  return `${negative ? '-' : ''}${whole}${places > 0 ? `.${fraction}` : ''}`;
}
