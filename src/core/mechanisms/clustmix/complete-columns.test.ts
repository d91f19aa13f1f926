import { describe, expect, it } from 'vitest';
import { SeededRng } from '../../rng/seeded-rng';
import { InputError } from '../../table/errors';
import type { Schema, Table } from '../../table/types';
import { categoricalColumn, missingRate, numericColumn, runContext } from '../common/testing/fixtures';
import { resolveParams } from '../params';
import { getMechanism } from '../registry';
import { encodeRows, planEncoding } from './encoding';
import { clustmix } from './index';
import { readClustmixSettings } from './params';
import { buildClustmixPlan, RESIDUAL_GRID } from './plan';

/** age and sex cannot be missing, income can (25 % missing), label `y` cannot; the data agrees. */
const COMPLETE: Schema = {
  version: 1,
  missing: [''],
  columns: [
    {
      name: 'age',
      type: 'numeric',
      bounds: [17, 90],
      integer: true,
      canBeMissing: false,
      source: 'declared',
    },
    { name: 'income', type: 'numeric', bounds: [0, 1000], canBeMissing: true, source: 'declared' },
    { name: 'sex', type: 'categorical', categories: ['F', 'M'], canBeMissing: false, source: 'declared' },
    { name: 'y', type: 'categorical', categories: ['no', 'yes'], canBeMissing: false, source: 'declared' },
  ],
};

/** The same schema as an older file: no `canBeMissing`, so every column keeps its missing part. */
const OLDER: Schema = {
  ...COMPLETE,
  columns: COMPLETE.columns.map(({ canBeMissing: _dropped, ...column }) => column),
};

function completeTable(n: number): Table {
  const age: number[] = [];
  const income: (number | null)[] = [];
  const sex: string[] = [];
  const y: string[] = [];
  for (let i = 0; i < n; i++) {
    age.push(17 + ((i * 7) % 74));
    income.push(i % 4 === 1 ? null : ((i * 37) % 1000) + 0.5);
    sex.push(i % 2 === 0 ? 'F' : 'M');
    y.push(i % 3 === 0 ? 'yes' : 'no');
  }
  return {
    nRows: n,
    columns: [
      numericColumn('age', age),
      numericColumn('income', income),
      categoricalColumn('sex', sex),
      categoricalColumn('y', y),
    ],
  };
}

describe('clustmix on columns that cannot be missing', () => {
  it('encodes them without a missing coordinate, and a complete label without a missing class', () => {
    const complete = planEncoding(COMPLETE, 'y').encoding!;
    const older = planEncoding(OLDER, 'y').encoding!;
    // Older: age (u, m) + income (u, m) + sex (F, M, missing) = 7; complete: age u + income (u, m) + sex (F, M) = 5.
    expect(older.dimension).toBe(7);
    expect(complete.dimension).toBe(5);
    expect(complete.columns).toBe(older.columns);
    expect(older.classes).toBe(3);
    expect(complete.classes).toBe(2);
    expect(Array.from(complete.boxUpper)).toEqual([1, 1, Math.sqrt(3) / 2, Math.SQRT1_2, Math.SQRT1_2]);
    // Every block still has diameter at most 1: two rows differing in every column lie at most √p apart.
    const rows = encodeRows(completeTable(2), complete);
    let squared = 0;
    for (let j = 0; j < rows.dimension; j++)
      squared += (rows.values[j]! - rows.values[rows.dimension + j]!) ** 2;
    expect(squared).toBeLessThanOrEqual(complete.columns + 1e-12);
  });

  it('never synthesize a missing value there in a seeded run, while income keeps its missing values', async () => {
    const n = 3000;
    const table = completeTable(n);
    const mechanism = getMechanism('clustmix')!;
    const params = resolveParams(clustmix, { label: 'y', clusters: 10, clip: 1 });
    const ctx = runContext(COMPLETE, n, {
      epsilon: '20',
      delta: '1e-4',
      releases: 2,
      rng: new SeededRng('clustmix-complete'),
    });
    const plan = buildClustmixPlan(COMPLETE, readClustmixSettings(params), ctx);
    const release = await mechanism.run(table, COMPLETE, params, ctx);
    expect(release.diagnostics).toMatchObject({ dimension: 5 });
    for (const dataset of release.datasets) {
      const [age, income, sex, y] = dataset.columns;
      expect(missingRate(age!)).toBe(0);
      expect(missingRate(sex!)).toBe(0);
      expect(missingRate(y!)).toBe(0);
      // 25 % of income is missing. As in mechanism.test.ts: with C = √p nothing inside the rows' hull is
      // clipped, so the rate is 0.25 plus noise of SD (2/√3)·γσ_S·√K/n and binomial sampling SD
      // √(r(1 − r)/n); tolerance 5 SD of both plus 0.005 for clamping near-zero cluster rates.
      const gammaSigmaS =
        (plan.clipRadius / RESIDUAL_GRID) * Math.sqrt(plan.budget.finalNoise.sumSigma2.toNumber());
      const noiseSd = ((2 / Math.sqrt(3)) * gammaSigmaS * Math.sqrt(plan.clusters)) / n;
      const tolerance = 5 * Math.hypot(noiseSd, Math.sqrt((0.25 * 0.75) / n)) + 0.005;
      expect(Math.abs(missingRate(income!) - 0.25)).toBeLessThan(tolerance);
    }
    expect(release.claim.assumptions.join(' ')).toContain(
      'The schema says `age`, `sex`, `y` cannot be missing: they have no missing-value coordinate',
    );
  });

  it('refuse a missing or undeclared value there, naming the column', async () => {
    const n = 40;
    const encoding = planEncoding(COMPLETE, 'y').encoding!;
    const withMissingAge = completeTable(n);
    withMissingAge.columns[0] = numericColumn('age', [null, ...Array<number>(n - 1).fill(30)]);
    expect(() => encodeRows(withMissingAge, encoding)).toThrow(/column `age` has missing values/);
    const undeclaredSex = completeTable(n);
    undeclaredSex.columns[2] = categoricalColumn('sex', ['X', ...Array<string>(n - 1).fill('F')]);
    expect(() => encodeRows(undeclaredSex, encoding)).toThrow(InputError);
    expect(() => encodeRows(undeclaredSex, encoding)).toThrow(/column `sex`/);
    const missingLabel = completeTable(n);
    missingLabel.columns[3] = categoricalColumn('y', [null, ...Array<string>(n - 1).fill('no')]);
    expect(() => encodeRows(missingLabel, encoding)).toThrow(/column `y`/);
    const ctx = runContext(COMPLETE, n, { delta: '1e-3' });
    await expect(
      getMechanism('clustmix')!.run(withMissingAge, COMPLETE, resolveParams(clustmix, { label: 'y' }), ctx),
    ).rejects.toThrow(/column `age` \(1 row\) cannot be missing/);
  });

  it('names in the claim only the complete columns whose completeness is public', () => {
    const inferred: Schema = {
      ...COMPLETE,
      columns: COMPLETE.columns.map((column) =>
        column.name === 'sex' ? { ...column, sources: { canBeMissing: 'inferred' as const } } : column,
      ),
    };
    const params = resolveParams(clustmix, { label: 'y' });
    const text = clustmix.claim(params, runContext(inferred, 3000, { delta: '1e-6' })).assumptions.join(' ');
    expect(text).toContain('The schema says `age`, `y` cannot be missing');
    expect(text).toContain('Column `sex`: its whether it can be missing was read from the data');
    expect(text).toContain('Whether a column can be missing was read from the data for some columns');
  });
});

describe('clustmix describe() with complete columns', () => {
  it('says how many encoded columns have no missing coordinate and that the label has no missing class', () => {
    const params = resolveParams(clustmix, { label: 'y' });
    const lines = clustmix.describe!(params, runContext(COMPLETE, 3000, { delta: '1e-6' }));
    expect(lines[0]).toMatch(
      /^Encoded rows: d = 5 coordinates from p = 3 columns \(2 without a missing-value coordinate: the schema says they cannot be missing\);/,
    );
    expect(lines[1]).toContain('per class of `y`, which cannot be missing: no missing class)');
    const older = clustmix.describe!(params, runContext(OLDER, 3000, { delta: '1e-6' }));
    expect(older[0]).toMatch(/^Encoded rows: d = 7 coordinates from p = 3 columns; /);
    expect(older[1]).toContain('per class of `y`, missing included)');
  });
});
