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

/** The unit roundoff of doubles, 2⁻⁵³. */
const UNIT_ROUNDOFF = 2 ** -53;

/**
 * E, an upper bound on ‖ĝ − ∇J(β)‖ where ĝ is the mean gradient regularizedGradient computes in doubles
 * (rounding to nearest) at a β with ‖β‖ <= betaNorm, for n rows of d predictors (‖x‖ <= 1) and K
 * classes. Higham (2002), Accuracy and Stability of Numerical Algorithms, §2–3, with u = 2⁻⁵³ and
 * γ_m = m·u/(1 − m·u):
 * 1. a score s_k = Σ_j β_kj·x_j (d terms): |ŝ_k − s_k| <= γ_d·‖β_k‖·‖x‖ <= γ_d·B; the shift by the
 *    largest score (|ŝ_k − m| <= 2B) adds u·2B, so every exponent is off by η <= (d + 3)·u·B;
 * 2. softmax is 2-Lipschitz from the ∞-norm of its arguments to the 1-norm of its values (its
 *    Jacobian diag(p) − ppᵀ has ∞→1 norm <= 2), so exact exponentials of the shifted arguments give
 *    probabilities within 2η in 1-norm; Math.exp (< 1 ulp, i.e. 2u relative), the sum of K terms
 *    (γ_{K−1}) and the division (u) make each p̂_k relatively (K + 4)·u off: (K + 4)·u in 1-norm;
 * 3. the residual p̂_y − 1 adds u, the product with x_j u·‖r ⊗ x‖ <= u·G: one row's term
 *    (p − e_y) ⊗ x is computed within u·ρ, ρ = 2(d + 3)·B + 2K + 6 + G, of its exact value (whose norm
 *    is at most G, lossGradientBound);
 * 4. summing n such terms one after the other: γ_{n−1}·Σ‖term‖ <= γ_{n−1}·n·(G + u·ρ); divided by n,
 *    (n − 1)·u·G to first order; the division adds u·G, λ·β_c adds u·λ·B, and the final sum
 *    u·‖ĝ‖, which the certificate's relative margin covers (CERTIFICATE_ROUNDING_MARGIN, index.ts).
 * So E = 1.01·u·(n·G + ρ + λ·B): the factor 1.01 covers every second-order term (1/(1 − n·u),
 * u·ρ/G, (1 + γ_d)) for n below 10⁹ and d below 10⁶.
 */
export function gradientRoundingBound(
  n: number,
  predictors: number,
  classes: number,
  lambda: number,
  betaNorm: number,
): number {
  const G = lossGradientBound(classes);
  const rho = 2 * (predictors + 3) * betaNorm + 2 * classes + 6 + G;
  return 1.01 * UNIT_ROUNDOFF * (n * G + rho + lambda * betaNorm);
}

/**
 * A public bound on ‖β‖ for every fit the certificate can accept: (λ/2)·‖β̂‖² <= J(0) − J* <= log K
 * (iterationsForGap), and a certified β lies within 2·gap of β̂ (gap plus the rounding E/λ <= gap/4
 * that check allows), so ‖β‖ <= √(2·log K/λ) + 2·gap.
 */
export function certifiedBetaNorm(n: number, lambda: number, classes: number): number {
  const gap = minimiserSensitivity(n, lambda, classes) / GAP_PER_SENSITIVITY;
  return Math.sqrt((2 * Math.log(classes)) / lambda) + 2 * gap;
}

/**
 * N, the most rows for which the fit of a regression can be certified despite the rounding of its
 * gradient: the largest n with E(n) <= λ·gap/4, E = gradientRoundingBound at the public ‖β‖ bound
 * (certifiedBetaNorm), gap = 2G/(nλ·1000), so λ·gap/4 = G/(2000·n). The certificate (index.ts) accepts
 * a fit when (‖ĝ‖·(1 + 10⁻⁶) + E)/λ <= gap, which bounds the exact ‖∇J(β)‖/λ, hence ‖β − β̂‖, by gap.
 * E counts on both sides: ‖ĝ‖ <= ‖∇J(β)‖ + E, so a fit is certified for sure when its exact gradient
 * is at most λ·gap − 2E (less the 10⁻⁶ margin); with E <= λ·gap/4, every fit whose exact gradient is
 * below λ·gap/2 (up to that margin) passes. Above N the rounding alone can take more than a quarter of
 * the gap (the worst case, (n − 1)·u·G, grows with n while λ·gap shrinks as 1/n: n²·u ≈ 1/2000 at about
 * 2·10⁶ rows), and whether a fit is certified would depend on the data more than on the solver: check
 * refuses such runs (n is public under replace-one, the only relation this mechanism runs with). E·n
 * increases with n (B decreases towards √(2·log K/λ) but n·G dominates), so N is found by bisection; the
 * comparison is made with the product computed in doubles, whose rounding (a few u) the factor 1.01 in
 * E exceeds.
 */
export function certifiableRows(predictors: number, lambda: number, classes: number): number {
  const G = lossGradientBound(classes);
  const fits = (n: number) =>
    gradientRoundingBound(n, predictors, classes, lambda, certifiedBetaNorm(n, lambda, classes)) * n <=
    G / 2000;
  if (!fits(1)) return 0;
  let low = 1;
  let high = 2;
  while (fits(high)) {
    low = high;
    high *= 2;
  }
  // fits(low) and not fits(high): keep it so while halving.
  while (high - low > 1) {
    const mid = Math.floor((low + high) / 2);
    if (fits(mid)) low = mid;
    else high = mid;
  }
  return low;
}
