import { parseRational, type Rational } from '../../rng/rational';
import type { ParamSpec, ParamValues } from '../types';

export const SEQUENTIAL_REGRESSION_PARAMS: ParamSpec[] = [
  {
    name: 'lambda',
    label: 'Regularisation λ',
    type: 'number',
    default: 0.01,
    min: 0.001,
    max: 10,
    help:
      'The weight of the L2 penalty (λ/2)‖β‖² added to the mean logistic loss of every regression. Public: ' +
      'choose it without the data (e.g. on a public data set, DIPS §4.3.2). A larger λ shrinks the ' +
      'coefficients more but needs less noise: the noise scale is Δ/ε with Δ ≈ 2.004/(nλ) (×√2 for three or ' +
      'more classes) and ε this regression’s share of the budget.',
  },
  {
    name: 'missingShare',
    label: 'Budget share for missing counts',
    type: 'number',
    default: 0.1,
    min: 0.01,
    max: 0.5,
    help:
      'The share of each release’s budget spent on every column’s count of missing values; the rest ' +
      'is split evenly over the means, the covariance entries and the regressions, as in DIPS §4.3.2.',
  },
];

export interface SequentialRegressionSettings {
  lambda: number;
  /** Exact share of a release's ε for the missing counts. */
  missingShare: Rational;
}

export function sequentialRegressionSettings(params: ParamValues): SequentialRegressionSettings {
  return {
    lambda: Number(params.lambda ?? 0.01),
    missingShare: parseRational(Number(params.missingShare ?? 0.1)),
  };
}
