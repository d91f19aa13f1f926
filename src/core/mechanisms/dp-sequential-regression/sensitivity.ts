/**
 * G, the largest Euclidean norm of the gradient of one row's loss
 * ℓ(β; x, y) = −s_y + log Σ_k e^{s_k} (s_0 = 0, s_k = β_kᵀx), for ‖x‖ <= 1. The gradient in β_k is
 * (p_k − 1[y = k])·x, so its norm is ‖x‖·‖v‖ with v = (p_k − 1[y = k])_{k >= 1}. If y = 0,
 * ‖v‖ <= Σ_{k>=1} p_k <= 1; if y = k >= 1, ‖v‖² = (1 − p_k)² + Σ_{j∉{0,k}} p_j² <= 2(1 − p_k)² <= 2.
 * So G = 1 for K = 2 (Chaudhuri & Monteleoni's logistic loss) and G = √2 for K >= 3, approached
 * when y = k, p_k → 0 and another non-reference class takes p_j → 1.
 */
export function lossGradientBound(classes: number): number {
  return classes <= 2 ? 1 : Math.SQRT2;
}

/**
 * The L2 sensitivity of the exact minimiser β̂ of J(β) = (1/n)·Σ_i ℓ(β; x_i, y_i) + (λ/2)·‖β‖²
 * under replacing one row, n fixed: 2G/(nλ) (Chaudhuri, Monteleoni & Sarwate 2011, Corollary 8,
 * whose neighbours differ in one row with n fixed, i.e. replace-one). Proof: J′ = J + g with
 * g = (ℓ(·; x′, y′) − ℓ(·; x, y))/n; J is λ-strongly convex and ∇J(β̂) = 0, ∇J(β̂′) = −∇g(β̂′), so
 * λ‖β̂ − β̂′‖² <= (∇J(β̂) − ∇J(β̂′))ᵀ(β̂ − β̂′) <= ‖∇g(β̂′)‖·‖β̂ − β̂′‖ <= (2G/n)·‖β̂ − β̂′‖.
 * A row whose response is missing adds the zero loss (gradient 0 <= G), so the bound still holds.
 */
export function minimiserSensitivity(n: number, lambda: number, classes: number): number {
  return (2 * lossGradientBound(classes)) / (n * lambda);
}

/**
 * Smoothness of the mean loss: its Hessian is (diag(p) − ppᵀ) ⊗ xxᵀ over the non-reference classes,
 * whose eigenvalues are at most 1/4 for K = 2 (p(1 − p)) and at most 1/2 for K >= 3 (Gershgorin: row k
 * sums to p_k(1 − p_k) + p_k·Σ_{j≠k} p_j <= 2p_k(1 − p_k) <= 1/2), times ‖x‖² <= 1.
 */
export function lossSmoothness(classes: number): number {
  return classes <= 2 ? 0.25 : 0.5;
}

/**
 * The data-independent number T of iterations of Nesterov's accelerated gradient method (constant
 * step 1/L, momentum (√L − √μ)/(√L + √μ); Nesterov 2004, Introductory Lectures, scheme 2.2.19 and
 * Theorem 2.2.3) after which ‖β_T − β̂‖ <= gap for every data set, in exact arithmetic. With μ = λ,
 * L = λ + lossSmoothness, started at 0: J(β_T) − J* <= (1 − √(μ/L))^T·(J(0) − J* + (μ/2)‖β̂‖²).
 * Every row's loss is log K at β = 0 and J* >= 0, so J(0) − J* <= log K; strong convexity gives
 * (μ/2)‖β̂‖² <= J(0) − J* <= log K and ‖β_T − β̂‖² <= 2(J(β_T) − J*)/μ. So
 * T = ⌈log(gap²·μ/(4 log K)) / log(1 − √(μ/L))⌉.
 * Example: λ = 0.1, K = 3, gap = 2.8e−5 → T = 48.
 */
export function iterationsForGap(lambda: number, classes: number, gap: number): number {
  const smoothness = lambda + lossSmoothness(classes);
  const rate = 1 - Math.sqrt(lambda / smoothness);
  const target = (gap * gap * lambda) / (4 * Math.log(classes));
  if (target >= 1) return 1;
  return Math.max(1, Math.ceil(Math.log(target) / Math.log(rate)));
}

/** The solver stops within gap = Δ₀/GAP_PER_SENSITIVITY of the exact minimiser (Δ₀ = 2G/(nλ)). */
export const GAP_PER_SENSITIVITY = 1000;

/** The numbers one regression's output perturbation uses, all from public facts. */
export interface PerturbationSettings {
  /** Δ₀ = 2G/(nλ), the exact minimiser's sensitivity. */
  minimiserSensitivity: number;
  /** gap = Δ₀/1000: the proven distance of the returned β_T from the minimiser. */
  gap: number;
  /** T, the fixed number of solver iterations that guarantees the gap. */
  iterations: number;
  /**
   * Δ = (Δ₀ + 2·gap)·(1 + 10⁻¹²): for neighbours, ‖β_T − β′_T‖ <= ‖β̂ − β̂′‖ + 2·gap; the last factor
   * covers the floating-point rounding of this product.
   */
  sensitivity: number;
}

export function perturbationSettings(n: number, lambda: number, classes: number): PerturbationSettings {
  const exact = minimiserSensitivity(n, lambda, classes);
  const gap = exact / GAP_PER_SENSITIVITY;
  return {
    minimiserSensitivity: exact,
    gap,
    iterations: iterationsForGap(lambda, classes, gap),
    sensitivity: (exact + 2 * gap) * (1 + 1e-12),
  };
}
