// Regression comparison against R (lm / glm fits, Karr overlap and DIPS combining rules computed in
// R by tests/reference/metrics/make_regression_fixture.R; command recorded in the JSON).
import { describe, expect, it } from 'vitest';
import { readFixtureJson, readFixtureTables } from '../../../tests/reference/metrics/fixture-tables';
import { compareRegressions, type RegressionFitSummary } from './regression-comparison';
import { expectCloseOnUnitScale } from '../testing/expect-close';

type Vector = (number | null)[];
interface RFit {
  coefficients: Vector;
  standard_errors: Vector;
  df_residual: number;
  rank: number;
  n_used: number;
}
interface RModel {
  terms: string[];
  real: RFit;
  releases: Record<string, RFit & { std_diff: Vector; ci_overlap: Vector }>;
  combined: Record<
    'beta_bar' | 'between' | 'within' | 'df' | 'ci_lower' | 'ci_upper' | 'std_diff' | 'ci_overlap',
    Vector
  >;
}
interface RExpectation {
  linear: RModel;
  logistic: RModel;
}

function expectVectorClose(actual: Vector, expected: Vector, relative: number, what: string) {
  expect(actual.length, what).toBe(expected.length);
  actual.forEach((value, j) => expectCloseOnUnitScale(value, expected[j], relative, `${what}[${j}]`));
}

function expectFitMatches(fit: RegressionFitSummary, r: RFit, relative: number, what: string) {
  expect(fit.rowsUsed, `${what} rows`).toBe(r.n_used);
  expect(fit.rank, `${what} rank`).toBe(r.rank);
  expectVectorClose(fit.coefficients, r.coefficients, relative, `${what} coefficients`);
  expectVectorClose(fit.standardErrors, r.standard_errors, relative, `${what} SEs`);
}

describe('regression comparison on the mixed fixture', () => {
  const { real, synths } = readFixtureTables(
    'mixed_real.csv',
    'mixed_synth.1.csv',
    'mixed_synth.2.csv',
    'mixed_synth.3.csv',
  );
  const expected = readFixtureJson<RExpectation>('mixed_regression.expected.json');

  it('linear model: lm coefficients, SEs, comparisons and combining rules', () => {
    const result = compareRegressions(real, synths, {
      target: 'income',
      predictors: ['age', 'hours', 'sex', 'education', 'region'],
    });
    const r = expected.linear;
    expect(result.family).toBe('linear');
    expect(result.terms).toEqual(r.terms);
    // Householder QR here vs LINPACK dqrdc2 in R on a well-conditioned design: coefficients and SEs
    // agree to 1e-14 relative (measured); 1e-11 allows other platforms' rounding, and the derived
    // ratios, quantiles and combined values get 1e-10 / 1e-9.
    expectFitMatches(result.real, r.real, 1e-11, 'real');
    expect(result.real.residualDf).toBe(r.real.df_residual);
    Object.values(r.releases).forEach((release, j) => {
      const mine = result.releases[j]!;
      expectFitMatches(mine.fit, release, 1e-11, `release ${j + 1}`);
      expectVectorClose(mine.standardizedDifference, release.std_diff, 1e-9, `release ${j + 1} std diff`);
      expectVectorClose(mine.ciOverlap, release.ci_overlap, 1e-9, `release ${j + 1} CI overlap`);
    });
    const combined = result.combined!;
    expectVectorClose(combined.estimate, r.combined.beta_bar, 1e-10, 'beta bar');
    expectVectorClose(combined.betweenVariance, r.combined.between, 1e-9, 'B');
    expectVectorClose(combined.withinVariance, r.combined.within, 1e-9, 'W');
    expectVectorClose(combined.degreesOfFreedom, r.combined.df, 1e-8, 'nu');
    expectVectorClose(combined.ciLower, r.combined.ci_lower, 1e-9, 'combined CI lower');
    expectVectorClose(combined.ciUpper, r.combined.ci_upper, 1e-9, 'combined CI upper');
    expectVectorClose(combined.standardizedDifference, r.combined.std_diff, 1e-9, 'combined std diff');
    expectVectorClose(combined.ciOverlap, r.combined.ci_overlap, 1e-9, 'combined CI overlap');
  });

  it('logistic model: glm coefficients, Wald SEs, comparisons and combining rules', () => {
    const result = compareRegressions(real, synths, {
      target: 'high_income',
      predictors: ['age', 'hours', 'income', 'sex', 'education'],
    });
    const r = expected.logistic;
    expect(result.family).toBe('logistic');
    expect(result.positiveLevel).toBe('yes');
    expect(result.terms).toEqual(r.terms);
    // R ran glm to a relative deviance change of 1e-14, we stop at 1e-12. The deviance is flat at the
    // optimum, so the last IRLS step (whose weights give the SEs, as in R's summary.glm) differs by
    // O(√1e-12) in β: measured differences up to 7e-8 relative. Allow 1e-6 on fits and comparisons.
    expectFitMatches(result.real, r.real, 1e-6, 'real');
    expect(result.real.converged).toBe(true);
    Object.values(r.releases).forEach((release, j) => {
      const mine = result.releases[j]!;
      expectFitMatches(mine.fit, release, 1e-6, `release ${j + 1}`);
      expectVectorClose(mine.standardizedDifference, release.std_diff, 1e-6, `release ${j + 1} std diff`);
      expectVectorClose(mine.ciOverlap, release.ci_overlap, 1e-6, `release ${j + 1} CI overlap`);
    });
    const combined = result.combined!;
    expectVectorClose(combined.estimate, r.combined.beta_bar, 1e-6, 'beta bar');
    expectVectorClose(combined.degreesOfFreedom, r.combined.df, 1e-5, 'nu');
    expectVectorClose(combined.ciLower, r.combined.ci_lower, 1e-6, 'combined CI lower');
    expectVectorClose(combined.ciUpper, r.combined.ci_upper, 1e-6, 'combined CI upper');
    expectVectorClose(combined.ciOverlap, r.combined.ci_overlap, 1e-6, 'combined CI overlap');
  });

  it('needs a level to model for a many-level categorical target and rejects a target among the predictors', () => {
    expect(() => compareRegressions(real, synths, { target: 'region', predictors: ['age'] })).toThrow(
      /level to model/,
    );
    expect(() => compareRegressions(real, synths, { target: 'age', predictors: ['age'] })).toThrow(
      /cannot also be/,
    );
    const oneVsRest = compareRegressions(real, synths, {
      target: 'region',
      predictors: ['age'],
      positiveLevel: 'north',
    });
    expect(oneVsRest.positiveLevel).toBe('north');
    expect(oneVsRest.terms).toEqual(['(Intercept)', 'age']);
  });
});
