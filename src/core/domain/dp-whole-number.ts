import { expm1LowerBound } from '../privacy/expm1-lower-bound';
import type { ChargeableStep } from '../privacy/meter';
import { meteredDiscreteLaplace } from '../privacy/metered/discrete-laplace';
import { querySensitivity, type QueryKind } from '../privacy/query-sensitivity';
import { Rational } from '../rng/rational';
import type { Rng } from '../rng/types';

/**
 * The whole-number flag of a numeric column, decided with ε-DP: whole iff F + Z < T, with F the
 * number of values present that are not whole, Z exact discrete Laplace noise of scale 1/ε
 * (Canonne, Kamath & Steinke 2020) and T = wholeNumberThreshold(n, ε), public. A column whose
 * non-whole values are fewer than about T is treated as whole (its values are rounded), so a
 * column with many fractional values is never rounded whatever share of it is whole.
 *
 * Sensitivity under replace-one with n public: a row is non-whole, or not (a whole value, a
 * missing cell, a cell that is not a number), before and after the replacement, so F moves by at
 * most 1, including a value turning missing or back: Δ = 1, and F + Z is ε-DP; the flag is
 * post-processing. (Under add/remove F also moves by at most 1.) The noise is drawn through the
 * privacy meter (`count` query, privacy/query-sensitivity.ts) at scale Δ/ε, which charges `step`
 * exactly ε.
 */
export function dpWholeNumber(
  step: ChargeableStep,
  rng: Rng,
  nonWhole: number,
  threshold: number,
  epsilon: Rational,
): boolean {
  const scale = querySensitivity(NON_WHOLE_QUERY, step.neighbouring).l1.div(epsilon);
  const [noisy] = meteredDiscreteLaplace(step, NON_WHOLE_QUERY, Float64Array.of(nonWhole), scale, rng);
  return noisy! < threshold;
}

/** The query the flag answers: one count, of the values present that are not whole. */
export const NON_WHOLE_QUERY: QueryKind = { kind: 'count' };

/** Share of the n rows that may be non-whole in a column still flagged whole: 0.5 %. */
export const NON_WHOLE_SHARE = Rational.of(1, 200);

/** β of the flag: the most probability that a whole column (F = 0) is flagged fractional. */
export const WHOLE_MISSED_PROBABILITY = Rational.of(1, 20);

/**
 * T = max(⌈n/200⌉, T_ε) with T_ε = wholeNumberBudgetThreshold(ε): a column is flagged whole when its
 * noisy count of non-whole values stays below 0.5 % of the rows (the share the bounds leave beyond
 * each end by default), or below T_ε when ε is too small for that share to be told from 0. A whole
 * column (F = 0) is then flagged fractional with probability P(Z >= T) = e^(−εT)/(1 + e^(−ε)) <= β.
 * The price: a column with fewer than about T fractional values is called whole and rounded.
 * Public: n and ε only.
 */
export function wholeNumberThreshold(n: number, epsilon: Rational): number {
  return Math.max(wholeNumberRowThreshold(n), wholeNumberBudgetThreshold(epsilon));
}

/** ⌈n/200⌉, at least 1: 0.5 % of the n rows, rounded up. */
export function wholeNumberRowThreshold(n: number): number {
  const share = NON_WHOLE_SHARE;
  return Math.max(1, Number((share.num * BigInt(n) + share.den - 1n) / share.den));
}

/**
 * T_ε = the least whole T >= 1 with e^(−εT) <= β (about ⌈ln(1/β)/ε⌉ = ⌈ln(20)/ε⌉), checked exactly
 * with a lower bound of e^x: 1 + expm1LowerBound(εT) >= 1/β implies e^(εT) >= 1/β. Then
 * P(Z >= T) = e^(−εT)/(1 + e^(−ε)) <= β for discrete Laplace Z of scale 1/ε. For an ε so small that
 * T_ε passes 2^53 it returns Number.MAX_SAFE_INTEGER (the flag is then whole for every column n
 * can hold, and the warning of learnDomain says the budget is too small).
 */
export function wholeNumberBudgetThreshold(epsilon: Rational): number {
  if (!epsilon.isPositive()) throw new RangeError('a whole-number threshold needs ε > 0');
  const inverse = Rational.ONE.div(WHOLE_MISSED_PROBABILITY);
  const estimate = Math.log(inverse.toNumberUp()) / epsilon.toNumberDown();
  if (!(estimate < Number.MAX_SAFE_INTEGER / 2)) return Number.MAX_SAFE_INTEGER;
  const holds = (t: number) =>
    Rational.ONE.add(expm1LowerBound(epsilon.mul(Rational.of(t)))).compare(inverse) >= 0;
  // Start just below the floating-point solution and step up until the exact test holds.
  let t = Math.max(1, Math.floor(estimate) - 1);
  while (!holds(t)) t++;
  return t;
}
