/**
 * The smoothing weight λ of Wasserman & Zhou's smoothed histogram (DIPS study, Bowen & Liu §3.1.2,
 * eqs. 6–7), derived for replace-one neighbours and for T rows drawn in total.
 *
 * The released rows are T independent draws from the cell probabilities
 *   q_k = (1 − λ)·n_k/n + λ/K,   k = 1 … K   (eq. 6 on the binned domain; Ω = 1/K per cell).
 * Replacing one row moves one count n_a → n_a − 1 and another n_b → n_b + 1 with n fixed, so
 * q_a and q_b move by (1 − λ)/n and every other q_k stays put. Since every q_k ≥ λ/K,
 *   q_k / q'_k ≤ 1 + (1 − λ)/(n·q'_k) ≤ 1 + (1 − λ)K/(nλ)   for every cell, in both directions,
 * with equality when the cell holds one row in one dataset and none in the other. The T draws
 * multiply, and all T may land in that cell, so the release is ε-DP exactly when
 *   T·log(1 + (1 − λ)K/(nλ)) ≤ ε   ⇔   λ ≥ K / (K + n·(e^(ε/T) − 1)).
 * With T = n this is eq. (7). Under replace-one the bound coincides with the paper's, because with
 * n fixed only two cells move (add/remove would also change n in every cell's n_k/n).
 *
 * M synthetic datasets of n rows each are M·n draws from the same q: the privacy comes from the
 * sampling, so the releases compose through T = M·n — they are not free post-processing, but ε is
 * not split either; the composition is inside λ.
 *
 * Returned as ρ = (1 − λ)/λ, the ratio that the guarantee bounds: ρ_max = n·(e^(ε/T) − 1)/K.
 * Precondition: n ≥ 1, T ≥ 1, K ≥ 1, ε > 0. Cost O(1).
 * Example: K = 10, n = 100, T = 100, ε = 1 → ρ_max = 100·(e^0.01 − 1)/10 = 0.100502, λ = 0.908676.
 */
export function largestSmoothingOddsForEpsilon(
  domainCells: number,
  n: number,
  totalDrawnRows: number,
  epsilon: number,
): number {
  return (n * Math.expm1(epsilon / totalDrawnRows)) / domainCells;
}

/** ε actually spent by T draws with uniform-branch probability λ: T·log(1 + (1 − λ)K/(nλ)). */
export function epsilonOfSmoothedDraws(
  domainCells: number,
  n: number,
  totalDrawnRows: number,
  lambda: number,
): number {
  return totalDrawnRows * Math.log1p(((1 - lambda) * domainCells) / (n * lambda));
}

/**
 * The λ used for sampling: 1/(1 + ρ) from ρ = ρ_max·(1 − 10⁻¹²), then raised by 2⁻⁵¹ and capped at 1.
 * The relative shrink absorbs the rounding of expm1 and the products; the absolute raise absorbs the
 * rounding of 1/(1 + ρ) (under 2 ulps of a number ≤ 1). Comparing a 53-bit uniform with λ gives the
 * uniform branch a probability ≥ λ, so the drawn rows satisfy the bound above exactly; the margin
 * costs nothing measurable. For n = 0 (nothing is drawn) λ = 1.
 * `epsilon` must already be rounded down from the exact budget.
 */
export function smoothingWeight(
  domainCells: number,
  n: number,
  totalDrawnRows: number,
  epsilon: number,
): number {
  if (n === 0 || totalDrawnRows === 0) return 1;
  const odds = largestSmoothingOddsForEpsilon(domainCells, n, totalDrawnRows, epsilon) * (1 - 1e-12);
  return Math.min(1, 1 / (1 + odds) + 2 ** -51);
}
