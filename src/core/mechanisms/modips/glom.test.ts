import { describe, expect, it } from 'vitest';
import { OverspendError } from '../../privacy/accountant';
import { parseBudget } from '../../privacy/budget';
import { sampleNormal } from '../../rng/continuous';
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
import { modips, runModips } from '.';

const glom = resolveParams(modips, { model: 'glom' });

/**
 * n rows of the general location model: g ∈ {a, b} with P(a) = 0.6; (x, y) ~ N((4, 4), Σ) in cell a and
 * N((6, 6), Σ) in cell b, Σ = [[1, 0.5], [0.5, 1]] (x = z₁, y = 0.5 z₁ + √0.75 z₂); bounds [0, 10], at
 * least 4 SD from every mean, so clamping is negligible.
 */
function glomTable(n: number, seed = 7): { table: Table; schema: Schema } {
  const rng = new SeededRng(seed);
  const g: string[] = [];
  const x: number[] = [];
  const y: number[] = [];
  for (let i = 0; i < n; i++) {
    const inA = rng.nextFloat() < 0.6;
    const centre = inA ? 4 : 6;
    const z1 = sampleNormal(rng, 0, 1);
    const z2 = sampleNormal(rng, 0, 1);
    g.push(inA ? 'a' : 'b');
    x.push(centre + z1);
    y.push(centre + 0.5 * z1 + Math.sqrt(0.75) * z2);
  }
  return {
    table: { nRows: n, columns: [categoricalColumn('g', g), numericColumn('x', x), numericColumn('y', y)] },
    schema: {
      version: 1,
      missing: [''],
      columns: [
        { name: 'g', type: 'categorical', categories: ['a', 'b'], source: 'declared' },
        { name: 'x', type: 'numeric', bounds: [0, 10], source: 'declared' },
        { name: 'y', type: 'numeric', bounds: [0, 10], source: 'declared' },
      ],
    },
  };
}

/** The share of cell a, the cell means of x and y, and the pooled within-cell covariance (divisor n − 2). */
function summarise(table: Table): { shareA: number; means: number[][]; covariance: number[] } {
  const [g, x, y] = table.columns as [CategoricalColumn, NumericColumn, NumericColumn];
  const a = g.dictionary.indexOf('a');
  const sums = [
    [0, 0, 0],
    [0, 0, 0],
  ];
  for (let i = 0; i < table.nRows; i++) {
    const cell = g.missing[i] === 0 && g.codes[i] === a ? 0 : 1;
    sums[cell]![0]! += 1;
    sums[cell]![1]! += x.values[i]!;
    sums[cell]![2]! += y.values[i]!;
  }
  const means = sums.map(([count, sx, sy]) => [sx! / count!, sy! / count!]);
  const scatter = [0, 0, 0];
  for (let i = 0; i < table.nRows; i++) {
    const cell = g.missing[i] === 0 && g.codes[i] === a ? 0 : 1;
    const dx = x.values[i]! - means[cell]![0]!;
    const dy = y.values[i]! - means[cell]![1]!;
    scatter[0] += dx * dx;
    scatter[1] += dx * dy;
    scatter[2] += dy * dy;
  }
  return {
    shareA: sums[0]![0]! / table.nRows,
    means,
    covariance: scatter.map((s) => s / (table.nRows - 2)),
  };
}

describe('modips glom claim and check', () => {
  it('ε/M per release: a missing share over the p missing counts, the rest in equal parts over 1 + p + p(p + 1)/2 statistics', async () => {
    const { table, schema } = glomTable(300);
    const accountant = new RecordingAccountant(parseBudget('1'), []);
    const ctx = runContext(schema, 300, { releases: 2 });
    const release = await runModips(table, schema, glom, ctx, accountant);
    // Per release 1/2: missing 1/20 in total, 1/40 per column; the rest 9/20 over 1 + 2 + 3 = 6 parts, 3/40 each.
    expect(accountant.reservedEpsilons.map((e) => e.toString())).toEqual(
      Array(2).fill(['3/40', '3/40', '3/40', '3/40', '3/40', '3/40', '1/40', '1/40']).flat(),
    );
    const claim = modips.claim(glom, ctx);
    expect(release.claim).toEqual(claim);
    expect(claim.epsilon).toBe(1);
    expect(claim.steps.map((step) => step.what)).toContain(
      'noisy counts of the 3-cell categorical cross-tabulation (sensitivity 2), release 2 of 2',
    );
    expect(claim.steps[3]).toEqual({
      what:
        'within-cell scatter entry (`x`, `x`) on a grid of 1/100 of its sensitivity (c₁ − c₀)², plus one grid ' +
        'step, release 1 of 2',
      epsilon: 0.075,
    });
    expect(claim.steps[4]!.what).toContain('(`x`, `y`)');
    expect(claim.steps[4]!.what).toContain('2·(c₁ − c₀)·(d₁ − d₀)');
    expect(claim.assumptions.join(' ')).toContain('2·(c₁ − c₀)·(d₁ − d₀) for an off-diagonal scatter entry');
  });

  it('refuses, in sentences, no numeric column, missing bounds, too few rows and too many cells', () => {
    const { schema } = glomTable(10);
    const categoricalOnly: Schema = { ...schema, columns: [schema.columns[0]!] };
    expect(modips.check(categoricalOnly, glom, runContext(categoricalOnly, 100))).toEqual([
      'model glom needs at least one numeric column; for categorical columns only choose model loglinear.',
    ]);
    const noBounds: Schema = {
      ...schema,
      columns: [schema.columns[0]!, { name: 'x', type: 'numeric', source: 'declared' }, schema.columns[2]!],
    };
    expect(modips.check(noBounds, glom, runContext(noBounds, 100))).toEqual([
      'needs bounds for numeric column `x`: declare them in the schema.',
    ]);
    expect(modips.check(schema, glom, runContext(schema, 6))).toEqual([
      'model glom needs at least K + p + 2 = 7 rows (K = 3 cells, p = 2 numeric columns) for the ' +
        'inverse-Wishart draw; the table has 6: synthesize fewer categorical columns or choose model loglinear.',
    ]);
    const many: Schema = {
      ...schema,
      columns: [
        ...['c1', 'c2', 'c3'].map((name) => ({
          name,
          type: 'categorical' as const,
          categories: Array.from({ length: 49 }, (_, i) => `v${i}`),
          source: 'declared' as const,
        })),
        schema.columns[1]!,
      ],
    };
    expect(modips.check(many, glom, runContext(many, 1000))).toEqual([
      'model glom: the categorical cross-tabulation has 125,000 cells (a missing-value level per column ' +
        'that can be missing included), more than 100,000: synthesize fewer categorical columns.',
    ]);
  });
});

describe('modips glom run', () => {
  it('reserves everything before the first draw; an overspend draws nothing', async () => {
    const { table, schema } = glomTable(60);
    const log: string[] = [];
    const ctx = runContext(schema, 60, { rng: recordingRng(new SeededRng(1), log) });
    await runModips(table, schema, glom, ctx, new RecordingAccountant(parseBudget('1'), log));
    expect(log.indexOf('draw')).toBeGreaterThan(log.lastIndexOf('reserve'));
    const refused: string[] = [];
    const refusedCtx = runContext(schema, 60, { rng: recordingRng(new SeededRng(1), refused) });
    await expect(
      runModips(table, schema, glom, refusedCtx, new RecordingAccountant(parseBudget('0.5'), refused)),
    ).rejects.toThrow(OverspendError);
    expect(refused).not.toContain('draw');
  });

  it('keeps the cell shares, cell means and pooled covariance within tolerances derived from their variances', async () => {
    const n = 20_000;
    const { table, schema } = glomTable(n);
    const real = summarise(table);
    const ctx = runContext(schema, n, { epsilon: '60', releases: 1, rng: new SeededRng(3) });
    const [dataset] = (await modips.run(table, schema, glom, ctx)).datasets;
    const synthetic = summarise(dataset!);
    // ε = 60 with M = 1: each statistic gets 60·0.9/6 = 9, count noise scale 2/9, sum noise ≈ 10·1.02/9
    // per cell (≈ 0.0001 on a mean of 8,000 rows): the spread is the posterior draw plus sampling.
    // Share of a: Dirichlet–multinomial, var ≈ 2·p(1 − p)/n, SD 0.0049; 0.025 is over 5 SD.
    expect(Math.abs(synthetic.shareA - real.shareA)).toBeLessThan(0.025);
    // A cell mean: μ* ~ N(x̄, Σ/n_k) then the mean of n_k draws, var ≈ 2σ²/n_k <= 2/8000, SD 0.016; 0.08 is 5 SD.
    for (let cell = 0; cell < 2; cell++)
      for (let j = 0; j < 2; j++)
        expect(Math.abs(synthetic.means[cell]![j]! - real.means[cell]![j]!)).toBeLessThan(0.08);
    // Covariance entries: Σ* ~ Inv-Wishart(n − 3, W*) has SD ≈ σ²·√(2/n) = 0.01 per entry, the synthetic
    // sample adds the same again: SD ≈ 0.014; 0.07 is 5 SD. A model without the covariance (0) is far off.
    for (let e = 0; e < 3; e++)
      expect(Math.abs(synthetic.covariance[e]! - real.covariance[e]!)).toBeLessThan(0.07);
    expect(real.covariance[1]!).toBeGreaterThan(0.45);
  });

  it('keeps bounds, whole numbers, declared categories and missing rates', async () => {
    const n = 4000;
    const { table, schema } = mixedTable(n);
    const ctx = runContext(schema, n, { epsilon: '40', releases: 2 });
    const result = await modips.run(table, schema, glom, ctx);
    expect(result.datasets).toHaveLength(2);
    for (const dataset of result.datasets) {
      const [age, income, sex] = dataset.columns as [NumericColumn, NumericColumn, CategoricalColumn];
      for (let i = 0; i < n; i++) {
        if (
          age.missing[i] === 0 &&
          !(Number.isInteger(age.values[i]) && age.values[i]! >= 17 && age.values[i]! <= 90)
        )
          throw new Error(`age ${age.values[i]} at row ${i}`);
        if (income.missing[i] === 0 && !(income.values[i]! >= 0 && income.values[i]! <= 1000))
          throw new Error(`income ${income.values[i]} at row ${i}`);
      }
      expect(sex.dictionary).toEqual(['F', 'M']);
      // ε/M = 20, missing counts get 2/2 = 1 each: noise SD √2 rows, far below 1 % of n = 40 rows.
      expect(Math.abs(missingRate(age) - 0.1)).toBeLessThan(0.01);
      expect(Math.abs(missingRate(income) - 0.25)).toBeLessThan(0.01);
      // Missing sex 5 %: the urn keeps the share up to Dirichlet–multinomial spread, SD √(2·0.05·0.95/n) = 0.005.
      expect(Math.abs(missingRate(sex) - 0.05)).toBeLessThan(0.025);
    }
  });

  it('stops with an AbortError when cancelled', async () => {
    const { table, schema } = glomTable(50);
    const ctx = runContext(schema, 50, { signal: { aborted: true } });
    await expect(modips.run(table, schema, glom, ctx)).rejects.toMatchObject({ name: 'AbortError' });
  });
});
