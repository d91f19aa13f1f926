import { describe, expect, it } from 'vitest';
import { parseBudget } from '../../privacy/budget';
import { SeededRng } from '../../rng/seeded-rng';
import { InputError } from '../../table/errors';
import type { Schema, Table } from '../../table/types';
import {
  categoricalColumn,
  missingRate,
  numericColumn,
  RecordingAccountant,
  runContext,
} from '../common/testing/fixtures';
import { resolveParams } from '../params';
import { getMechanism } from '../registry';
import { dpSequentialRegression, runSequentialRegression } from '.';
import { planSequentialRegression } from './plan';

const defaults = resolveParams(dpSequentialRegression, {});

/** z (numeric) and a (3 categories) cannot be missing; y (numeric) and b (2 categories) can; c last. */
const COMPLETE: Schema = {
  version: 1,
  missing: [''],
  columns: [
    { name: 'z', type: 'numeric', bounds: [0, 10], integer: true, canBeMissing: false, source: 'declared' },
    { name: 'y', type: 'numeric', bounds: [0, 1], canBeMissing: true, source: 'declared' },
    { name: 'a', type: 'categorical', categories: ['p', 'q', 'r'], canBeMissing: false, source: 'declared' },
    { name: 'b', type: 'categorical', categories: ['lo', 'hi'], canBeMissing: true, source: 'declared' },
    { name: 'c', type: 'categorical', categories: ['no', 'yes'], canBeMissing: false, source: 'declared' },
  ],
};

/** The same schema as an older file: no `canBeMissing`, a missing count and level for every column. */
const OLDER: Schema = {
  ...COMPLETE,
  columns: COMPLETE.columns.map(({ canBeMissing: _dropped, ...column }) => column),
};

/** z = i mod 11, y missing every 9th row, a by z, b = hi when z ≥ 5 (missing every 13th row), c by a. */
function completeTable(n: number): Table {
  const z = Array.from({ length: n }, (_, i) => i % 11);
  const a = z.map((v) => (v < 4 ? 'p' : v < 8 ? 'q' : 'r'));
  return {
    nRows: n,
    columns: [
      numericColumn('z', z),
      numericColumn(
        'y',
        z.map((_, i) => (i % 9 === 0 ? null : (i % 7) / 6)),
      ),
      categoricalColumn('a', a),
      categoricalColumn(
        'b',
        z.map((v, i) => (i % 13 === 0 ? null : v >= 5 ? 'hi' : 'lo')),
      ),
      categoricalColumn(
        'c',
        a.map((v, i) => (v === 'r' || i % 5 === 0 ? 'yes' : 'no')),
      ),
    ],
  };
}

describe('dp-sequential-regression on columns that cannot be missing', () => {
  it('drops their missing level among the predictors: fewer coefficients to perturb', () => {
    const complete = planSequentialRegression(COMPLETE, defaults, 1000);
    const older = planSequentialRegression(OLDER, defaults, 1000);
    // Predictors of c: intercept, z, y, then a's indicators (q, r; older also missing) and b's (hi, missing).
    expect(older.regressions.map((r) => [r.coding.name, r.predictors, r.coefficients])).toEqual([
      ['a', 3, 6],
      ['b', 6, 6],
      ['c', 8, 8],
    ]);
    expect(complete.regressions.map((r) => [r.coding.name, r.predictors, r.coefficients])).toEqual([
      ['a', 3, 6],
      ['b', 5, 5],
      ['c', 7, 7],
    ]);
    expect(complete.categorical.map((coding) => coding.levels)).toEqual([3, 3, 2]);
  });

  it('measure no missing count there: its share goes to the columns that can be missing', async () => {
    const n = 300;
    const accountant = new RecordingAccountant(parseBudget('1'), []);
    const release = await runSequentialRegression(
      completeTable(n),
      COMPLETE,
      defaults,
      runContext(COMPLETE, n),
      accountant,
    );
    // ε = 1: missing counts 1/10 over the 2 columns that can be missing (y, b) = 1/20 each; the rest
    // 9/10 over 2 means + 3 covariance entries + 3 regressions = 9/80 each.
    expect(accountant.reservedEpsilons.map((e) => e.toString())).toEqual([
      ...Array(8).fill('9/80'),
      '1/20',
      '1/20',
    ]);
    const counted = release.claim.steps.filter((step) => step.what.startsWith('count of missing values'));
    expect(counted.map((step) => step.what.slice(0, 32))).toEqual([
      'count of missing values of `y` (',
      'count of missing values of `b` (',
    ]);
    // With no column that can be missing, nothing is set aside for missing counts.
    const none: Schema = {
      ...COMPLETE,
      columns: COMPLETE.columns.map((column) => ({ ...column, canBeMissing: false })),
    };
    const claim = dpSequentialRegression.claim(defaults, runContext(none, n));
    expect(claim.steps).toHaveLength(8);
    expect(claim.steps.map((step) => step.epsilon)).toEqual(Array(8).fill(0.125));
  });

  it('never synthesize a missing value there in a seeded run, while y and b keep theirs', async () => {
    const n = 2000;
    const ctx = runContext(COMPLETE, n, { epsilon: '40', releases: 2, rng: new SeededRng('dsr-complete') });
    const release = await getMechanism('dp-sequential-regression')!.run(
      completeTable(n),
      COMPLETE,
      defaults,
      ctx,
    );
    for (const dataset of release.datasets) {
      const [z, y, a, b, c] = dataset.columns;
      expect([missingRate(z!), missingRate(a!), missingRate(c!)]).toEqual([0, 0, 0]);
      // y: 223 of 2,000 missing, b: 154; exactly the noisy count of rows is set missing. Each count gets
      // discrete Laplace noise of scale 1/ε = 1/(0.1·(40/2)/2) = 1, beyond 15 rows with probability
      // below e⁻¹⁵ ≈ 3·10⁻⁷: tolerance 15/2,000.
      expect(Math.abs(missingRate(y!) - 223 / n)).toBeLessThanOrEqual(15 / n);
      expect(Math.abs(missingRate(b!) - 154 / n)).toBeLessThanOrEqual(15 / n);
    }
    const text = release.claim.assumptions.join(' ');
    expect(text).toContain('The schema says `z`, `a`, `c` cannot be missing: they have no noisy count');
    expect(text).not.toContain('Every column has a noisy count');
  });

  it('refuse a missing value there before anything is drawn, naming the column', async () => {
    const n = 50;
    const missingZ = completeTable(n);
    missingZ.columns[0] = numericColumn('z', [null, ...Array<number>(n - 1).fill(3)]);
    const accountant = new RecordingAccountant(parseBudget('1'), []);
    const direct = runSequentialRegression(missingZ, COMPLETE, defaults, runContext(COMPLETE, n), accountant);
    await expect(direct).rejects.toThrow(InputError);
    await expect(
      runSequentialRegression(missingZ, COMPLETE, defaults, runContext(COMPLETE, n), accountant),
    ).rejects.toThrow(/column `z` \(1 row\) cannot be missing/);
    expect(accountant.reservedEpsilons).toHaveLength(0);
    const missingA = completeTable(n);
    missingA.columns[2] = categoricalColumn('a', [null, ...Array<string>(n - 1).fill('p')]);
    await expect(
      getMechanism('dp-sequential-regression')!.run(missingA, COMPLETE, defaults, runContext(COMPLETE, n)),
    ).rejects.toThrow(/column `a` \(1 row\) cannot be missing/);
  });

  it('name in the claim only the complete columns whose completeness is public', () => {
    const inferred: Schema = {
      ...COMPLETE,
      columns: COMPLETE.columns.map((column) =>
        column.name === 'a' ? { ...column, sources: { canBeMissing: 'inferred' as const } } : column,
      ),
    };
    const claim = dpSequentialRegression.claim(defaults, runContext(inferred, 300));
    const text = claim.assumptions.join(' ');
    expect(text).toContain('The schema says `z`, `c` cannot be missing');
    expect(text).toContain('Whether a column can be missing was read from the data for some columns');
    expect(text).toContain('the run does not use that fact');
    // The inferred fact does not remove a's count: only public completeness does.
    expect(claim.steps.some((step) => step.what.startsWith('count of missing values of `a`'))).toBe(true);
    expect(claim.steps.some((step) => step.what.startsWith('count of missing values of `z`'))).toBe(false);
  });

  it('give the same claim (steps, texts, ε) whatever an inferred canBeMissing says', () => {
    // Three columns whose flags were all read from the data; only a's value differs between the
    // schemas, as between a table with no missing `a` and its neighbour with one.
    const inferredSchema = (aComplete: boolean): Schema => ({
      version: 1,
      missing: [''],
      columns: [
        { name: 'x', type: 'numeric', bounds: [0, 1], canBeMissing: true, source: 'inferred' },
        {
          name: 'a',
          type: 'categorical',
          categories: ['p', 'q'],
          canBeMissing: !aComplete,
          source: 'inferred',
        },
        { name: 'b', type: 'categorical', categories: ['lo', 'hi'], canBeMissing: true, source: 'inferred' },
      ],
    });
    const claims = [true, false].map((aComplete) =>
      dpSequentialRegression.claim(defaults, runContext(inferredSchema(aComplete), 300)),
    );
    expect(claims[0]!.steps).toEqual(claims[1]!.steps);
    expect(claims[0]!.assumptions).toEqual(claims[1]!.assumptions);
    expect(claims[0]!.epsilon).toBe(claims[1]!.epsilon);
    // Every column keeps its count: 3 counts, each at s·ε/3, s = the missing share.
    const counts = claims[0]!.steps.filter((step) => step.what.startsWith('count of missing values of'));
    expect(counts).toHaveLength(3);
    // b's regression has the missing level of `a` among its predictors: intercept, x, a's q and missing.
    expect(claims[0]!.steps.some((step) => step.what.includes('regression of `b` on 4 predictors'))).toBe(
      true,
    );
    // Declared completeness still drops the count and the level.
    const declared = inferredSchema(true);
    declared.columns[1] = { ...declared.columns[1]!, sources: { canBeMissing: 'declared' } };
    const plan = planSequentialRegression(declared, defaults, 300);
    expect(plan.categorical[0]!.levels).toBe(2);
    expect(planSequentialRegression(inferredSchema(true), defaults, 300).categorical[0]!.levels).toBe(3);
  });
});

describe('dp-sequential-regression describe() with complete columns', () => {
  it('says how many columns have no missing count and lists the smaller regressions', () => {
    const lines = dpSequentialRegression.describe!(defaults, runContext(COMPLETE, 1000));
    expect(lines).toContain(
      '3 of the 5 columns have no missing count and, as a predictor, no missing level: the schema says they cannot be missing.',
    );
    expect(lines.some((line) => line.startsWith('`c`: logistic regression, 2 classes on 7 predictors'))).toBe(
      true,
    );
    expect(dpSequentialRegression.describe!(defaults, runContext(OLDER, 1000)).join(' ')).not.toContain(
      'no missing count',
    );
  });
});
