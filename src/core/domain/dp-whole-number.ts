import { makeDiscreteLaplaceSampler } from '../rng/discrete-laplace';
import { Rational } from '../rng/rational';
import type { Rng } from '../rng/types';

/**
 * The whole-number flag of a numeric column, decided with ε-DP: whole iff F + Z < T, with F the
 * number of values present that are not whole, Z exact discrete Laplace noise of scale 1/ε
 * (Canonne, Kamath & Steinke 2020) and T = wholeNumberThreshold(n), public. A column whose
 * non-whole values are fewer than about T is treated as whole (its values are rounded), so a
 * column with many fractional values is never rounded whatever share of it is whole.
 *
 * Sensitivity under replace-one with n public: a row is non-whole, or not (a whole value, a
 * missing cell, a cell that is not a number), before and after the replacement, so F moves by at
 * most 1, including a value turning missing or back: Δ = 1, and F + Z is ε-DP; the flag is
 * post-processing.
 */
export function dpWholeNumber(rng: Rng, nonWhole: number, threshold: number, epsilon: Rational): boolean {
  const noise = makeDiscreteLaplaceSampler(NON_WHOLE_COUNT_SENSITIVITY.div(epsilon))(rng);
  return nonWhole + noise < threshold;
}

/** L1 sensitivity of the count of non-whole values under replace-one. */
export const NON_WHOLE_COUNT_SENSITIVITY = Rational.ONE;

/** Share of the n rows that may be non-whole in a column still flagged whole: 0.5 %. */
export const NON_WHOLE_SHARE = Rational.of(1, 200);

/**
 * T = max(1, ⌈n/200⌉): a column is flagged whole when its noisy count of non-whole values stays
 * below 0.5 % of the rows, the share the bounds leave beyond each end by default. Public: n only.
 */
export function wholeNumberThreshold(n: number): number {
  const share = NON_WHOLE_SHARE;
  return Math.max(1, Number((share.num * BigInt(n) + share.den - 1n) / share.den));
}
