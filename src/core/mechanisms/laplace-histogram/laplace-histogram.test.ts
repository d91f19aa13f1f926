import { describe, expect, it } from 'vitest';
import { parseBudget } from '../../privacy/budget';
import { Rational } from '../../rng/rational';
import { SeededRng } from '../../rng/seeded-rng';
import type { NumericColumn, Schema } from '../../table/types';
import { resolveParams } from '../params';
import {
  mixedTable,
  missingRate,
  RecordingAccountant,
  recordingRng,
  runContext,
} from '../common/testing/fixtures';
import { laplaceHistogram, runLaplaceHistogram } from '.';

const defaults = resolveParams(laplaceHistogram, {});
const fiveBins = resolveParams(laplaceHistogram, { bins: '5' });

describe('laplace-histogram claim', () => {
  it('splits ε exactly over the releases and rounds each step up', async () => {
    const { table, schema } = mixedTable(1000);
    const log: string[] = [];
    const accountant = new RecordingAccountant(parseBudget('1'), log);
    const ctx = runContext(schema, 1000, { releases: 3 });
    const release = await runLaplaceHistogram(table, schema, defaults, ctx, accountant);
    expect(accountant.reservedEpsilons.map((e) => e.toString())).toEqual(['1/3', '1/3', '1/3']);
    expect(accountant.spent().epsilon.equals(Rational.ONE)).toBe(true);
    const claim = laplaceHistogram.claim(defaults, ctx);
    expect(claim).toEqual(release.claim);
    expect(claim).toMatchObject({
      notion: 'pure-dp',
      epsilon: 1,
      delta: 0,
      neighbouring: 'replace-one',
      bound: 'proven',
    });
    // Domain at n = 1000: one level per integer for age (74 in [17, 90]) + missing, Scott's 18 bins
    // + missing for income, F/M + missing for sex: 75 · 19 · 3 = 4,275 cells.
    expect(claim.steps).toEqual([
      { what: 'noisy counts of the 4,275-cell cross-tabulation, release 1 of 3', epsilon: 0.333334 },
      { what: 'noisy counts of the 4,275-cell cross-tabulation, release 2 of 3', epsilon: 0.333334 },
      { what: 'noisy counts of the 4,275-cell cross-tabulation, release 3 of 3', epsilon: 0.333334 },
    ]);
    expect(claim.assumptions).toContain(
      'A seed was set: the random numbers are reproducible, so this output is for demonstration, not for release.',
    );
    expect(claim.assumptions.join(' ')).toMatch(/Numeric values outside the bounds were clamped/);
  });

  it('uses the default bin rule computed by hand: ceil(6·1000^(1/3)/3.49) = 18 bins, one level per integer for age', async () => {
    const { table, schema } = mixedTable(1000);
    const release = await laplaceHistogram.run(table, schema, defaults, runContext(schema, 1000));
    expect(release.diagnostics.levelsPerColumn).toEqual({ age: 75, income: 19, sex: 3 });
    expect(release.diagnostics.domainCells).toBe(4275);
  });

  it('gives a column named in columnBins its own bin count, and the rest the rule', async () => {
    const { table, schema } = mixedTable(1000);
    const params = resolveParams(laplaceHistogram, { columnBins: 'income=4' });
    const release = await laplaceHistogram.run(table, schema, params, runContext(schema, 1000));
    expect(release.diagnostics.levelsPerColumn).toEqual({ age: 75, income: 5, sex: 3 });
    expect(laplaceHistogram.check(schema, resolveParams(laplaceHistogram, { columnBins: 'sex=3' }))).toEqual([
      'columnBins names `sex`, which is not numeric.',
    ]);
  });
});

describe('laplace-histogram check', () => {
  it('asks for bounds in a sentence', () => {
    const schema: Schema = {
      version: 1,
      missing: [],
      columns: [{ name: 'age', type: 'numeric', source: 'inferred' }],
    };
    expect(laplaceHistogram.check(schema, defaults)).toEqual([
      'needs bounds for numeric column `age`: declare them in the schema.',
    ]);
  });

  it('refuses a domain above 2·10^7 cells, suggesting fewer bins or columns, and run refuses too', async () => {
    const { table, schema } = mixedTable(10);
    const wide: Schema = {
      ...schema,
      columns: [
        ...schema.columns,
        { name: 'income2', type: 'numeric', bounds: [0, 1], source: 'declared' },
        { name: 'income3', type: 'numeric', bounds: [0, 1], source: 'declared' },
      ],
    };
    const params = resolveParams(laplaceHistogram, { bins: 1000 });
    const [problem] = laplaceHistogram.check(wide, params, runContext(wide, 10));
    // 75 (74 ages + missing) · 1001 · 3 · 1001 · 1001 = 225 · 1001³ = 225,675,675,225.
    expect(problem).toMatch(/^the cross-tabulation has 225,675,675,225 cells .* choose fewer bins/);
    await expect(laplaceHistogram.run(table, wide, params, runContext(wide, 10))).rejects.toMatchObject({
      name: 'InputError',
    });
  });
});

describe('laplace-histogram run', () => {
  it('returns M tables of n rows with the schema columns, in bounds, integers whole', async () => {
    const n = 2000;
    const { table, schema } = mixedTable(n);
    const release = await laplaceHistogram.run(
      table,
      schema,
      fiveBins,
      runContext(schema, n, { releases: 2 }),
    );
    expect(release.datasets).toHaveLength(2);
    for (const dataset of release.datasets) {
      expect(dataset.nRows).toBe(n);
      expect(dataset.columns.map((c) => [c.name, c.kind])).toEqual([
        ['age', 'numeric'],
        ['income', 'numeric'],
        ['sex', 'categorical'],
      ]);
      const [age, income] = dataset.columns as NumericColumn[];
      for (let i = 0; i < n; i++) {
        if (
          age!.missing[i] === 0 &&
          !(Number.isInteger(age!.values[i]) && age!.values[i]! >= 17 && age!.values[i]! <= 90)
        ) {
          throw new Error(`age ${age!.values[i]} at row ${i} is not a whole number in [17, 90]`);
        }
        if (income!.missing[i] === 0 && !(income!.values[i]! >= 0 && income!.values[i]! <= 1000)) {
          throw new Error(`income ${income!.values[i]} at row ${i} is outside [0, 1000]`);
        }
      }
    }
  });

  it('keeps missing rates within a tolerance derived from the noise and sampling variance', async () => {
    const n = 20_000;
    const { table, schema } = mixedTable(n);
    const release = await laplaceHistogram.run(table, schema, fiveBins, runContext(schema, n));
    // K = 6·6·3 = 108 cells, discrete Laplace with t = 2/ε = 2, q = e^(−1/2):
    // Var Z = 2q/(1 − q)² ≈ 7.83 and E[max(Z, 0)] = c·q/(1 − q)² ≈ 0.96 with c = (1 − q)/(1 + q).
    // Tolerance: clamping bias K·E[Z⁺]/n plus 5 SD of (multinomial + noise on up to K cells).
    const q = Math.exp(-0.5);
    const cells = 108;
    const varianceOfNoise = (2 * q) / (1 - q) ** 2;
    const positivePartMean = (((1 - q) / (1 + q)) * q) / (1 - q) ** 2;
    const dataset = release.datasets[0]!;
    for (const [index, rate] of [
      [0, 0.1],
      [1, 0.25],
      [2, 0.05],
    ] as const) {
      const sd = Math.sqrt((rate * (1 - rate)) / n + (cells * varianceOfNoise) / n ** 2);
      const tolerance = (cells * positivePartMean) / n + 5 * sd;
      expect(Math.abs(missingRate(dataset.columns[index]!) - rate)).toBeLessThan(tolerance);
    }
  });

  it('reserves the whole budget before drawing any random number', async () => {
    const { table, schema } = mixedTable(500);
    const log: string[] = [];
    const ctx = runContext(schema, 500, { releases: 3, rng: recordingRng(new SeededRng(1), log) });
    await runLaplaceHistogram(table, schema, fiveBins, ctx, new RecordingAccountant(parseBudget('1'), log));
    expect(log.slice(0, 4)).toEqual(['reserve', 'reserve', 'reserve', 'draw']);
    expect(log.lastIndexOf('reserve')).toBe(2);
  });

  it('draws no noise when the accountant refuses the spend', async () => {
    const { table, schema } = mixedTable(500);
    const log: string[] = [];
    const ctx = runContext(schema, 500, { rng: recordingRng(new SeededRng(1), log) });
    const tooSmall = new RecordingAccountant(parseBudget('0.5'), log);
    await expect(runLaplaceHistogram(table, schema, fiveBins, ctx, tooSmall)).rejects.toMatchObject({
      name: 'OverspendError',
    });
    expect(log).toEqual(['reserve']);
  });

  it('stops with an AbortError when cancelled before or during the cell loop', async () => {
    const { table, schema } = mixedTable(100);
    const cancelled = runContext(schema, 100, { signal: { aborted: true } });
    await expect(laplaceHistogram.run(table, schema, fiveBins, cancelled)).rejects.toMatchObject({
      name: 'AbortError',
    });

    // 75 · 1001 · 3 = 225,225 cells: the loop checks the signal every 65,536 cells.
    const signal = { aborted: false };
    const fractions: number[] = [];
    const ctx = runContext(schema, 100, {
      signal,
      progress: (fraction) => {
        fractions.push(fraction);
        signal.aborted = true;
      },
    });
    const manyBins = resolveParams(laplaceHistogram, { bins: 1000 });
    await expect(laplaceHistogram.run(table, schema, manyBins, ctx)).rejects.toMatchObject({
      name: 'AbortError',
    });
    expect(Math.max(...fractions)).toBeLessThan(0.5);
  });

  it('reports progress up to 1', async () => {
    const { table, schema } = mixedTable(100);
    const fractions: number[] = [];
    await laplaceHistogram.run(
      table,
      schema,
      fiveBins,
      runContext(schema, 100, { progress: (f) => fractions.push(f) }),
    );
    expect(fractions.at(-1)).toBe(1);
    expect(fractions.every((f, i) => i === 0 || f >= fractions[i - 1]!)).toBe(true);
  });
});
