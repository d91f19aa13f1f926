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
 * Sensitivity under replace-one with n public: `rank` is fixed from public facts (boundRank), and
 * replacing one row moves every count a(g), c(g) and m by at most 1 (value x → value y moves the
 * count curve by 1 in the two places x and y, at any one g by at most 1; value ↔ missing moves it
 * by at most 1 everywhere); the distance from a fixed point to an interval moves by at most the
 * largest move of its ends, so every score moves by at most Δ = 1.
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
 * The rank a bound aims at, from public facts only: ⌈q·n⌉ rows below the lower bound for its
 * quantile q, ⌈(1 − q)·n⌉ above the upper bound for its q, but at least (2/ε)·ln(K/β) with K candidates and β = 1/100, and
 * at most ⌊n/4⌋. With fewer target rows than that, every cell beyond the data would score within
 * (2/ε)·ln(K/β) of the best, and their number would make a bound far outside the data likely; at
 * this rank all of them together are chosen with probability at most β (each has weight
 * e^(−ε·rank/2) against 1 for the cell holding the rank). A larger ε·n lets the bound reach q.
 */
export function boundRank(
  q: Rational,
  end: BoundEnd,
  n: number,
  epsilon: Rational,
  candidates: number,
): number {
  const share = end === 'lower' ? q : Rational.ONE.sub(q);
  const wanted = Number((share.num * BigInt(n) + share.den - 1n) / share.den);
  return Math.max(0, Math.min(Math.max(wanted, safeBoundRank(epsilon, candidates)), Math.floor(n / 4)));
}

/**
 * (2/ε)·ln(K/β), rounded up: the fewest target rows for which the cells beyond the data keep at
 * most β. When it exceeds n/4, boundRank stops at n/4 and that promise no longer holds.
 */
export function safeBoundRank(epsilon: Rational, candidates: number): number {
  return Math.ceil((2 / epsilon.toNumberDown()) * Math.log(candidates / FAR_BOUND_PROBABILITY));
}

/** β of boundRank: the most probability left to bounds beyond all the data. */
export const FAR_BOUND_PROBABILITY = 0.01;

/**
 * A bound chosen among the public candidates by the exponential mechanism (McSherry & Talwar 2007)
 * over boundScores, sampled exactly (Δ = 1 row): ε-DP. Returns the candidate's index.
 */
export function dpBoundIndex(
  rng: Rng,
  sortedValues: Float64Array,
  rank: number,
  candidates: readonly number[],
  end: BoundEnd,
  epsilon: Rational,
): number {
  const scores = boundScores(sortedValues, rank, candidates, end);
  return sampleExponentialMechanism(rng, scores, epsilon, BOUND_SCORE_SENSITIVITY);
}
