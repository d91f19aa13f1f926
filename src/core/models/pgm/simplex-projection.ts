/**
 * The weighted least-squares projection of y onto {x >= 0, Σx = total}:
 *   argmin_x Σ_l w_l (x_l − y_l)²  subject to x >= 0, Σ x_l = total,
 * whose KKT solution is x_l = max(0, y_l − λ/w_l) for the λ with Σ x_l = total; g(λ) = Σ x_l
 * decreases in λ, so λ is found by bisection between max_l w_l(y_l − total) (g >= total) and
 * max_l w_l·y_l (g = 0). With equal weights this is the Euclidean projection onto the scaled simplex
 * (Duchi et al. 2008). Used for the closed-form one-way model: each column's noisy histogram is
 * measured on its own, so the best product distribution fits each one separately.
 * Requires total > 0 and weights > 0. Cost O(k · 200).
 */
export function projectOntoScaledSimplex(
  y: Float64Array,
  weights: Float64Array,
  total: number,
): Float64Array {
  const k = y.length;
  let lo = -Infinity;
  let hi = -Infinity;
  for (let l = 0; l < k; l++) {
    lo = Math.max(lo, weights[l]! * (y[l]! - total));
    hi = Math.max(hi, weights[l]! * y[l]!);
  }
  const sumAt = (lambda: number): number => {
    let sum = 0;
    for (let l = 0; l < k; l++) sum += Math.max(0, y[l]! - lambda / weights[l]!);
    return sum;
  };
  for (let step = 0; step < 200 && hi - lo > 0; step++) {
    const mid = lo + (hi - lo) / 2;
    if (mid <= lo || mid >= hi) break;
    if (sumAt(mid) >= total) lo = mid;
    else hi = mid;
  }
  const x = new Float64Array(k);
  let sum = 0;
  for (let l = 0; l < k; l++) {
    x[l] = Math.max(0, y[l]! - lo / weights[l]!);
    sum += x[l]!;
  }
  // The bracket is exhausted to the last bit; rescale away the remaining rounding of Σx.
  if (sum > 0) for (let l = 0; l < k; l++) x[l] = (x[l]! * total) / sum;
  else x.fill(total / k);
  return x;
}
