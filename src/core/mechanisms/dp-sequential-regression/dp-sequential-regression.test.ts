import { describe, expect, it } from 'vitest';
import { OverspendError } from '../../privacy/accountant';
import { parseBudget } from '../../privacy/budget';
import { SeededRng } from '../../rng/seeded-rng';
import type { CategoricalColumn, NumericColumn, Schema, Table } from '../../table/types';
import {
  categoricalColumn,
  mixedTable,
  missingRate,
  numericColumn,
  RecordingAccountant,
  recordingRng,
  runContext,
} from '../common/testing/fixtures';
import { resolveParams } from '../params';
import { dpSequentialRegression, runSequentialRegression } from '.';
import { gradientRoundingBound } from './sensitivity';

const defaults = resolveParams(dpSequentialRegression, {});

/**
 * z in [0, 10] (i mod 11), y in [0, 1] ((i mod 7)/6, missing every 9th row), w = hi when z >= 5 else
 * lo (missing every 13th row), flag = yes throughout (one category: no regression).
 */
function thresholdTable(n: number): { table: Table; schema: Schema } {
  const z = Array.from({ length: n }, (_, i) => i % 11);
  return {
    table: {
      nRows: n,
      columns: [
        numericColumn('z', z),
        numericColumn(
          'y',
          z.map((_, i) => (i % 9 === 0 ? null : (i % 7) / 6)),
        ),
        categoricalColumn(
          'w',
          z.map((v, i) => (i % 13 === 0 ? null : v >= 5 ? 'hi' : 'lo')),
        ),
        categoricalColumn(
          'flag',
          z.map(() => 'yes'),
        ),
      ],
    },
    schema: {
      version: 1,
      missing: [],
      columns: [
        { name: 'z', type: 'numeric', bounds: [0, 10], integer: true, source: 'declared' },
        { name: 'y', type: 'numeric', bounds: [0, 1], source: 'declared' },
        { name: 'w', type: 'categorical', categories: ['lo', 'hi', 'mid'], source: 'declared' },
        { name: 'flag', type: 'categorical', categories: ['yes'], source: 'declared' },
      ],
    },
  };
}

describe('dp-sequential-regression claim', () => {
  it('ε/M per release: a share for the missing counts, the rest evenly over means, covariances and regressions', async () => {
    const { table, schema } = thresholdTable(300);
    const accountant = new RecordingAccountant(parseBudget('1'), []);
    const ctx = runContext(schema, 300, { releases: 2 });
    const release = await runSequentialRegression(table, schema, defaults, ctx, accountant);
    // Per release 1/2; missing counts (1/10)·(1/2) over 4 columns = 1/80 each; the rest 9/20 over
    // 2 means + 3 covariance entries + 1 regression (w; flag has one category) = 3/40 each.
    expect(accountant.reservedEpsilons.map((e) => e.toString())).toEqual(
      Array(2)
        .fill([...Array(6).fill('3/40'), ...Array(4).fill('1/80')])
        .flat(),
    );
    const claim = dpSequentialRegression.claim(defaults, ctx);
    expect(release.claim).toEqual(claim);
    expect(claim.epsilon).toBe(1);
    expect(claim.bound).toBe('unproven');
    expect(claim.unprovenBecause).toBe(
      'continuous output-perturbation noise drawn in floating point; ε holds for exact draws, sensitivities proven',
    );
    expect(claim.steps.map((step) => step.what).slice(0, 6)).toEqual([
      'mean of `z` on a grid of (c₁ − c₀)/(100·n), sensitivity (c₁ − c₀)/n plus one grid step, release 1 of 2',
      'mean of `y` on a grid of (c₁ − c₀)/(100·n), sensitivity (c₁ − c₀)/n plus one grid step, release 1 of 2',
      'covariance entry (`z`, `z`) on a grid of 1/100 of its sensitivity (c₁ − c₀)²/n, plus one grid step, release 1 of 2',
      'covariance entry (`z`, `y`) on a grid of 1/100 of its sensitivity (c₁ − c₀)·(d₁ − d₀)/n, plus one grid step, release 1 of 2',
      'covariance entry (`y`, `y`) on a grid of 1/100 of its sensitivity (c₁ − c₀)²/n, plus one grid step, release 1 of 2',
      "coefficients of the multinomial logistic (3 classes) regression of `w` on 3 predictors, output perturbation with L2 sensitivity 2√2/(nλ) plus twice the solver's gap (1/1000 of it), release 1 of 2",
    ]);
    expect(claim.assumptions.some((a) => a.includes('Mironov 2012'))).toBe(true);
  });

  it('a binary column is a logistic regression with sensitivity 2/(nλ); numeric columns alone give a proven bound', () => {
    const { schema } = mixedTable(10);
    const claim = dpSequentialRegression.claim(defaults, runContext(schema, 100));
    expect(claim.steps[5]!.what).toBe(
      "coefficients of the logistic regression of `sex` on 3 predictors, output perturbation with L2 sensitivity 2/(nλ) plus twice the solver's gap (1/1000 of it), release 1 of 1",
    );
    const numeric: Schema = { ...schema, columns: schema.columns.slice(0, 2) };
    const proven = dpSequentialRegression.claim(defaults, runContext(numeric, 100));
    expect(proven.bound).toBe('proven');
    // 2 means + 3 covariance entries share 9/10; the two missing counts 1/20 each.
    expect(proven.steps.map((step) => step.epsilon)).toEqual([0.18, 0.18, 0.18, 0.18, 0.18, 0.05, 0.05]);
  });

  it('categorical columns alone: the regressions and the missing counts', () => {
    const schema: Schema = {
      version: 1,
      missing: [],
      columns: [
        { name: 'a', type: 'categorical', categories: ['x', 'y'], source: 'declared' },
        { name: 'b', type: 'categorical', categories: ['x', 'y', 'z', 'u'], source: 'declared' },
      ],
    };
    const claim = dpSequentialRegression.claim(defaults, runContext(schema, 100, { epsilon: '2' }));
    // a: intercept only (1 predictor); b: intercept and a's two indicators (y, missing).
    expect(claim.steps.map((step) => [step.what.slice(0, 50), step.epsilon])).toEqual([
      ['coefficients of the logistic regression of `a` on ', 0.9],
      ['coefficients of the multinomial logistic (4 classe', 0.9],
      ['count of missing values of `a` (sensitivity 1), re', 0.1],
      ['count of missing values of `b` (sensitivity 1), re', 0.1],
    ]);
  });
});

describe('dp-sequential-regression check and describe', () => {
  it('names missing bounds, categories, too few rows and a regression too large, in sentences', () => {
    const schema: Schema = {
      version: 1,
      missing: [],
      columns: [
        { name: 'u', type: 'numeric', source: 'declared' },
        { name: 'v', type: 'numeric', bounds: [0, 1], source: 'declared' },
        { name: 'c', type: 'categorical', source: 'declared' },
        {
          name: 'big',
          type: 'categorical',
          categories: Array.from({ length: 200 }, (_, i) => `k${i}`),
          source: 'declared',
        },
        {
          name: 'after',
          type: 'categorical',
          categories: Array.from({ length: 60 }, (_, i) => `k${i}`),
          source: 'declared',
        },
      ],
    };
    expect(dpSequentialRegression.check(schema, defaults, runContext(schema, 2))).toEqual([
      'needs bounds for numeric column `u`: declare them in the schema.',
      'needs categories for categorical column `c`: declare them in the schema.',
      'the regression of `after` has 11,918 coefficients (59 categories beyond the first, times 202 predictors), more than 10,000: put columns with many categories last or leave some out.',
      'needs at least p + 2 = 3 rows for the inverse-Wishart draw of the 1 numeric column; the table has 2.',
    ]);
  });

  it('describes the model, the solver steps and the size of the noise', () => {
    const { schema } = thresholdTable(10);
    expect(dpSequentialRegression.describe!(defaults, runContext(schema, 1000, { epsilon: '2' }))).toEqual([
      'Numeric block: 2 numeric columns drawn jointly from a multivariate normal with a noisy mean and covariance.',
      // ε per regression (9/10)·2/6 = 0.3; D = 2·3 = 6; Δ = 2√2/(1000·0.01)·1.002 = 0.2834; 6·0.2834/0.3 = 5.67;
      // the largest coefficient norm √(2·log 3/0.01) = 14.8. Steps: gap = 0.2828/1000, L = 0.51,
      // ⌈log(gap²·0.01/(4·log 3)) / log(1 − √(0.01/0.51))⌉ = ⌈−22.43/−0.1509⌉ = 149.
      '`w`: multinomial logistic regression, 3 classes on 3 predictors (6 coefficients), 149 solver steps; mean noise norm 5.67 against coefficients of norm at most 14.8.',
    ]);
  });
});

describe('dp-sequential-regression run', () => {
  it('reserves everything before the first draw; an overspend draws nothing', async () => {
    const { table, schema } = thresholdTable(60);
    const log: string[] = [];
    const ctx = runContext(schema, 60, { rng: recordingRng(new SeededRng(1), log) });
    await runSequentialRegression(
      table,
      schema,
      defaults,
      ctx,
      new RecordingAccountant(parseBudget('1'), log),
    );
    expect(log.indexOf('draw')).toBeGreaterThan(log.lastIndexOf('reserve'));
    const refused: string[] = [];
    const refusedCtx = runContext(schema, 60, { rng: recordingRng(new SeededRng(1), refused) });
    await expect(
      runSequentialRegression(
        table,
        schema,
        defaults,
        refusedCtx,
        new RecordingAccountant(parseBudget('0.5'), refused),
      ),
    ).rejects.toThrow(OverspendError);
    expect(refused).not.toContain('draw');
  });

  it('M tables of n rows: bounds, whole numbers, declared categories, missing rates, and the same output for the same seed', async () => {
    const n = 4000;
    const { table, schema } = thresholdTable(n);
    const run = (seed: number) =>
      dpSequentialRegression.run(
        table,
        schema,
        defaults,
        runContext(schema, n, { epsilon: '20', releases: 2, rng: new SeededRng(seed) }),
      );
    const release = await run(3);
    expect(release.datasets).toHaveLength(2);
    for (const dataset of release.datasets) {
      expect(dataset.nRows).toBe(n);
      expect(dataset.columns.map((column) => column.name)).toEqual(['z', 'y', 'w', 'flag']);
      const [z, y, w, flag] = dataset.columns as [
        NumericColumn,
        NumericColumn,
        CategoricalColumn,
        CategoricalColumn,
      ];
      for (let i = 0; i < n; i++) {
        if (z.missing[i] === 0 && !(Number.isInteger(z.values[i]) && z.values[i]! >= 0 && z.values[i]! <= 10))
          throw new Error(`z ${z.values[i]} at row ${i}`);
        if (y.missing[i] === 0 && !(y.values[i]! >= 0 && y.values[i]! <= 1))
          throw new Error(`y ${y.values[i]} at row ${i}`);
      }
      expect(w.dictionary).toEqual(['lo', 'hi', 'mid']);
      expect(flag.dictionary).toEqual(['yes']);
      // ε = 20, M = 2: each missing count gets ε = 0.25, noise SD √2/0.25 = 5.7 rows; 1 % of n = 40 rows
      // is 7 SD. Real rates: y 1/9 (445 rows), w 1/13 (308 rows), z and flag 0.
      expect(Math.abs(missingRate(y) - 445 / n)).toBeLessThan(0.01);
      expect(Math.abs(missingRate(w) - 308 / n)).toBeLessThan(0.01);
      expect(missingRate(z)).toBeLessThan(0.01);
      expect(missingRate(flag)).toBeLessThan(0.01);
      for (let i = 0; i < n; i++) if (flag.missing[i] === 0) expect(flag.codes[i]).toBe(0);
    }
    const again = await run(3);
    expect(again.datasets[1]!.columns[2]).toEqual(release.datasets[1]!.columns[2]);
    // n = 4000: gap = 2√2/(4000·0.01)/1000 = 7.07e−5, ⌈log(gap²·0.01/(4·log 3))/log(1 − √(0.01/0.51))⌉ = ⌈−25.20/−0.1509⌉ = 168.
    expect(release.diagnostics.regressions).toEqual([
      {
        column: 'w',
        classes: 3,
        predictors: 3,
        iterations: 168,
        sensitivity: expect.closeTo(((2 * Math.SQRT2) / 40) * 1.002, 12),
      },
    ]);
    const gap = (release.dataHolderDiagnostics.solverGap as { gapBound: number; allowedGap: number }[])[0]!;
    expect(gap.gapBound).toBeLessThan(gap.allowedGap);
    // The certificate adds the gradient's worst-case rounding E (at least its ‖β‖ = 0 value) before dividing by λ.
    expect(gap.gapBound).toBeGreaterThanOrEqual(gradientRoundingBound(4000, 3, 3, 0.01, 0) / 0.01);
    expect(release.dataHolderDiagnostics.warnings).toEqual([]);
  });

  it('keeps the relation of a categorical column to a numeric one at a large ε and n', async () => {
    const n = 20_000;
    const { table, schema } = thresholdTable(n);
    const params = resolveParams(dpSequentialRegression, { lambda: 0.001 });
    const ctx = runContext(schema, n, { epsilon: '50', rng: new SeededRng(4) });
    const [dataset] = (await dpSequentialRegression.run(table, schema, params, ctx)).datasets;
    const [z, , w] = dataset!.columns as [NumericColumn, NumericColumn, CategoricalColumn];
    const hiShare = [0, 0];
    const rows = [0, 0];
    for (let i = 0; i < n; i++) {
      if (z.missing[i] === 1 || w.missing[i] === 1) continue;
      const side = z.values[i]! >= 5 ? 1 : 0;
      rows[side]++;
      if (w.codes[i] === 1) hiShare[side]++;
    }
    // In the data, P(hi | z >= 5) = 1 and P(hi | z < 5) = 0; a logistic regression on z with λ = 0.001
    // (coefficients of norm at most √(2·log 3/0.001) = 47, predictors scaled by 1/√3) separates the two
    // sides far less sharply but clearly: a gap of 0.5 between the shares is far beyond sampling error.
    expect(hiShare[1]! / rows[1]! - hiShare[0]! / rows[0]!).toBeGreaterThan(0.5);
  });

  it('reports progress rising to 1, solver steps included', async () => {
    const { table, schema } = thresholdTable(200);
    const reports: [number, string | undefined][] = [];
    const ctx = runContext(schema, 200, {
      releases: 2,
      progress: (fraction, message) => reports.push([fraction, message]),
    });
    await dpSequentialRegression.run(table, schema, defaults, ctx);
    const fractions = reports.map(([fraction]) => fraction);
    for (let i = 1; i < fractions.length; i++)
      expect(fractions[i]!).toBeGreaterThanOrEqual(fractions[i - 1]!);
    expect(fractions.at(-1)).toBe(1);
    // n = 200, λ = 0.01, K = 3: gap = 2√2/(200·0.01)/1000 = √2/1000, T = ⌈log(gap²·0.01/(4·log 3))/log(1 − √(0.01/0.51))⌉ = 128.
    expect(reports.map(([, message]) => message)).toContain('fitting the regression of w: step 128 of 128');
  });

  it('stops with an AbortError when cancelled', async () => {
    const { table, schema } = thresholdTable(50);
    const ctx = runContext(schema, 50, { signal: { aborted: true } });
    await expect(dpSequentialRegression.run(table, schema, defaults, ctx)).rejects.toMatchObject({
      name: 'AbortError',
    });
  });
});
