import { regularizedGammaP, regularizedGammaQ } from './regularized-gamma';

/**
 * Chi-square CDF with k > 0 degrees of freedom: F(x) = P(k/2, x/2) (regularized lower incomplete
 * gamma; Abramowitz & Stegun 26.4.19). Returns 0 for x <= 0. Throws RangeError for k <= 0.
 * Example: chiSquareCdf(2, 2) = 1 − e^(−1) = 0.6321205588285577.
 */
export function chiSquareCdf(x: number, degreesOfFreedom: number): number {
  checkDegreesOfFreedom(degreesOfFreedom);
  return x <= 0 ? 0 : regularizedGammaP(degreesOfFreedom / 2, x / 2);
}

/**
 * Chi-square survival function (upper tail, the p-value of a chi-square statistic):
 * S(x) = Q(k/2, x/2), computed directly so p-values like 1e−12 keep full relative accuracy.
 * Returns 1 for x <= 0. Throws RangeError for k <= 0.
 * Example: chiSquareSurvival(2, 2) = e^(−1) = 0.36787944117144233.
 */
export function chiSquareSurvival(x: number, degreesOfFreedom: number): number {
  checkDegreesOfFreedom(degreesOfFreedom);
  return x <= 0 ? 1 : regularizedGammaQ(degreesOfFreedom / 2, x / 2);
}

/**
 * The p-quantile of the chi-square distribution with k degrees of freedom: the x with F(x) = p,
 * for 0 < p < 1. Solved by bisection on the CDF (for p <= ½) or on the survival function with
 * 1 − p (for p > ½, so that quantiles near 1 such as the 1 − 10^−6 critical value are accurate),
 * to relative precision 1e−14. Cost: about 100 incomplete-gamma evaluations.
 * Throws RangeError for p outside (0, 1) or k <= 0.
 * Example: chiSquareQuantile(0.95, 1) = 3.841458820694124 (R: qchisq(0.95, 1)).
 */
export function chiSquareQuantile(p: number, degreesOfFreedom: number): number {
  checkDegreesOfFreedom(degreesOfFreedom);
  if (!(p > 0 && p < 1)) throw new RangeError(`chiSquareQuantile needs 0 < p < 1, got ${p}`);
  return p <= 0.5
    ? solveIncreasing((x) => chiSquareCdf(x, degreesOfFreedom), p)
    : solveIncreasing((x) => -chiSquareSurvival(x, degreesOfFreedom), -(1 - p));
}

/**
 * The upper-tail critical value: the x with S(x) = α, for 0 < α < 1 (e.g. the rejection threshold
 * of a chi-square test at level α). Same method as {@link chiSquareQuantile} without forming 1 − α,
 * so α = 10^−12 is handled exactly. Throws RangeError for α outside (0, 1) or k <= 0.
 * Example: chiSquareUpperQuantile(0.05, 1) = 3.841458820694124.
 */
export function chiSquareUpperQuantile(alpha: number, degreesOfFreedom: number): number {
  checkDegreesOfFreedom(degreesOfFreedom);
  if (!(alpha > 0 && alpha < 1)) throw new RangeError(`chiSquareUpperQuantile needs 0 < α < 1, got ${alpha}`);
  return solveIncreasing((x) => -chiSquareSurvival(x, degreesOfFreedom), -alpha);
}

/** The x > 0 with f(x) = target for an increasing f, by bracketing then bisection. */
function solveIncreasing(f: (x: number) => number, target: number): number {
  let low = 0;
  let high = 1;
  while (f(high) < target) {
    low = high;
    high *= 2;
  }
  for (let i = 0; i < 2000 && high - low > 1e-14 * high; i++) {
    const middle = low === 0 ? high / 2 : (low + high) / 2;
    if (f(middle) < target) low = middle;
    else high = middle;
    if (low === 0 && high < 1e-300) break;
  }
  return (low + high) / 2;
}

function checkDegreesOfFreedom(k: number): void {
  if (!(k > 0 && k < Infinity)) throw new RangeError(`chi-square needs degrees of freedom > 0, got ${k}`);
}
