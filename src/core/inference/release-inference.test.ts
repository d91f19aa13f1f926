import { describe, expect, it } from 'vitest';
import { categoricalColumn, numericColumn } from '../mechanisms/common/testing/fixtures';
import type { Table } from '../table/types';
import { formatEstimand, parseEstimand } from './estimand';
import {
  estimateOnRealTable,
  inferFromReleases,
  meanEstimate,
  proportionEstimate,
} from './release-inference';

const numeric = (values: (number | null)[]): Table => ({
  nRows: values.length,
  columns: [numericColumn('x', values)],
});

describe('parseEstimand', () => {
  const columns = ['age', 'sex', 'income'];
  it('reads the three forms and writes them back', () => {
    expect(parseEstimand('mean:age', columns)).toEqual({ kind: 'mean', column: 'age' });
    expect(parseEstimand('proportion: sex = F', columns)).toEqual({
      kind: 'proportion',
      column: 'sex',
      level: 'F',
    });
    const coef = parseEstimand('coef:income ~ age + sex', columns);
    expect(coef).toEqual({ kind: 'coef', target: 'income', predictors: ['age', 'sex'] });
    expect(formatEstimand(coef)).toBe('coef:income~age+sex');
  });

  it('says what is wrong in a sentence', () => {
    expect(() => parseEstimand('median:age', columns)).toThrow(
      "estimand 'median:age' is not one of mean:COLUMN, proportion:COLUMN=LEVEL or coef:Y~X1+X2.",
    );
    expect(() => parseEstimand('mean:height', columns)).toThrow(
      "estimand 'mean:height': no column 'height'; columns are age, sex, income.",
    );
    expect(() => parseEstimand('coef:age~age', columns)).toThrow(/cannot also be a predictor/);
  });
});

describe('per-release estimates', () => {
  it('mean and s/√n over present values', () => {
    // Present values 0, 2, 4: mean 2, s = 2, se = 2/√3.
    const result = meanEstimate(numeric([0, null, 2, 4]), 'x');
    expect(result.estimate).toBe(2);
    expect(result.se).toBeCloseTo(2 / Math.sqrt(3), 15);
  });

  it('proportion and √(p(1 − p)/n) over present values', () => {
    const table: Table = { nRows: 5, columns: [categoricalColumn('s', ['F', 'M', null, 'F', 'F'])] };
    const result = proportionEstimate(table, 's', 'F');
    expect(result.estimate).toBe(0.75);
    expect(result.se).toBeCloseTo(Math.sqrt((0.75 * 0.25) / 4), 15);
  });
});

describe('inferFromReleases', () => {
  it('combines means by eqs. 9–11 (worked example)', () => {
    // Releases with means 1, 2, 3 and standard errors 1 each (values a, a + 2: s = √2, se = 1):
    // β̄ = 2, B = 1, W = 1, T = 4/3, ν = (3 − 1)(1 + 3)² = 32; qt(0.975, 32) = 2.036933 (R 4.3).
    const result = inferFromReleases([numeric([0, 2]), numeric([1, 3]), numeric([2, 4])], {
      kind: 'mean',
      column: 'x',
    });
    const [p] = result.parameters;
    expect(p!.estimate).toBeCloseTo(2, 14);
    expect(p!.se).toBeCloseTo(Math.sqrt(4 / 3), 14);
    expect(p!.df).toBeCloseTo(32, 12);
    expect(p!.ci[0]).toBeCloseTo(2 - 2.036933 * Math.sqrt(4 / 3), 5);
    expect(p!.ci[1]).toBeCloseTo(2 + 2.036933 * Math.sqrt(4 / 3), 5);
  });

  it('gives ν = null (infinite) when the releases agree exactly', () => {
    const result = inferFromReleases([numeric([0, 2]), numeric([0, 2])], { kind: 'mean', column: 'x' });
    expect(result.parameters[0]!.df).toBeNull();
  });

  it('combines regression coefficients term by term, each equal to the hand-computed OLS slope', () => {
    const tables = [
      [1, 2, 3, 4, 5],
      [1, 3, 2, 5, 4],
    ].map((y) => ({ nRows: 5, columns: [numericColumn('y', y), numericColumn('x', [1, 2, 3, 4, 5])] }));
    const result = inferFromReleases(tables, { kind: 'coef', target: 'y', predictors: ['x'] });
    expect(result.family).toBe('linear');
    expect(result.parameters.map((p) => p.term)).toEqual(['(Intercept)', 'x']);
    // Slope Sxy/Sxx with Sxx = 10: release 1: 10/10 = 1 (exact fit, se 0); release 2: 8/10 = 0.8,
    // intercept 0.6, RSS = 3.6, se = √(RSS/(n − 2)/Sxx) = √(3.6/3/10).
    const slope = result.parameters[1]!.perRelease;
    expect(slope[0]!.estimate).toBeCloseTo(1, 12);
    expect(slope[1]!.estimate).toBeCloseTo(0.8, 12);
    expect(slope[1]!.se).toBeCloseTo(Math.sqrt(3.6 / 3 / 10), 12);
    expect(result.parameters[1]!.estimate).toBeCloseTo(0.9, 12);
  });

  it('refuses a single release and an estimand of the wrong type', () => {
    expect(() => inferFromReleases([numeric([1, 2])], { kind: 'mean', column: 'x' })).toThrow(
      /at least two releases/,
    );
    const table: Table = { nRows: 2, columns: [categoricalColumn('s', ['F', 'M'])] };
    expect(() => inferFromReleases([table, table], { kind: 'mean', column: 's' })).toThrow(
      "mean:s needs a numeric column; 's' is categorical (use proportion:s=LEVEL).",
    );
  });
});

describe('estimateOnRealTable', () => {
  it('uses a t interval with n − 1 df for a mean', () => {
    // Values 0, 2, 4: mean 2, se 2/√3, qt(0.975, 2) = 4.302653 (R 4.3).
    const [real] = estimateOnRealTable(numeric([0, 2, 4]), { kind: 'mean', column: 'x' });
    expect(real!.ci[1]).toBeCloseTo(2 + (4.302653 * 2) / Math.sqrt(3), 5);
  });
});
