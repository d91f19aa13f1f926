import { chiSquareSurvival } from './chi-square';

export interface ChiSquareGoodnessOfFitResult {
  /** Pearson's X² = Σ (O − E)²/E over the pooled cells. */
  readonly statistic: number;
  /** Pooled cells − 1. */
  readonly degreesOfFreedom: number;
  /** P(χ²_df >= X²). */
  readonly pValue: number;
  /** The number of cells after pooling. */
  readonly cells: number;
}

/**
 * Pearson's chi-square goodness-of-fit test of counts against cell probabilities (Pearson 1900;
 * e.g. Agresti, Categorical Data Analysis, 3rd ed., §1.5). Cells are taken as ordered (e.g. values
 * of a discrete distribution, with the tails as the first and last cells): neighbouring cells are
 * pooled left to right until each expected count n·p_i is at least `minExpected` (default 5), and a
 * short last group joins the previous one. X² = Σ (O − E)²/E is compared with χ² on cells − 1
 * degrees of freedom. O(k).
 *
 * Throws RangeError when the lengths differ, a probability is negative, the probabilities do not sum
 * to 1 within 1e−9, or fewer than two cells remain after pooling.
 * Example: observed [48, 52] against [0.5, 0.5] gives X² = 0.16, p = 0.689.
 */
export function chiSquareGoodnessOfFit(
  observed: ArrayLike<number>,
  probabilities: ArrayLike<number>,
  minExpected = 5,
): ChiSquareGoodnessOfFitResult {
  const k = observed.length;
  if (probabilities.length !== k) {
    throw new RangeError(
      `chiSquareGoodnessOfFit: ${k} observed cells but ${probabilities.length} probabilities`,
    );
  }
  let n = 0;
  let totalProbability = 0;
  for (let i = 0; i < k; i++) {
    if (!(probabilities[i] >= 0))
      throw new RangeError(`chiSquareGoodnessOfFit: probability ${i} is ${probabilities[i]}`);
    n += observed[i];
    totalProbability += probabilities[i];
  }
  if (Math.abs(totalProbability - 1) > 1e-9) {
    throw new RangeError(`chiSquareGoodnessOfFit: probabilities sum to ${totalProbability}, not 1`);
  }
  const pooledObserved: number[] = [];
  const pooledExpected: number[] = [];
  let groupObserved = 0;
  let groupExpected = 0;
  for (let i = 0; i < k; i++) {
    groupObserved += observed[i];
    groupExpected += n * probabilities[i];
    if (groupExpected >= minExpected) {
      pooledObserved.push(groupObserved);
      pooledExpected.push(groupExpected);
      groupObserved = 0;
      groupExpected = 0;
    }
  }
  if (groupExpected > 0 || groupObserved > 0) {
    if (pooledObserved.length === 0) {
      pooledObserved.push(groupObserved);
      pooledExpected.push(groupExpected);
    } else {
      pooledObserved[pooledObserved.length - 1] += groupObserved;
      pooledExpected[pooledExpected.length - 1] += groupExpected;
    }
  }
  const cells = pooledObserved.length;
  if (cells < 2) throw new RangeError(`chiSquareGoodnessOfFit: only ${cells} cell(s) after pooling`);
  let statistic = 0;
  for (let i = 0; i < cells; i++) {
    const difference = pooledObserved[i] - pooledExpected[i];
    statistic += (difference * difference) / pooledExpected[i];
  }
  const degreesOfFreedom = cells - 1;
  return { statistic, degreesOfFreedom, pValue: chiSquareSurvival(statistic, degreesOfFreedom), cells };
}
