import { isProvenQuality, type PmseQuality } from './pmse-params';

/**
 * Variance of the flat normal prior put on every θ coordinate (Snoke & Slavković 2018, §6: "a very
 * flat prior, N(0, 100,000), to each of our parameters"). The paper writes normals as N(mean,
 * variance) throughout (X1 ~ N(θ1, θ2) with θ2 the variance in its §5 model), so 100,000 is read as
 * a variance: standard deviation √100000 ≈ 316.
 */
export const FLAT_PRIOR_VARIANCE = 100_000;

const HALF_LOG_TWO_PI_PRIOR_VARIANCE = 0.5 * Math.log(2 * Math.PI * FLAT_PRIOR_VARIANCE);

/**
 * The paper's sensitivity of the pMSE quality function: Δu = 1/n (Snoke & Slavković 2018, Theorem 2,
 * for trees with globally optimal splits). Used for the greedy cp-pruned trees, whose bound is not
 * proven (the claim says so).
 */
export function pmseSensitivity(n: number): number {
  return 1 / n;
}

/**
 * Δu = 1/(2n) for a maximum over partitions fixed before the real data are read, with n real and n
 * synthetic rows and replace-one neighbours (README, "Quality functions": each partition's pMSE moves
 * by at most 1/(2(n + 1)); 1/(2n) is used, which is larger).
 */
export function provenPmseSensitivity(n: number): number {
  return 1 / (2 * n);
}

/** Δu the exponential mechanism uses for a quality function: 1/(2n) when proven, else the paper's 1/n. */
export function qualitySensitivity(quality: PmseQuality, n: number): number {
  return isProvenQuality(quality) ? provenPmseSensitivity(n) : pmseSensitivity(n);
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
 * The paper's unnormalised log target: log f(θ) = −ε·u(X, θ)/(2Δu) + Σ log N(θ_i; 0, 10⁵), with
 * Δu = 1/n (Snoke & Slavković 2018, eq. 2, Theorem 2 and the flat prior of §6). Chains use
 * qualitySensitivity for Δu.
 */
export function pmseLogTarget(quality: number, epsilon: number, n: number, theta: ArrayLike<number>): number {
  return exponentialMechanismLogWeight(quality, epsilon, pmseSensitivity(n)) + logFlatPrior(theta);
}
