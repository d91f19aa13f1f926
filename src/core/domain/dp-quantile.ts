import { sampleExponentialMechanism } from '../rng/exponential-mechanism';
import { Rational } from '../rng/rational';
import type { Rng } from '../rng/types';

/** Count of entries of the ascending array `sorted` that are < x (strict) or <= x. */
function countBelow(sorted: Float64Array, x: number, inclusive: boolean): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (inclusive ? sorted[mid]! <= x : sorted[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Which end of the data a bound closes. */
export type BoundEnd = 'lower' | 'upper';

/**
 * Integer scores of the exponential mechanism that picks a bound among the ascending public
 * candidates g₀ < … < g_K, so that about `rank` values lie beyond it. Each candidate stands for the
 * grid cell on its inner side, and the bound is the cell's outer edge, so the result is rounded
 * outward to a grid value:
 * - lower: candidate i stands for [gᵢ, gᵢ₊₁) (the last for [g_K, ∞)); with a(g) = #{x < g} the
 *   cell holds the ranks [a(gᵢ), a(gᵢ₊₁)] counted from below (a(∞) = m, the values present);
 * - upper: candidate i stands for (gᵢ₋₁, gᵢ] (the first for (−∞, g₀]); with c(g) = #{x > g} it
 *   holds [c(gᵢ), c(gᵢ₋₁)] counted from above (c(−∞) = m).
 * score(i) = −(distance from `rank` to the cell's interval of ranks): 0 for the cell holding the
 * rank-th value, −rank for every cell beyond the data. (Scoring a point g by |a(g) − rank| instead
 * would tie every candidate below the data with a readable candidate just below it, which a coarse
 * grid often makes the best one.)
 *
 * Sensitivity under replace-one with n public, when the rank is r(m), a function of the number m
 * of values present that never falls and rises by at most 1 when m rises by 1 (boundRank):
 * score(i) = −max(lo − r, r − hi, 0) with [lo, hi] the cell's interval of ranks.
 * - Value x → value y: m and r stay; every count a(g), c(g) moves by at most 1 (the count curve
 *   moves by 1 between x and y, at any one g by at most 1), so lo − r and r − hi move by at most 1.
 * - Value x → no value (missing, or a cell that is not a number): m falls by 1 and r by some
 *   ρ ∈ {0, 1}; every count falls by some e ∈ {0, 1} (1 where x is counted) and the end m by 1. So
 *   lo − r moves by ρ − e ∈ [−1, 1] and r − hi by e′ − ρ ∈ [−1, 1]: both move the same way, which is
 *   why r must not fall as m rises. No value → value y is the same pair seen from the other side.
 * The maximum of terms that each move by at most 1 moves by at most 1: Δ = 1. (A rank that fell
 * as m rose, or jumped by 2, would give Δ = 2: dp-quantile.test.ts checks both by brute force.)
 */
export function boundScores(
  sortedValues: Float64Array,
  rank: number,
  candidates: readonly number[],
  end: BoundEnd,
): number[] {
  const m = sortedValues.length;
  const k = candidates.length;
  const below = candidates.map((g) => countBelow(sortedValues, g, false));
  const above = candidates.map((g) => m - countBelow(sortedValues, g, true));
  const distance = (from: number, to: number) => {
    const d = Math.max(from - rank, rank - to, 0);
    return d === 0 ? 0 : -d;
  };
  return candidates.map((_, i) =>
    end === 'lower'
      ? distance(below[i]!, i + 1 < k ? below[i + 1]! : m)
      : distance(above[i]!, i > 0 ? above[i - 1]! : m),
  );
}

/** Sensitivity of boundScores under replace-one, in rows. */
export const BOUND_SCORE_SENSITIVITY = 1;

/**
 * The rank a bound aims at, from the number m of values present and public facts: ⌈q·m⌉ values
 * below the lower bound for its quantile q, ⌈(1 − q)·m⌉ above the upper bound for its q, but at
 * least s = (2/ε)·ln(K/β) with K candidates and β = 1/100, and at most ⌊m/4⌋. With fewer target
 * rows than s, every cell beyond the data would score within (2/ε)·ln(K/β) of the best, and their
 * number would make a bound far outside the data likely; at this rank all of them together are
 * chosen with probability at most β (each has weight e^(−ε·rank/2) against 1 for the cell holding
 * the rank). A larger ε·m lets the bound reach q.
 *
 * The rank counts the values present, not the n rows: a rank above m would put the bound inside
 * or beyond the far end of the data. m is not public, so boundScores' sensitivity holds only
 * because this rank never falls and rises by at most 1 when m rises by 1: ⌈q·m⌉ (q <= 1) and
 * ⌊m/4⌋ each do, a constant s does, and so do the maximum and the minimum of such functions.
 */
export function boundRank(
  q: Rational,
  end: BoundEnd,
  present: number,
  epsilon: Rational,
  candidates: number,
): number {
  const wanted = quantileRows(q, end, present);
  return Math.max(0, Math.min(Math.max(wanted, safeBoundRank(epsilon, candidates)), Math.floor(present / 4)));
}

/** ⌈share·count⌉: of `count` values, how many the quantile q leaves beyond a bound at `end`. */
export function quantileRows(q: Rational, end: BoundEnd, count: number): number {
  const share = end === 'lower' ? q : Rational.ONE.sub(q);
  return Number((share.num * BigInt(count) + share.den - 1n) / share.den);
}

/**
 * (2/ε)·ln(K/β), rounded up: the fewest target rows for which the cells beyond the data keep at
 * most β. When it exceeds m/4, boundRank stops at m/4 and that promise no longer holds.
 */
export function safeBoundRank(epsilon: Rational, candidates: number): number {
  return Math.ceil((2 / epsilon.toNumberDown()) * Math.log(candidates / FAR_BOUND_PROBABILITY));
}

/** β of boundRank: the most probability left to bounds beyond all the data. */
export const FAR_BOUND_PROBABILITY = 0.01;

/**
 * A bound chosen among the public candidates by the exponential mechanism (McSherry & Talwar 2007)
 * over boundScores at the rank boundRank gives for the values present and the quantile q, sampled
 * exactly (Δ = 1 row): ε-DP. Returns the candidate's index.
 */
export function dpBoundIndex(
  rng: Rng,
  sortedValues: Float64Array,
  q: Rational,
  candidates: readonly number[],
  end: BoundEnd,
  epsilon: Rational,
): number {
  const rank = boundRank(q, end, sortedValues.length, epsilon, candidates.length);
  const scores = boundScores(sortedValues, rank, candidates, end);
  return sampleExponentialMechanism(rng, scores, epsilon, BOUND_SCORE_SENSITIVITY);
}
