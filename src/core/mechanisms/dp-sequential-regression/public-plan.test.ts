import { describe, expect, it } from 'vitest';
import type { Schema } from '../../table/types';
import { runContext } from '../common/testing/fixtures';
import { resolveParams } from '../params';
import { dpSequentialRegression } from '.';
import { sequentialRegressionSettings } from './params';
import { COEFFICIENT_LIMIT } from './plan';

// Quick, exact checks of the sequential regression's claim and check from public facts alone: the
// budget split's edge cases (plan.ts, reserveSequentialRegression) worked by hand, the limits at their
// boundaries, and which assumption sentences a schema brings.

const defaults = resolveParams(dpSequentialRegression, {});
const declared = 'declared' as const;

describe('dp-sequential-regression budget split at its edges', () => {
  it('no column can be missing: all of ε/M goes to the means, covariance entries and regressions', () => {
    const schema: Schema = {
      version: 1,
      missing: [],
      columns: [
        {
          name: 'z',
          type: 'numeric',
          bounds: [0, 1],
          canBeMissing: false,
          source: declared,
          sources: { canBeMissing: declared },
        },
        {
          name: 'w',
          type: 'categorical',
          categories: ['a', 'b'],
          canBeMissing: false,
          source: declared,
          sources: { canBeMissing: declared },
        },
      ],
    };
    const claim = dpSequentialRegression.claim(
      defaults,
      runContext(schema, 100, { epsilon: '3', releases: 1 }),
    );
    // 1 mean + 1 covariance entry + 1 regression: 1 each, no missing count.
    expect(claim.steps.map((step) => step.epsilon)).toEqual([1, 1, 1]);
    expect(claim.steps[2]!.what).toBe(
      "coefficients of the logistic regression of `w` on 2 predictors, output perturbation with L2 sensitivity 2/(nλ) plus twice the solver's gap (1/1000 of it), release 1 of 1",
    );
  });

  it('nothing but missing counts to measure: they get all of ε/M', () => {
    const schema: Schema = {
      version: 1,
      missing: [],
      columns: [{ name: 'flag', type: 'categorical', categories: ['yes'], source: declared }],
    };
    const claim = dpSequentialRegression.claim(
      defaults,
      runContext(schema, 100, { epsilon: '1', releases: 2 }),
    );
    expect(claim.steps.map((step) => [step.what, step.epsilon])).toEqual([
      ['count of missing values of `flag` (sensitivity 1), release 1 of 2', 0.5],
      ['count of missing values of `flag` (sensitivity 1), release 2 of 2', 0.5],
    ]);
    expect(claim.bound).toBe('proven');
  });

  it('a regression on the intercept alone names one predictor', () => {
    const schema: Schema = {
      version: 1,
      missing: [],
      columns: [{ name: 'w', type: 'categorical', categories: ['a', 'b', 'c'], source: declared }],
    };
    const claim = dpSequentialRegression.claim(defaults, runContext(schema, 100));
    expect(claim.steps[0]!.what).toBe(
      "coefficients of the multinomial logistic (3 classes) regression of `w` on 1 predictor, output perturbation with L2 sensitivity 2√2/(nλ) plus twice the solver's gap (1/1000 of it), release 1 of 1",
    );
  });
});

describe('dp-sequential-regression limits and assumptions', () => {
  it('accepts exactly p + 2 rows and a regression of exactly 10,000 coefficients', () => {
    const numeric: Schema = {
      version: 1,
      missing: [],
      columns: [
        { name: 'u', type: 'numeric', bounds: [0, 1], source: declared },
        { name: 'v', type: 'numeric', bounds: [0, 1], source: declared },
      ],
    };
    expect(dpSequentialRegression.check(numeric, defaults, runContext(numeric, 4))).toEqual([]);
    expect(dpSequentialRegression.check(numeric, defaults, runContext(numeric, 3))).toEqual([
      'needs at least p + 2 = 4 rows for the inverse-Wishart draw of the 2 numeric columns; the table has 3.',
    ]);
    // 10,001 categories on the intercept alone: 10,000 coefficients, at the limit.
    expect(COEFFICIENT_LIMIT).toBe(10_000);
    const wide: Schema = {
      version: 1,
      missing: [],
      columns: [
        {
          name: 'k',
          type: 'categorical',
          categories: Array.from({ length: 10_001 }, (_, i) => `c${i}`),
          source: declared,
        },
      ],
    };
    expect(dpSequentialRegression.check(wide, defaults, runContext(wide, 1000))).toEqual([]);
  });

  it('refuses bounds that are not increasing, and states the model sentences a schema needs', () => {
    const flat: Schema = {
      version: 1,
      missing: [],
      columns: [{ name: 'u', type: 'numeric', bounds: [2, 2], source: declared }],
    };
    expect(dpSequentialRegression.check(flat, defaults, runContext(flat, 10))).toEqual([
      'needs bounds for numeric column `u`: declare them in the schema.',
    ]);
    const numericOnly: Schema = {
      version: 1,
      missing: [],
      columns: [{ name: 'u', type: 'numeric', bounds: [0, 1], source: declared }],
    };
    const text = dpSequentialRegression.claim(defaults, runContext(numericOnly, 10)).assumptions.join('\n');
    expect(text).toMatch(/Sensitivities of the numeric block are for replacing one row with n public/);
    expect(text).not.toMatch(/Mironov 2012/);
    expect(text).not.toMatch(/floating-point certificate/);
    const categoricalOnly: Schema = {
      version: 1,
      missing: [],
      columns: [{ name: 'w', type: 'categorical', categories: ['a', 'b'], source: declared }],
    };
    const regression = dpSequentialRegression
      .claim(defaults, runContext(categoricalOnly, 10))
      .assumptions.join('\n');
    expect(regression).not.toMatch(/Sensitivities of the numeric block/);
    expect(regression).toMatch(/moves by at most 2G\/\(nλ\) when one row is replaced/);
    expect(regression).toMatch(/released only when its floating-point certificate holds/);
    expect(regression).toMatch(/Mironov 2012/);
  });

  it('reads λ and the missing share, with their defaults 0.01 and 1/10', () => {
    expect(sequentialRegressionSettings({}).lambda).toBe(0.01);
    expect(sequentialRegressionSettings({}).missingShare.toString()).toBe('1/10');
    const set = sequentialRegressionSettings({ lambda: 0.5, missingShare: 0.25 });
    expect(set.lambda).toBe(0.5);
    expect(set.missingShare.toString()).toBe('1/4');
  });
});

describe('dp-sequential-regression public facts the claim rests on', () => {
  it('a completeness read from the data keeps the missing count, even in a declared column', () => {
    const schema: Schema = {
      version: 1,
      missing: [],
      columns: [
        {
          name: 'w',
          type: 'categorical',
          categories: ['a', 'b'],
          canBeMissing: false,
          source: declared,
          sources: { canBeMissing: 'inferred' },
        },
      ],
    };
    const claim = dpSequentialRegression.claim(defaults, runContext(schema, 100));
    expect(claim.steps.map((step) => [step.what.slice(0, 40), step.epsilon])).toEqual([
      ['coefficients of the logistic regression ', 0.9],
      ['count of missing values of `w` (sensitiv', 0.1],
    ]);
  });

  it('calls the bound unproven exactly when a regression draws continuous noise', () => {
    const schema: Schema = {
      version: 1,
      missing: [],
      columns: [{ name: 'w', type: 'categorical', categories: ['a', 'b'], source: declared }],
    };
    const claim = dpSequentialRegression.claim(defaults, runContext(schema, 100));
    expect(claim.bound).toBe('unproven');
    expect(claim.unprovenBecause).toBe(
      'continuous output-perturbation noise drawn in floating point; ε holds for exact draws, sensitivities proven',
    );
  });

  it('refuses bounds that are not finite, and checks a schema before n is known', () => {
    for (const bounds of [
      [-Infinity, 1],
      [0, Infinity],
      [NaN, 1],
    ] as [number, number][]) {
      const schema: Schema = {
        version: 1,
        missing: [],
        columns: [{ name: 'u', type: 'numeric', bounds, source: declared }],
      };
      expect(dpSequentialRegression.check(schema, defaults, runContext(schema, 10))).toEqual([
        'needs bounds for numeric column `u`: declare them in the schema.',
      ]);
    }
    const schema: Schema = {
      version: 1,
      missing: [],
      columns: [{ name: 'u', type: 'numeric', bounds: [0, 1], source: declared }],
    };
    expect(dpSequentialRegression.check(schema, defaults)).toEqual([]);
  });
});
