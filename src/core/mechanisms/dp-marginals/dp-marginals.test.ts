import { describe, expect, it } from 'vitest';
import { parseBudget } from '../../privacy/budget';
import { SeededRng } from '../../rng/seeded-rng';
import type { CategoricalColumn, NumericColumn, Table } from '../../table/types';
import { resolveParams } from '../params';
import {
  categoricalColumn,
  mixedTable,
  missingRate,
  numericColumn,
  RecordingAccountant,
  recordingRng,
  runContext,
} from '../common/testing/fixtures';
import { dpMarginals, runDpMarginals } from '.';

const fiveBins = resolveParams(dpMarginals, { bins: 5 });

describe('dp-marginals claim', () => {
  it('splits ε exactly over releases and columns', async () => {
    const { table, schema } = mixedTable(400);
    const log: string[] = [];
    const accountant = new RecordingAccountant(parseBudget('1'), log);
    const ctx = runContext(schema, 400, { releases: 2 });
    const release = await runDpMarginals(table, schema, fiveBins, ctx, accountant);
    expect(accountant.reservedEpsilons.map((e) => e.toString())).toEqual(Array(6).fill('1/6'));
    const claim = dpMarginals.claim(fiveBins, ctx);
    expect(release.claim).toEqual(claim);
    expect(claim.epsilon).toBe(1);
    // 1/6 = 0.1666…, rounded up to 6 significant digits.
    expect(claim.steps.slice(0, 3)).toEqual([
      { what: 'noisy 6-cell marginal of `age`, release 1 of 2', epsilon: 0.166667 },
      { what: 'noisy 6-cell marginal of `income`, release 1 of 2', epsilon: 0.166667 },
      { what: 'noisy 3-cell marginal of `sex`, release 1 of 2', epsilon: 0.166667 },
    ]);
    expect(claim.assumptions).toContain(
      'Columns are synthesized independently of each other: relationships between columns are not kept.',
    );
  });

  it('asks for categories in a sentence and has no cross-tabulation limit', () => {
    const { schema } = mixedTable(10);
    const noCategories = {
      ...schema,
      columns: [{ name: 'sex', type: 'categorical' as const, source: 'inferred' as const }],
    };
    expect(dpMarginals.check(noCategories, fiveBins)).toEqual([
      'needs categories for categorical column `sex`: declare them in the schema.',
    ]);
    const wide = {
      ...schema,
      columns: ['a', 'b', 'c'].map((name) => ({
        name,
        type: 'numeric' as const,
        bounds: [0, 1] as [number, number],
        source: 'declared' as const,
      })),
    };
    expect(dpMarginals.check(wide, resolveParams(dpMarginals, { bins: 1000 }))).toEqual([]);
  });
});

describe('dp-marginals run', () => {
  it('keeps each column in bounds and its missing rate within the noise and sampling tolerance', async () => {
    const n = 20_000;
    const { table, schema } = mixedTable(n);
    const release = await dpMarginals.run(table, schema, fiveBins, runContext(schema, n));
    const dataset = release.datasets[0]!;
    expect(dataset.nRows).toBe(n);
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
    // Each marginal gets ε/3 → t = 6, q = e^(−1/6): Var Z = 2q/(1 − q)² ≈ 71.4, E[Z⁺] = c·q/(1 − q)² ≈ 2.98.
    // Tolerance: clamping bias levels·E[Z⁺]/n plus 5 SD of (multinomial + noise on `levels` cells).
    const q = Math.exp(-1 / 6);
    const varianceOfNoise = (2 * q) / (1 - q) ** 2;
    const positivePartMean = (((1 - q) / (1 + q)) * q) / (1 - q) ** 2;
    for (const [index, rate, levels] of [
      [0, 0.1, 6],
      [1, 0.25, 6],
      [2, 0.05, 3],
    ] as const) {
      const sd = Math.sqrt((rate * (1 - rate)) / n + (levels * varianceOfNoise) / n ** 2);
      const tolerance = (levels * positivePartMean) / n + 5 * sd;
      expect(Math.abs(missingRate(dataset.columns[index]!) - rate)).toBeLessThan(tolerance);
    }
  });

  it('draws columns independently: a perfect association in the data disappears', async () => {
    // sex = F exactly when age < 50, half the rows each; no missing values.
    const n = 20_000;
    const ages = Array.from({ length: n }, (_, i) => (i % 2 === 0 ? 20 : 80));
    const table: Table = {
      nRows: n,
      columns: [
        numericColumn('age', ages),
        categoricalColumn(
          'sex',
          ages.map((a) => (a < 50 ? 'F' : 'M')),
        ),
      ],
    };
    const schema = {
      version: 1 as const,
      missing: [],
      columns: [
        {
          name: 'age',
          type: 'numeric' as const,
          bounds: [17, 90] as [number, number],
          integer: true,
          source: 'declared' as const,
        },
        { name: 'sex', type: 'categorical' as const, categories: ['F', 'M'], source: 'declared' as const },
      ],
    };
    const release = await dpMarginals.run(table, schema, fiveBins, runContext(schema, n, { epsilon: '10' }));
    const [age, sex] = release.datasets[0]!.columns as [NumericColumn, CategoricalColumn];
    let young = 0;
    let female = 0;
    let both = 0;
    for (let i = 0; i < n; i++) {
      const isYoung = age.missing[i] === 0 && age.values[i]! < 50;
      const isFemale = sex.missing[i] === 0 && sex.codes[i] === 0;
      young += Number(isYoung);
      female += Number(isFemale);
      both += Number(isYoung && isFemale);
    }
    // Under independence both/n estimates P(young)·P(female) ≈ 1/4 with SD ≈ sqrt(0.25·0.75/n) ≈ 0.0031;
    // the data's association would give 1/2. Tolerance 5 SD.
    const expected = (young / n) * (female / n);
    expect(Math.abs(both / n - expected)).toBeLessThan(5 * Math.sqrt((expected * (1 - expected)) / n));
  });

  it('reserves every marginal before drawing, and draws nothing when refused', async () => {
    const { table, schema } = mixedTable(300);
    const log: string[] = [];
    const ctx = runContext(schema, 300, { rng: recordingRng(new SeededRng(2), log) });
    await runDpMarginals(table, schema, fiveBins, ctx, new RecordingAccountant(parseBudget('1'), log));
    expect(log.slice(0, 4)).toEqual(['reserve', 'reserve', 'reserve', 'draw']);
    const refused: string[] = [];
    const refusingCtx = runContext(schema, 300, { rng: recordingRng(new SeededRng(2), refused) });
    await expect(
      runDpMarginals(
        table,
        schema,
        fiveBins,
        refusingCtx,
        new RecordingAccountant(parseBudget('0.5'), refused),
      ),
    ).rejects.toMatchObject({ name: 'OverspendError' });
    expect(refused.includes('draw')).toBe(false);
  });

  it('stops with an AbortError when cancelled', async () => {
    const { table, schema } = mixedTable(100);
    const ctx = runContext(schema, 100, { signal: { aborted: true } });
    await expect(dpMarginals.run(table, schema, fiveBins, ctx)).rejects.toMatchObject({ name: 'AbortError' });
  });
});

describe('dp-marginals on an empty schema', () => {
  it('reports the problem and claims nothing spent instead of throwing', () => {
    const empty = { version: 1 as const, missing: [], columns: [] };
    expect(dpMarginals.check(empty, fiveBins)).toEqual(['the schema has no columns to synthesize.']);
    expect(dpMarginals.claim(fiveBins, runContext(empty, 10))).toMatchObject({ epsilon: 0, steps: [] });
  });
});
