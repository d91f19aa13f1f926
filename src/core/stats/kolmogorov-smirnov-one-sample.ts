import { kolmogorovSurvival } from './kolmogorov';

export interface KolmogorovSmirnovResult {
  /** D_n = sup_x |F_n(x) − F(x)|. */
  readonly statistic: number;
  /** Asymptotic p-value with Stephens' small-sample correction. */
  readonly pValue: number;
  readonly sampleSize: number;
}

/**
 * One-sample Kolmogorov–Smirnov test of a sample against a continuous CDF F.
 * D_n = max_i max(i/n − F(x_(i)), F(x_(i)) − (i−1)/n) over the sorted sample; the p-value is
 * Q_K((√n + 0.12 + 0.11/√n)·D_n) (Stephens, "Use of the Kolmogorov–Smirnov, Cramér–von Mises and
 * related statistics without extensive tables", JRSS B 32(1), 1970; Numerical Recipes, 3rd ed.,
 * §14.3.3), accurate for n >= 35 or so. Sorts a copy: O(n log n).
 * Throws RangeError for an empty sample or a NaN value.
 * Example: the sample [0.5] against the uniform CDF has D = 0.5.
 */
export function kolmogorovSmirnovOneSample(
  sample: ArrayLike<number>,
  cdf: (x: number) => number,
): KolmogorovSmirnovResult {
  const n = sample.length;
  if (n === 0) throw new RangeError('kolmogorovSmirnovOneSample: empty sample');
  const sorted = Float64Array.from(sample);
  if (sorted.some(Number.isNaN)) throw new RangeError('kolmogorovSmirnovOneSample: sample contains NaN');
  sorted.sort();
  let statistic = 0;
  for (let i = 0; i < n; i++) {
    const f = cdf(sorted[i]);
    statistic = Math.max(statistic, (i + 1) / n - f, f - i / n);
  }
  const rootN = Math.sqrt(n);
  return { statistic, pValue: kolmogorovSurvival((rootN + 0.12 + 0.11 / rootN) * statistic), sampleSize: n };
}
