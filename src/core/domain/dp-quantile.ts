import { sampleExponentialMechanism } from '../rng/exponential-mechanism';
import type { Rational } from '../rng/rational';
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

/**
 * Integer scores of the exponential mechanism for the q-quantile, q = k/K in lowest terms, over
 * the ascending public candidates g: with m values present, a(g) = #{x < g} and b(g) = #{x <= g},
 *
 *   score(g) = −max(K·a(g) − k·m,  k·m − K·b(g),  0),
 *
 * i.e. −K times the distance from the target rank q·m to the interval [a(g), b(g)] of ranks that g
 * holds. A candidate at a value held by many rows (a point mass at the minimum, zeros) scores 0
 * when the target rank falls inside it, where the plain |a(g) − q·m| would tie it with every
 * candidate below the data.
 *
 * Sensitivity under replace-one with n public (the number m of values present is not public, so
 * it is part of the statistic): replacing one row changes each of a(g) and b(g) by at most 1, and
 * m by at most 1, and only when the row turns between a value and a missing cell:
 * - value x → value y: m is unchanged; a(g) and b(g) each move by at most 1 (the count curve moves
 *   by 1 in the two places x and y, but at any one g by at most 1), so K·a − k·m and k·m − K·b move
 *   by at most K.
 * - value x → missing (or back): m moves by 1 and a(g) by 0 or 1 in the same direction, so K·a − k·m
 *   moves by k or K − k, and k·m − K·b likewise: at most K, since 0 <= k <= K.
 * A maximum of terms that each move by at most K moves by at most K, so Δ = K exactly in these units.
 */
export function quantileScores(
  sortedValues: Float64Array,
  q: Rational,
  candidates: readonly number[],
): { scores: number[]; sensitivity: number } {
  const k = q.num;
  const K = q.den;
  const m = BigInt(sortedValues.length);
  if (k < 0n || k > K) throw new RangeError(`a quantile must lie in [0, 1]; got ${q.toString()}`);
  const largest = K * (m + 1n);
  if (largest > BigInt(Number.MAX_SAFE_INTEGER)) {
    throw new RangeError(
      `quantile ${q.toString()} with ${sortedValues.length} values needs scores beyond 2^53; give the ` +
        'quantile with fewer digits',
    );
  }
  const target = Number(k * m);
  const scale = Number(K);
  const scores = candidates.map((g) => {
    const a = countBelow(sortedValues, g, false);
    const b = countBelow(sortedValues, g, true);
    return -Math.max(scale * a - target, target - scale * b, 0);
  });
  return { scores, sensitivity: scale };
}

/**
 * The q-quantile of the present values, chosen among the public candidates by the exponential
 * mechanism (McSherry & Talwar 2007; the quantile score as in Smith 2011 and OpenDP's
 * `make_quantile_score_candidates`, here with the interval form above), sampled exactly: ε-DP.
 * Returns the index of the chosen candidate.
 */
export function dpQuantileIndex(
  rng: Rng,
  sortedValues: Float64Array,
  q: Rational,
  candidates: readonly number[],
  epsilon: Rational,
): number {
  const { scores, sensitivity } = quantileScores(sortedValues, q, candidates);
  return sampleExponentialMechanism(rng, scores, epsilon, sensitivity);
}
