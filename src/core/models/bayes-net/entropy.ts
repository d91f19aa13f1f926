import { parseRational, type Rational } from '../../rng/rational';
import { roundUp } from '../../privacy/round-up';

/**
 * Entropies in bits of coded columns over a subset of rows, and their replace-one sensitivity.
 * A column is coded as one level per row (0 … levels − 1, the missing level included).
 */

/** c·log₂c, with 0·log₂0 = 0. */
function countTimesLog(count: number): number {
  return count === 0 ? 0 : count * Math.log2(count);
}

/**
 * Empirical entropy H = −Σ (c/n)·log₂(c/n) = log₂n − (1/n)·Σ c·log₂c of the codes in `codes`
 * (any non-negative integers below `cells`), using `scratch` (length ≥ cells, all zero; left all
 * zero). Cost O(n).
 */
function entropyOfCodes(codes: Uint32Array, scratch: Uint32Array): number {
  const n = codes.length;
  if (n === 0) return 0;
  for (let i = 0; i < n; i++) scratch[codes[i]!]!++;
  let sum = 0;
  for (let i = 0; i < n; i++) {
    const code = codes[i]!;
    const count = scratch[code]!;
    if (count > 0) {
      sum += countTimesLog(count);
      scratch[code] = 0;
    }
  }
  return Math.log2(n) - sum / n;
}

/** Entropy in bits of column `a` (levels `levelsA`) over `rows`. */
export function columnEntropyBits(a: Uint32Array, rows: Uint32Array, levelsA: number): number {
  const codes = new Uint32Array(rows.length);
  for (let r = 0; r < rows.length; r++) codes[r] = a[rows[r]!]!;
  return entropyOfCodes(codes, new Uint32Array(levelsA));
}

/**
 * Joint entropy in bits of columns `a` and `b` over `rows`: the entropy of the pair code
 * a·levelsB + b. `scratch` (length ≥ levelsA·levelsB, all zero) is left all zero.
 */
export function pairEntropyBits(
  a: Uint32Array,
  b: Uint32Array,
  rows: Uint32Array,
  levelsB: number,
  scratch: Uint32Array,
): number {
  const codes = new Uint32Array(rows.length);
  for (let r = 0; r < rows.length; r++) {
    const row = rows[r]!;
    codes[r] = a[row]! * levelsB + b[row]!;
  }
  return entropyOfCodes(codes, scratch);
}

/**
 * Replace-one sensitivity of an empirical entropy over n rows (n public), in bits:
 * ΔH(n) = (n·log₂n − (n − 1)·log₂(n − 1))/n.
 * Replacing a row moves one count from cell a to cell b, changing Σ c·log₂c by
 * [f(c_b + 1) − f(c_b)] − [f(c_a) − f(c_a − 1)] with f(c) = c·log₂c; f(c + 1) − f(c) rises from 0
 * (c = 0) to f(n) − f(n − 1) (c = n − 1), so the change is at most f(n) − f(n − 1) either way, and H
 * moves by that over n. It replaces the add/remove bound of Bindschaedler, Shokri & Gunter (eq. 9).
 * ΔH(2) = 1 bit. Throws RangeError for n < 2.
 */
export function entropySensitivityBits(n: number): number {
  if (!Number.isInteger(n) || n < 2) throw new RangeError(`entropy sensitivity needs n >= 2 rows; got ${n}`);
  // f(n) − f(n − 1) = log₂n + (n − 1)·log₂(1 + 1/(n − 1)): no cancellation between two large terms.
  return (Math.log2(n) + ((n - 1) * Math.log1p(1 / (n - 1))) / Math.LN2) / n;
}

/**
 * A rational ΔH⁺ >= ΔH(n): the double widened by a relative 10⁻¹² (log₂ in ECMAScript is within a
 * few ulps) and rounded up to 15 significant digits.
 */
export function entropySensitivityUpperBound(n: number): Rational {
  return parseRational(roundUp(entropySensitivityBits(n) * (1 + 1e-12), 15));
}
