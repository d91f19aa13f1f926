/**
 * Survival function of the Kolmogorov distribution, the limit law of √n·D_n for the one-sample
 * Kolmogorov–Smirnov statistic D_n (Kolmogorov 1933):
 *   Q_K(λ) = P(K > λ) = 2 Σ_{k>=1} (−1)^(k−1) e^(−2k²λ²)                         (λ >= 1)
 *   1 − Q_K(λ) = (√(2π)/λ) Σ_{k>=1} e^(−(2k−1)²π²/(8λ²))                        (λ < 1)
 * (the second is the Jacobi-theta form of the same function, which converges fast for small λ;
 * Marsaglia, Tsang & Wang, "Evaluating Kolmogorov's distribution", JSS 8(18), 2003, eq. 2).
 * Accuracy near machine precision; a handful of terms. Returns 1 for λ <= 0.
 * Example: kolmogorovSurvival(1.3580986393225505) ≈ 0.05 (the classical 5% critical value 1.358).
 */
export function kolmogorovSurvival(lambda: number): number {
  if (Number.isNaN(lambda)) throw new RangeError('kolmogorovSurvival: lambda is NaN');
  if (lambda <= 0) return 1;
  if (lambda < 1) {
    const factor = -(Math.PI * Math.PI) / (8 * lambda * lambda);
    let sum = 0;
    for (let k = 1; k <= 20; k++) {
      const odd = 2 * k - 1;
      const term = Math.exp(factor * odd * odd);
      sum += term;
      if (term < 1e-17 * sum) break;
    }
    return 1 - (Math.sqrt(2 * Math.PI) / lambda) * sum;
  }
  let sum = 0;
  for (let k = 1; k <= 100; k++) {
    const term = Math.exp(-2 * k * k * lambda * lambda);
    sum += k % 2 === 1 ? term : -term;
    if (term < 1e-17 * sum) break;
  }
  return Math.min(1, 2 * sum);
}
