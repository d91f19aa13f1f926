/**
 * Zero-concentrated differential privacy (Bun & Steinke 2016, "Concentrated differential privacy:
 * simplifications, extensions, and lower bounds", TCC) and its conversion to (ε, δ)-DP as tightened
 * by Canonne, Kamath & Steinke 2020 ("The discrete Gaussian for differential privacy", NeurIPS).
 * ρ is kept exact (rationals) where noise is calibrated; the conversion to ε is floating point and
 * biased upwards.
 */
import { Rational } from '../rng/rational';
import { roundDown } from './round-up';

/** Relative allowance for the rounding of the few terms of the conversion (each within a few ulps). */
const EVALUATION_MARGIN = 1e-14;
/** Bisection stops when the bracket is this small relative to its upper end. */
const BISECTION_RELATIVE_WIDTH = 1e-15;
/** Significant digits kept by {@link zcdpRhoForBudget}, so the result parses to an exact rational. */
const RHO_DIGITS = 12;

/**
 * ρ of the discrete Gaussian mechanism: adding N_ℤ(0, σ²) to an integer statistic of sensitivity Δ
 * is (Δ²/(2σ²))-zCDP (Canonne, Kamath & Steinke 2020, Theorem 4; the same ρ as the continuous
 * Gaussian, Bun & Steinke 2016, Proposition 1.6). Exact. Throws RangeError unless Δ >= 0, σ² > 0.
 * Example: Δ = 1, σ² = 2 gives ρ = 1/4.
 */
export function zcdpRhoDiscreteGaussian(sensitivity: Rational, sigma2: Rational): Rational {
  return zcdpRhoFromSquaredSensitivity(sensitivity.mul(sensitivity), sigma2, sensitivity.isNegative());
}

/**
 * ρ = Δ²/(2σ²) from the squared L2 sensitivity, for vector statistics whose Δ is irrational but Δ²
 * is not: a histogram under replace-one neighbours has Δ² = 2 (two cells change by 1). Exact.
 * Throws RangeError unless Δ² >= 0 and σ² > 0.
 */
export function zcdpRhoFromSquaredSensitivity(
  sensitivitySquared: Rational,
  sigma2: Rational,
  negativeSensitivity = false,
): Rational {
  if (negativeSensitivity || sensitivitySquared.isNegative() || !sigma2.isPositive()) {
    throw new RangeError(
      `zCDP of the Gaussian needs Δ >= 0 and σ² > 0; got Δ² = ${sensitivitySquared.toString()}, σ² = ${sigma2.toString()}`,
    );
  }
  return sensitivitySquared.div(sigma2.mul(Rational.of(2)));
}

/**
 * ρ implied by pure ε-DP: ε²/2 (Bun & Steinke 2016, Proposition 1.4), to compose Laplace-type steps
 * with Gaussian ones in zCDP. Exact. Throws RangeError for ε < 0.
 */
export function zcdpRhoFromPureEpsilon(epsilon: Rational): Rational {
  if (epsilon.isNegative()) throw new RangeError(`ε must be >= 0; got ${epsilon.toString()}`);
  return epsilon.mul(epsilon).div(Rational.of(2));
}

/** Composition: ρ₁, …, ρₖ-zCDP steps are (Σρᵢ)-zCDP together (Bun & Steinke 2016, Lemma 1.7). Exact. */
export function composeZcdp(rhos: Rational[]): Rational {
  return rhos.reduce((sum, rho) => {
    if (rho.isNegative()) throw new RangeError(`ρ must be >= 0; got ${rho.toString()}`);
    return sum.add(rho);
  }, Rational.ZERO);
}

/**
 * Value at α = 1 + t of ε(α) = ρα + (L − log α)/(α − 1) + log(1 − 1/α), with log(1 − 1/α) written as
 * −log1p(1/t) to avoid subtracting two logarithms, plus an allowance for rounding proportional to
 * the sizes of the quantities added and subtracted.
 */
function conversionAt(t: number, rho: number, logOneOverDelta: number): number {
  const logAlpha = Math.log1p(t);
  const value = rho * (1 + t) + (logOneOverDelta - logAlpha) / t - Math.log1p(1 / t);
  const size = rho * (1 + t) + (logOneOverDelta + logAlpha) / t + Math.log1p(1 / t);
  return value + EVALUATION_MARGIN * size;
}

/**
 * The ε for which ρ-zCDP implies (ε, δ)-DP, by the conversion of Canonne, Kamath & Steinke 2020,
 * Corollary 13:  ε = min over α > 1 of  ρα + log(1/(αδ))/(α − 1) + log(1 − 1/α).
 * The derivative in α is ρ − (log(1/δ) − log α)/(α − 1)², and (α − 1)²ρ + log α − log(1/δ) increases
 * from −log(1/δ) at α = 1, so the minimiser is its only root: found by bisection on t = α − 1 in
 * (0, √(log(1/δ)/ρ) + 1]. Any α gives a valid ε, so an inexact root only loosens the bound; the
 * value is evaluated with an upward allowance for rounding. The result is never above Bun & Steinke's
 * ρ + 2√(ρ log(1/δ)) (2016, Proposition 1.3), and is clamped at 0. Throws RangeError unless
 * ρ >= 0 is finite and 0 < δ < 1. Example: zcdpToApproxDp(0.1, 1e-5) ≈ 1.91424.
 */
export function zcdpToApproxDp(rho: number, delta: number): number {
  if (!(rho >= 0) || !Number.isFinite(rho))
    throw new RangeError(`zcdpToApproxDp: ρ must be finite and >= 0; got ${rho}`);
  if (!(delta > 0 && delta < 1)) throw new RangeError(`zcdpToApproxDp: δ must be in (0, 1); got ${delta}`);
  if (rho === 0) return 0;
  const logOneOverDelta = -Math.log(delta);
  const derivativeSign = (t: number): number => t * t * rho + Math.log1p(t) - logOneOverDelta;
  let lo = 0;
  let hi = Math.sqrt(logOneOverDelta / rho) + 1;
  while (hi - lo > BISECTION_RELATIVE_WIDTH * hi) {
    const mid = lo + (hi - lo) / 2;
    if (mid <= lo || mid >= hi) break;
    if (derivativeSign(mid) < 0) lo = mid;
    else hi = mid;
  }
  const tight = conversionAt(hi, rho, logOneOverDelta);
  const bunSteinke = (rho + 2 * Math.sqrt(rho * logOneOverDelta)) * (1 + EVALUATION_MARGIN);
  return Math.max(0, Math.min(tight, bunSteinke));
}

/**
 * The largest ρ such that ρ-zCDP implies (ε, δ)-DP under {@link zcdpToApproxDp} (which increases in
 * ρ), by bisection, rounded down to 12 significant digits so that `parseRational(result)` is an exact
 * ρ to calibrate noise with. For running a zCDP mechanism inside a budget given as (ε, δ).
 * Throws RangeError unless ε > 0 is finite and 0 < δ < 1. Example: zcdpRhoForBudget(1, 1e-5) ≈ 0.0305566.
 */
export function zcdpRhoForBudget(epsilon: number, delta: number): number {
  if (!(epsilon > 0) || !Number.isFinite(epsilon)) {
    throw new RangeError(`zcdpRhoForBudget: ε must be a finite number > 0; got ${epsilon}`);
  }
  if (!(delta > 0 && delta < 1)) throw new RangeError(`zcdpRhoForBudget: δ must be in (0, 1); got ${delta}`);
  const holds = (rho: number): boolean => zcdpToApproxDp(rho, delta) <= epsilon;
  let lo = 0;
  let hi = 1;
  while (holds(hi)) {
    lo = hi;
    hi *= 2;
  }
  while (hi - lo > BISECTION_RELATIVE_WIDTH * hi) {
    const mid = lo + (hi - lo) / 2;
    if (mid <= lo || mid >= hi) break;
    if (holds(mid)) lo = mid;
    else hi = mid;
  }
  return roundDown(lo, RHO_DIGITS);
}
