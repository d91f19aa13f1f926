import { expm1LowerBound } from './expm1-lower-bound';
import { Rational } from '../rng/rational';

/** Denominator of the dyadic grid prior weights are rounded up to: 2^24, so urn arithmetic stays small. */
const PRIOR_GRID = 1n << 24n;

/** The smallest multiple of 2^−24 that is >= r (a larger prior weight is only more private). */
export function roundUpToPriorGrid(r: Rational): Rational {
  return Rational.of(r.mul(Rational.of(PRIOR_GRID)).ceil(), PRIOR_GRID);
}

/**
 * Prior weight per cell of the Multinomial–Dirichlet synthesizer (Abowd & Vilhuber 2008;
 * Machanavajjhala et al. 2008, Theorem 4.1; DIPS §3.2.1): α = m/(e^ε − 1) for m synthetic rows.
 *
 * Re-derived for replace-one neighbours with n public. The released counts ñ of m rows follow the
 * Dirichlet–multinomial with parameter α + n, P(ñ | n) ∝ Γ(Kα+n)/Γ(Kα+n+m) · Π_k Γ(α+n_k+ñ_k)/Γ(α+n_k).
 * Replacing a row moves one count from cell a to cell b (n_a → n_a − 1, n_b → n_b + 1); the total is
 * unchanged, so the normaliser cancels and the likelihood ratio is
 *   (α + n_a − 1 + ñ_a)/(α + n_a − 1) · (α + n_b)/(α + n_b + ñ_b) <= 1 + ñ_a/α <= 1 + m/α,
 * reached at n_a = 1, ñ_a = m. Hence ε = log(1 + m/α), i.e. α = m/(e^ε − 1): the paper's value holds
 * unchanged under replace-one (its source's neighbours already change one entry, with n fixed).
 * Returned rounded up (e^ε − 1 from below, then the 2^−24 grid). Throws RangeError for ε <= 0.
 * Example: m = 100, ε = 1 → α ≈ 58.198.
 */
export function multinomialDirichletPrior(syntheticRows: number, epsilon: Rational): Rational {
  return roundUpToPriorGrid(Rational.of(syntheticRows).div(expm1LowerBound(epsilon)));
}

/**
 * Prior weight per cell of the McClure–Reiter synthesizer (McClure & Reiter 2012; DIPS §3.2.1,
 * §4.1): α = 1/(e^(ε/n) − 1), rows drawn independently with p*_k = (n_k + α)/(n + Kα).
 *
 * Re-derived for replace-one with n public: the probability of m released rows is Π_k p_k^(ñ_k);
 * moving a row from cell a to cell b changes only p_a and p_b (the denominator n + Kα is fixed), and
 *   (p_a/p'_a)^(ñ_a) · (p_b/p'_b)^(ñ_b) <= ((n_a + α)/(n_a − 1 + α))^(ñ_a) <= (1 + 1/α)^m,
 * reached at n_a = 1, ñ_a = m. With m = n rows, ε = n·log(1 + 1/α), i.e. α = 1/(e^(ε/n) − 1), as the
 * paper states (its derivation already keeps n fixed). Rounded up as above. Throws RangeError for ε <= 0.
 * Example: n = 100, ε = 1 → α ≈ 99.50.
 */
export function mcclureReiterPrior(drawnRows: number, epsilon: Rational): Rational {
  return roundUpToPriorGrid(Rational.ONE.div(expm1LowerBound(epsilon.div(Rational.of(drawnRows)))));
}

/**
 * How synthetic rows are drawn from the prior weight α per cell plus one ball per real row:
 * - `posterior`: a Pólya urn, the m rows Dirichlet–multinomial(α + counts) — the Multinomial–Dirichlet
 *   synthesizer, α = m/(e^ε − 1) (multinomialDirichletPrior);
 * - `posterior-mean`: m independent rows with P(k) = (n_k + α)/(n + Kα) — McClure & Reiter's
 *   Binomial–Beta synthesizer, α = 1/(e^(ε/m) − 1) (mcclureReiterPrior).
 */
export type PriorDraw = 'posterior' | 'posterior-mean';

/** The prior weight per cell that makes m rows drawn this way ε-DP, rounded up (see the two above). */
export function priorWeightFor(draw: PriorDraw, rows: number, epsilon: Rational): Rational {
  return draw === 'posterior' ? multinomialDirichletPrior(rows, epsilon) : mcclureReiterPrior(rows, epsilon);
}
