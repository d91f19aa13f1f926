import {
  chiSquareGoodnessOfFit,
  type ChiSquareGoodnessOfFitResult,
} from '../../stats/chi-square-goodness-of-fit';
import { chiSquareUpperQuantile } from '../../stats/chi-square';

/**
 * Helpers for the statistical tests of the samplers: a Pearson chi-square test of integer draws
 * against a pmf, and the power calculation that shows a test with N draws can reject a given
 * wrong distribution. Test support only; nothing in the product imports this folder.
 */

/** A pmf on the integers lo…hi (outside mass below ~1e−15, renormalised away). */
export interface IntegerPmf {
  readonly lo: number;
  readonly hi: number;
  /** probabilities[x − lo] = P(X = x). */
  readonly probabilities: Float64Array;
}

/** Tabulates an (unnormalised) mass function on lo…hi and normalises it. */
export function tabulatePmf(lo: number, hi: number, mass: (x: number) => number): IntegerPmf {
  const probabilities = new Float64Array(hi - lo + 1);
  let total = 0;
  for (let x = lo; x <= hi; x++) {
    probabilities[x - lo] = mass(x);
    total += probabilities[x - lo];
  }
  for (let i = 0; i < probabilities.length; i++) probabilities[i] /= total;
  return { lo, hi, probabilities };
}

/** Counts draws per value of the pmf's support; values outside go to the end cells. */
export function countDraws(draw: () => number, n: number, pmf: IntegerPmf): Float64Array {
  const counts = new Float64Array(pmf.hi - pmf.lo + 1);
  for (let i = 0; i < n; i++) {
    const x = draw();
    counts[Math.min(pmf.hi, Math.max(pmf.lo, x)) - pmf.lo]++;
  }
  return counts;
}

/** Pearson's test of `n` draws against the pmf, cells pooled to expected counts >= 5. */
export function fitDraws(draw: () => number, n: number, pmf: IntegerPmf): ChiSquareGoodnessOfFitResult {
  return chiSquareGoodnessOfFit(countDraws(draw, n, pmf), pmf.probabilities);
}

export interface PowerCheck {
  /** Noncentrality λ = N·Σ (p_alt − p)²/p over the pooled cells. */
  readonly noncentrality: number;
  readonly degreesOfFreedom: number;
  /** The rejection threshold of X² at level α. */
  readonly critical: number;
  /** E[X²] − 5·sd[X²] under the alternative (noncentral χ²: mean df + λ, variance 2(df + 2λ)). */
  readonly fiveSigmaLowerStatistic: number;
}

/**
 * How strongly a chi-square test with N draws separates the true pmf from an alternative: X² under
 * the alternative is approximately noncentral χ²(df, λ) with λ = N·Σ (p_alt − p)²/p (Agresti,
 * Categorical Data Analysis, 3rd ed., §6.5.1). When its mean minus five standard deviations exceeds
 * the α critical value, the test rejects the alternative with probability above 1 − 3·10^−7.
 * λ is computed as Pearson's X² of the "observed" counts N·p_alt against p, with the same pooling.
 */
export function powerAgainst(
  truth: IntegerPmf,
  alternative: IntegerPmf,
  n: number,
  alpha: number,
): PowerCheck {
  const expectedAlternativeCounts = new Float64Array(truth.probabilities.length);
  for (let x = alternative.lo; x <= alternative.hi; x++) {
    const clamped = Math.min(truth.hi, Math.max(truth.lo, x));
    expectedAlternativeCounts[clamped - truth.lo] += n * alternative.probabilities[x - alternative.lo];
  }
  const fit = chiSquareGoodnessOfFit(expectedAlternativeCounts, truth.probabilities);
  const df = fit.degreesOfFreedom;
  const critical = chiSquareUpperQuantile(alpha, df);
  const mean = df + fit.statistic;
  const sd = Math.sqrt(2 * (df + 2 * fit.statistic));
  return {
    noncentrality: fit.statistic,
    degreesOfFreedom: df,
    critical,
    fiveSigmaLowerStatistic: mean - 5 * sd,
  };
}
