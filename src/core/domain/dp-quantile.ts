import type { ChargeableStep } from '../privacy/meter';
import { meteredExponentialMechanism } from '../privacy/metered/exponential-mechanism';
import type { QueryKind } from '../privacy/query-sensitivity';
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
 * Write Iᵢ(j) for the count j candidates inward of i (lower: a(gᵢ₊ⱼ), upper: c(gᵢ₋ⱼ); m past the
 * grid's end), so the cell holds [Iᵢ(0), Iᵢ(1)]. Then
 *   score(i) = −max(Iᵢ(0) − r, r − Iᵢ(1), max_{j ≥ 2} (min(r + j − 1, R) − Iᵢ(j)), 0)
 * with r = `rank` and R = `reach` (default r, which leaves only the first two terms). The first two
 * are the distance from r to the cell's interval of ranks: 0 for the cell holding the r-th value.
 * (Scoring a point g by |a(g) − rank| instead would tie every candidate below the data with a
 * readable candidate just below it, which a coarse grid often makes the best one.)
 * The third asks for at least one more value per grid cell inward, up to R values: a cell t cells
 * beyond the data (no value between it and the data) scores −max(r, min(r + t − 1, R)), so the
 * cells beyond the data lose weight with their distance and every cell R − r + 1 or more cells
 * beyond scores −R, where the rank term alone gave every such cell −r (with 363 candidates, about
 * 180 of them beyond the data, a small r then made a bound far outside the data likely). A cell
 * inside data that hold at least one value per cell is not touched by it (Iᵢ(j) >= r + j − 1 for
 * the cell holding the r-th value, j >= 1); a sparser tail pushes the bound inward.
 *
 * Sensitivity, replace-one with n public and add/remove alike, when r = r(m) and R = R(m) are
 * functions of the number m of values present that never fall and rise by at most 1 when m rises
 * by 1 (boundRank, boundReach), and so is every min(r(m) + j − 1, R(m)):
 * - value x → value y (replace-one): m, r, R stay; every count Iᵢ(j) moves by at most 1 (the count
 *   curve moves by 1 between x and y, at any one g by at most 1), so every term moves by at most 1;
 * - value x → no value (a missing cell, or a cell that is not a number, under replace-one; the row
 *   removed, under add/remove; the reverse is the same pair seen from the other side): m falls by
 *   1, a threshold t(m) (r, or min(r + j − 1, R)) by some ρ ∈ {0, 1}, every count by some
 *   e ∈ {0, 1} (1 where x is counted, and 1 for the end m). So a term count − t moves by e − ρ and
 *   a term t − count by ρ − e, each in [−1, 1]: count and threshold move the same way, which is why
 *   a threshold must not fall as m rises (a falling or jumping r gives 2);
 * - no value → no value (or adding or removing a row without a value): nothing changes.
 * The maximum of terms that each move by at most 1 moves by at most 1: Δ = 1.
 * (dp-quantile.test.ts checks both by brute force, with controls that give Δ = 2.)
 */
export function boundScores(
  sortedValues: Float64Array,
  rank: number,
  candidates: readonly number[],
  end: BoundEnd,
  reach: number = rank,
): number[] {
  const m = sortedValues.length;
  const k = candidates.length;
  const below = candidates.map((g) => countBelow(sortedValues, g, false));
  const above = candidates.map((g) => m - countBelow(sortedValues, g, true));
  // The count j candidates inward of candidate i (m past the grid's end).
  const inward = (i: number, j: number) =>
    end === 'lower' ? (i + j < k ? below[i + j]! : m) : i - j >= 0 ? above[i - j]! : m;
  // min(r + j − 1, R) stops growing at j = R − r + 1, where the count is at its least among larger j.
  const lastJ = Math.max(1, reach - rank + 1);
  return candidates.map((_, i) => {
    let d = Math.max(inward(i, 0) - rank, rank - inward(i, 1), 0);
    for (let j = 2; j <= lastJ; j++) d = Math.max(d, Math.min(rank + j - 1, reach) - inward(i, j));
    return d === 0 ? 0 : -d;
  });
}

/** Sensitivity of boundScores, in rows (replace-one and add/remove alike). */
export const BOUND_SCORE_SENSITIVITY = 1;

/**
 * The rank a bound aims at, from the number m of values present: ⌈q·m⌉ values below the lower
 * bound for its quantile q, ⌈(1 − q)·m⌉ above the upper bound for its q, at most ⌊m/4⌋. (The far
 * bounds the rank alone would leave likely at a small ε are kept off by boundScores' reach.)
 *
 * The rank counts the values present, not the n rows: a rank above m would put the bound inside
 * or beyond the far end of the data. m is not public, so boundScores' sensitivity holds only
 * because this rank never falls and rises by at most 1 when m rises by 1: ⌈q·m⌉ (q <= 1) and
 * ⌊m/4⌋ each do, and so does the minimum of such functions.
 */
export function boundRank(q: Rational, end: BoundEnd, present: number): number {
  return Math.max(0, Math.min(quantileRows(q, end, present), Math.floor(present / 4)));
}

/**
 * R of boundScores: min(s, m), s = safeBoundRank(ε, K), m the values present. Every cell R − r + 1
 * or more cells beyond the data scores −R, so where the data hold at least one value per grid cell
 * inward from the target up to R values (the cell holding the target scores 0), all those cells
 * together are chosen with probability at most K·e^(−ε·s/2) <= β (m >= s). Never falls and rises
 * by at most 1 when m rises by 1 (a constant and m each do, and so does their minimum).
 */
export function boundReach(present: number, epsilon: Rational, candidates: number): number {
  return Math.min(safeBoundRank(epsilon, candidates), present);
}

/** ⌈share·count⌉: of `count` values, how many the quantile q leaves beyond a bound at `end`. */
export function quantileRows(q: Rational, end: BoundEnd, count: number): number {
  const share = end === 'lower' ? q : Rational.ONE.sub(q);
  return Number((share.num * BigInt(count) + share.den - 1n) / share.den);
}

/**
 * s = (2/ε)·ln(K/β), rounded up: the score gap for which K cells, each with weight e^(−ε·s/2)
 * against 1 for the best, keep at most β together. When it exceeds m, boundReach stops at m and
 * that promise no longer holds.
 */
export function safeBoundRank(epsilon: Rational, candidates: number): number {
  return Math.ceil((2 / epsilon.toNumberDown()) * Math.log(candidates / FAR_BOUND_PROBABILITY));
}

/** β of boundReach: the most probability left to bounds far beyond the data. */
export const FAR_BOUND_PROBABILITY = 0.01;

/**
 * A bound chosen among the public candidates by the exponential mechanism (McSherry & Talwar 2007)
 * over boundScores at the rank boundRank and the reach boundReach give for the values present, the
 * quantile q, ε and the number of candidates, sampled exactly (Δ = 1 row): ε-DP. Returns the
 * candidate's index.
 */
export function dpBoundIndex(
  step: ChargeableStep,
  rng: Rng,
  sortedValues: Float64Array,
  q: Rational,
  candidates: readonly number[],
  end: BoundEnd,
  epsilon: Rational,
): number {
  const m = sortedValues.length;
  const rank = boundRank(q, end, m);
  const scores = boundScores(sortedValues, rank, candidates, end, boundReach(m, epsilon, candidates.length));
  return meteredExponentialMechanism(step, BOUND_SCORE_QUERY, scores, epsilon, rng);
}

/**
 * The query a bound's scores answer (privacy/query-sensitivity.ts, Δ = 1 row under replace-one and
 * add/remove, as derived at boundScores): the exponential mechanism draws through the privacy meter,
 * which charges the step exactly ε before the draw.
 */
export const BOUND_SCORE_QUERY: QueryKind = { kind: 'quantile-cell-score' };
