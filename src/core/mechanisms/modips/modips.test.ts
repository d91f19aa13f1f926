import { describe, expect, it } from 'vitest';
import { OverspendError } from '../../privacy/accountant';
import { parseBudget } from '../../privacy/budget';
import { SeededRng } from '../../rng/seeded-rng';
import type { CategoricalColumn, NumericColumn, Schema, Table } from '../../table/types';
import {
  mixedTable,
  missingRate,
  numericColumn,
  RecordingAccountant,
  recordingRng,
  runContext,
} from '../common/testing/fixtures';
import { resolveParams } from '../params';
import { modips, runModips } from '.';

const normal = resolveParams(modips, { model: 'normal' });
const loglinear = resolveParams(modips, { model: 'loglinear', bins: 5 });

/** The numeric columns of mixedTable: age (integer, 10 % missing) and income (25 % missing). */
function numericOnly(n: number): { table: Table; schema: Schema } {
  const { table, schema } = mixedTable(n);
  return {
    table: { nRows: n, columns: table.columns.slice(0, 2) },
    schema: { ...schema, columns: schema.columns.slice(0, 2) },
  };
}

describe('modips claim', () => {
  it('normal: ε/(M·p) per column, a share for the missing count, the rest halved between x̄ and S²', async () => {
    const { table, schema } = numericOnly(200);
    const accountant = new RecordingAccountant(parseBudget('1'), []);
    const ctx = runContext(schema, 200, { releases: 2 });
    const release = await runModips(table, schema, normal, ctx, accountant);
    // Per column and release 1/4: missing 1/40, mean and variance (1/4 − 1/40)/2 = 9/80 each.
    expect(accountant.reservedEpsilons.map((e) => e.toString())).toEqual(
      Array(4).fill(['1/40', '9/80', '9/80']).flat(),
    );
    const claim = modips.claim(normal, ctx);
    expect(release.claim).toEqual(claim);
    expect(claim.epsilon).toBe(1);
    expect(claim.steps[1]).toEqual({
      what: 'mean x̄ on a grid of (c₁ − c₀)/(100·n), sensitivity (c₁ − c₀)/n plus one grid step, column `age`, release 1 of 2',
      epsilon: 0.1125,
    });
  });

  it('loglinear: ε/M per release on the cross-tabulation', () => {
    const { schema } = mixedTable(10);
    const claim = modips.claim(loglinear, runContext(schema, 300, { releases: 5 }));
    expect(claim.steps).toHaveLength(5);
    expect(claim.steps[4]).toEqual({
      what: 'noisy counts of the 108-cell cross-tabulation (sensitivity 2), release 5 of 5',
      epsilon: 0.2,
    });
  });

  it('normal refuses categorical columns and missing bounds in sentences', () => {
    const { schema } = mixedTable(10);
    const noBounds: Schema = {
      ...schema,
      columns: [{ name: 'w', type: 'numeric', source: 'declared' }, schema.columns[2]!],
    };
    expect(modips.check(noBounds, normal, runContext(noBounds, 1))).toEqual([
      'needs bounds for numeric column `w`: declare them in the schema.',
      'model normal synthesizes numeric columns only; `sex` is categorical: choose model loglinear, or leave the column out.',
      'model normal needs at least 2 rows; the table has 1.',
    ]);
  });
});

describe('modips run', () => {
  it('normal: reserves everything before the first draw; an overspend draws nothing', async () => {
    const { table, schema } = numericOnly(60);
    const log: string[] = [];
    const ctx = runContext(schema, 60, { rng: recordingRng(new SeededRng(1), log) });
    await runModips(table, schema, normal, ctx, new RecordingAccountant(parseBudget('1'), log));
    expect(log.indexOf('draw')).toBeGreaterThan(log.lastIndexOf('reserve'));
    const refused: string[] = [];
    const refusedCtx = runContext(schema, 60, { rng: recordingRng(new SeededRng(1), refused) });
    await expect(
      runModips(table, schema, normal, refusedCtx, new RecordingAccountant(parseBudget('0.5'), refused)),
    ).rejects.toThrow(OverspendError);
    expect(refused).not.toContain('draw');
  });

  it('normal: keeps bounds, whole numbers, missing rates and the mean within the stated tolerance', async () => {
    const n = 20_000;
    const { table, schema } = numericOnly(n);
    const ctx = runContext(schema, n, { epsilon: '20', releases: 1, rng: new SeededRng(2) });
    const [dataset] = (await modips.run(table, schema, normal, ctx)).datasets;
    const [age, income] = dataset!.columns as [NumericColumn, NumericColumn];
    for (let i = 0; i < n; i++) {
      if (
        age.missing[i] === 0 &&
        !(Number.isInteger(age.values[i]) && age.values[i]! >= 17 && age.values[i]! <= 90)
      )
        throw new Error(`age ${age.values[i]} at row ${i}`);
      if (income.missing[i] === 0 && !(income.values[i]! >= 0 && income.values[i]! <= 1000))
        throw new Error(`income ${income.values[i]} at row ${i}`);
    }
    // ε = 20 over 2 columns: the missing count gets ε = 1, noise scale 1, SD √2 rows: the synthetic
    // missing count is exact up to that noise, far below 0.5 % of n = 100 rows.
    expect(Math.abs(missingRate(age) - 0.1)).toBeLessThan(0.005);
    expect(Math.abs(missingRate(income) - 0.25)).toBeLessThan(0.005);
    // Observed incomes are (37 i mod 1000) + 0.5 over i ≢ 1 (mod 4): mean 500 within sampling and noise:
    // SD of the synthetic mean ≈ 289/√15000 = 2.4 plus posterior and noise spread; 15 is over 5 SD.
    let sum = 0;
    let count = 0;
    for (let i = 0; i < n; i++) {
      if (income.missing[i] === 1) continue;
      sum += income.values[i]!;
      count++;
    }
    expect(Math.abs(sum / count - 500)).toBeLessThan(15);
  });

  it('loglinear: M tables of n rows in bounds with the declared categories', async () => {
    const { table, schema } = mixedTable(500);
    const result = await modips.run(table, schema, loglinear, runContext(schema, 500, { releases: 3 }));
    expect(result.datasets).toHaveLength(3);
    for (const dataset of result.datasets) {
      expect(dataset.nRows).toBe(500);
      const income = dataset.columns[1] as NumericColumn;
      for (let i = 0; i < 500; i++) if (income.missing[i] === 0) expect(income.values[i]! <= 1000).toBe(true);
      expect((dataset.columns[2] as CategoricalColumn).dictionary).toEqual(['F', 'M']);
    }
  });

  it('loglinear: keeps a strong association at a large ε', async () => {
    const n = 4000;
    const xs = Array.from({ length: n }, (_, i) => (i % 2 === 0 ? 1 : 9));
    const table: Table = { nRows: n, columns: [numericColumn('x', xs), numericColumn('y', xs)] };
    const schema: Schema = {
      version: 1,
      missing: [],
      columns: ['x', 'y'].map((name) => ({
        name,
        type: 'numeric' as const,
        bounds: [0, 10] as [number, number],
        integer: true,
        source: 'declared' as const,
      })),
    };
    const ctx = runContext(schema, n, { epsilon: '10' });
    const [dataset] = (await modips.run(table, schema, resolveParams(modips, { bins: 2 }), ctx)).datasets;
    const [x, y] = dataset!.columns as [NumericColumn, NumericColumn];
    let agree = 0;
    for (let i = 0; i < n; i++)
      if (x.missing[i] === 0 && y.missing[i] === 0 && x.values[i]! < 5.5 === y.values[i]! < 5.5) agree++;
    // 9 cells with α = 0.5 and noise of scale 0.2: off-diagonal cells hold a few rows at most.
    expect(agree / n).toBeGreaterThan(0.99);
  });

  it('stops with an AbortError when cancelled', async () => {
    const { table, schema } = numericOnly(50);
    const ctx = runContext(schema, 50, { signal: { aborted: true } });
    await expect(modips.run(table, schema, normal, ctx)).rejects.toMatchObject({ name: 'AbortError' });
  });
});
