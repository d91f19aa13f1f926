/**
 * Standard error of a proportion p̂ measured on n independent rows (an accuracy on n test rows):
 * √(p̂(1 − p̂)/n), the binomial standard deviation of p̂ (e.g. Agresti, Categorical Data Analysis,
 * 3rd ed., §1.3). NaN for n < 1.
 */
export function proportionStandardError(p: number, n: number): number {
  if (!(n >= 1)) return Number.NaN;
  return Math.sqrt((p * (1 - p)) / n);
}

/** The largest standard error a proportion on n rows can have (at p̂ = 1/2): 1/(2√n). */
export function largestProportionStandardError(n: number): number {
  return n >= 1 ? 1 / (2 * Math.sqrt(n)) : Number.NaN;
}
