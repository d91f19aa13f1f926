/**
 * Variance of the flat normal prior put on every θ coordinate (Snoke & Slavković 2018, §6: "a very
 * flat prior, N(0, 100,000), to each of our parameters"). The paper writes normals as N(mean,
 * variance) throughout (X1 ~ N(θ1, θ2) with θ2 the variance in its §5 model), so 100,000 is read as
 * a variance: standard deviation √100000 ≈ 316.
 */
export const FLAT_PRIOR_VARIANCE = 100_000;

const HALF_LOG_TWO_PI_PRIOR_VARIANCE = 0.5 * Math.log(2 * Math.PI * FLAT_PRIOR_VARIANCE);

/**
 * Sensitivity of the pMSE quality function under replace-one neighbours with n real and n synthetic
 * rows: Δu = 1/n (Snoke & Slavković 2018, Theorem 2; proven for trees with globally optimal splits).
 */
export function pmseSensitivity(n: number): number {
  return 1 / n;
}

/**
 * Σ_i log N(θ_i; 0, v) with v = FLAT_PRIOR_VARIANCE: −Σ θ_i²/(2v) − (k/2)·log(2πv).
 * Example: θ = (0, 0) → −log(2π·100000) ≈ −13.35080 (R: 2 * dnorm(0, 0, sqrt(1e5), log = TRUE)).
 */
export function logFlatPrior(theta: ArrayLike<number>): number {
  let sumSquares = 0;
  for (let i = 0; i < theta.length; i++) sumSquares += theta[i]! * theta[i]!;
  return -sumSquares / (2 * FLAT_PRIOR_VARIANCE) - theta.length * HALF_LOG_TWO_PI_PRIOR_VARIANCE;
}

/**
 * The exponential mechanism's log weight −ε·u/(2Δu) (McSherry & Talwar 2007; Snoke & Slavković
 * 2018, eq. 2). With Δu = 1/n this is −ε·n·u/2.
 * Example: u = 0.01, ε = 1, Δu = 1/5000 → −25.
 */
export function exponentialMechanismLogWeight(quality: number, epsilon: number, sensitivity: number): number {
  return (-epsilon * quality) / (2 * sensitivity);
}

/**
 * The pMSE mechanism's unnormalised log target: log f(θ) = −ε·u(X, θ)/(2Δu) + Σ log N(θ_i; 0, 10⁵),
 * with Δu = 1/n (Snoke & Slavković 2018, eq. 2, Theorem 2 and the flat prior of §6).
 */
export function pmseLogTarget(quality: number, epsilon: number, n: number, theta: ArrayLike<number>): number {
  return exponentialMechanismLogWeight(quality, epsilon, pmseSensitivity(n)) + logFlatPrior(theta);
}
