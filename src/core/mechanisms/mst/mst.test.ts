import { describe, expect, it } from 'vitest';
import { parseBudget } from '../../privacy/budget';
import type { MeterStep } from '../../privacy/meter';
import { zcdpToApproxDp } from '../../privacy/zcdp';
import { ZcdpAccountant } from '../../privacy/zcdp-accountant';
import { parseRational, Rational } from '../../rng/rational';
import { SeededRng } from '../../rng/seeded-rng';
import type { CategoricalColumn, NumericColumn, Schema } from '../../table/types';
import { missingRate, mixedTable, recordingRng, runContext } from '../common/testing/fixtures';
import { countCells } from '../../models/pgm/factor-index';
import { SCORE_GRID } from '../common/graphical-models/grid-score';
import { resolveParams } from '../params';
import { getMechanism } from '../registry';
import { planMstBudget } from './budget-plan';
import { histogramRho, selectionRho } from '../../privacy/zcdp-costs';
import { compressLevels, identityCompression } from './compress-levels';
import { mst } from '.';
import { restoreLevels, runMst } from './run-mst';
import { pairScores, pairScoresOfCounts, selectSpanningTree } from './select-tree';
import { recordingStep } from '../../privacy/metered/testing';

/** A real zCDP accountant that logs "reserve" and keeps each reservation's exact ρ; it can refuse one. */
class RecordingZcdpAccountant extends ZcdpAccountant {
  readonly reserved: Rational[] = [];
  constructor(
    rho: Rational,
    delta: Rational,
    private readonly log: string[],
    private readonly refuseAt = -1,
  ) {
    super(rho, delta);
  }
  override reserve(what: string, rho: Rational): MeterStep {
    this.log.push('reserve');
    if (this.reserved.length === this.refuseAt) throw new Error('refused');
    const step = super.reserve(what, rho);
    this.reserved.push(rho);
    return step;
  }
}

const EPSILON = '1';
const DELTA = '1e-9';
const params = resolveParams(mst, { bins: 6 });

function budgetAccountant(log: string[], refuseAt = -1): RecordingZcdpAccountant {
  const base = ZcdpAccountant.forBudget(parseBudget(EPSILON, DELTA));
  return new RecordingZcdpAccountant(base.rhoBudget, base.delta, log, refuseAt);
}

describe('MST budget', () => {
  it('splits ρ into thirds exactly: d/σ₁² = ρ/3, (d − 1)ε²/8 <= ρ/3, (d − 1)/σ₂² = ρ/3', () => {
    const rho = parseRational('0.0305566');
    const plan = planMstBudget(rho, 5);
    const third = rho.div(Rational.of(3));
    expect(plan.oneWaySigma2.equals(Rational.of(15).div(rho))).toBe(true);
    expect(plan.twoWaySigma2.equals(Rational.of(12).div(rho))).toBe(true);
    expect(histogramRho(plan.oneWaySigma2).mul(Rational.of(5)).equals(third)).toBe(true);
    expect(histogramRho(plan.twoWaySigma2).mul(Rational.of(4)).equals(third)).toBe(true);
    const selection = selectionRho(plan.selectionEpsilon).mul(Rational.of(4));
    expect(selection.compare(third)).toBeLessThanOrEqual(0);
    // ε is the largest 12-digit decimal at or below √(8ρ/(3·4)) = √(0.0203710666…) = 0.14272725…
    expect(plan.selectionEpsilon.toNumber()).toBeCloseTo(Math.sqrt((8 * 0.0305566) / 12), 11);
    const next = plan.selectionEpsilon.add(Rational.of(1, 10n ** 12n));
    expect(selectionRho(next).mul(Rational.of(4)).compare(third)).toBe(1);
  });

  it('claims before the run exactly what the run reserves, within the budget', async () => {
    const n = 600;
    const { table, schema } = mixedTable(n);
    const ctx = runContext(schema, n, { epsilon: EPSILON, delta: DELTA });
    const log: string[] = [];
    const accountant = budgetAccountant(log);
    const release = await runMst(table, schema, params, ctx, accountant);
    const claim = mst.claim(params, ctx);
    expect(release.claim).toEqual(claim);
    expect(claim.notion).toBe('approx-dp');
    expect(claim.bound).toBe('proven');
    expect(claim.neighbouring).toBe('replace-one');
    expect(claim.delta).toBe(1e-9);
    expect(claim.epsilon).toBeLessThanOrEqual(1);
    expect(claim.epsilon).toBeGreaterThan(0.99999);
    const rho = accountant.rhoBudget;
    expect(accountant.reserved[0]!.equals(rho.div(Rational.of(3)))).toBe(true);
    expect(accountant.reserved[2]!.equals(rho.div(Rational.of(3)))).toBe(true);
    expect(accountant.reserved[1]!.compare(rho.div(Rational.of(3)))).toBeLessThanOrEqual(0);
    expect(claim.rho).toBeGreaterThanOrEqual(accountant.spent().toNumber());
    expect(claim.epsilon).toBeGreaterThanOrEqual(zcdpToApproxDp(accountant.spent().toNumber(), 1e-9));
    expect(claim.steps.map((step) => step.what)).toEqual([
      'one-way histograms of the 3 columns, discrete Gaussian noise with σ = 24.51 on every cell',
      'choice of the 2 tree edges among the column pairs: 2 rounds of the exponential mechanism, ε = 0.141295 each, scoring each pair by the L1 error of the one-way model (sensitivity 2)',
      'two-way histograms of the 2 tree edges, discrete Gaussian noise with σ = 20.01 on every cell',
    ]);
  });

  it('reserves every step before the first random draw, and a refused reservation means no draw', async () => {
    const n = 200;
    const { table, schema } = mixedTable(n);
    const log: string[] = [];
    const ctx = runContext(schema, n, {
      epsilon: EPSILON,
      delta: DELTA,
      rng: recordingRng(new SeededRng(1), log),
    });
    await runMst(table, schema, params, ctx, budgetAccountant(log));
    expect(log.slice(0, 4)).toEqual(['reserve', 'reserve', 'reserve', 'draw']);
    expect(log.lastIndexOf('reserve')).toBe(2);
    for (const refuseAt of [0, 1, 2]) {
      const refusedLog: string[] = [];
      const refusedCtx = { ...ctx, rng: recordingRng(new SeededRng(1), refusedLog) };
      await expect(
        runMst(table, schema, params, refusedCtx, budgetAccountant(refusedLog, refuseAt)),
      ).rejects.toThrow('refused');
      expect(refusedLog).not.toContain('draw');
    }
  });
});

describe('MST check', () => {
  const { schema } = mixedTable(10);
  const ctx = runContext(schema, 1000, { epsilon: EPSILON, delta: DELTA });

  it('asks for δ > 0 and for two columns, in sentences', () => {
    expect(mst.check(schema, params, { ...ctx, delta: 0 })).toEqual([
      'mst adds Gaussian noise, whose guarantee is stated as (ε, δ): set δ > 0 (for example 1e-9, well below 1/n).',
    ]);
    expect(() => mst.claim(params, { ...ctx, delta: 0 })).toThrow(/set δ > 0/);
    const one: Schema = { ...schema, columns: [schema.columns[2]!] };
    expect(mst.check(one, params, ctx)).toEqual([
      'needs at least two columns: with one column, use dp-marginals.',
    ]);
    expect(mst.check(schema, params, ctx)).toEqual([]);
  });

  it('refuses no table for its size (under add/remove n is private): scores stay exact past 2^31 rows', () => {
    for (const n of [2 ** 31, 2 ** 31 + 1, 2 ** 40]) {
      expect(mst.check(schema, params, { ...ctx, n })).toEqual([]);
      expect(mst.check(schema, params, { ...ctx, n, neighbouring: 'add-remove' })).toEqual([]);
    }
    // Pair scores and the selection on counts a count source could give for 3·2^34 rows (no rows
    // allocated): cells near 2^34.6 put x·2^20 past 2^53, where the scores are summed in bigints;
    // each pair's counts differ from its one-way model by ±1000 per cell, 4000 counts in all.
    const rows = 3 * 2 ** 34;
    const sizes3 = [2, 2, 2];
    const oneWay3 = [
      Float64Array.of(rows / 2, rows / 2),
      Float64Array.of(rows / 4, (3 * rows) / 4),
      Float64Array.of(rows / 3, (2 * rows) / 3),
    ];
    const pair = (a: number, b: number) => {
      const m = new Float64Array(4);
      for (let i = 0; i < 2; i++)
        for (let j = 0; j < 2; j++)
          m[i * 2 + j] = Math.round((oneWay3[a]![i]! * oneWay3[b]![j]!) / rows) + (i === j ? 1000 : -1000);
      return m;
    };
    const { pairs, scores } = pairScoresOfCounts(pair, sizes3, oneWay3, rows);
    expect(Math.max(...pair(1, 2)) * SCORE_GRID).toBeGreaterThan(2 ** 53);
    expect(scores.map((score) => score / BigInt(SCORE_GRID))).toEqual([4000n, 4000n, 4000n]);
    const step = recordingStep();
    expect(selectSpanningTree(step, new SeededRng('big'), 3, pairs, scores, Rational.ONE)).toHaveLength(2);
    expect(step.charges).toHaveLength(2);
  });

  it('refuses a two-way marginal above 2·10⁷ cells', () => {
    const wide: Schema = {
      ...schema,
      columns: ['a', 'b'].map((name) => ({
        name,
        type: 'categorical' as const,
        categories: Array.from({ length: 5000 }, (_, i) => `${name}${i}`),
        source: 'declared' as const,
      })),
    };
    expect(mst.check(wide, params, ctx)).toEqual([
      'the largest two-way marginal on `a` × `b` has 25,010,001 cells, more than the limit of 20,000,000: choose fewer bins (a smaller `bins` or `columnBins`).',
    ]);
  });

  it('is registered, and describes its noise and model from public facts', () => {
    expect(getMechanism('mst')).toMatchObject({ id: mst.id, params: mst.params });
    // ρ = 0.0149731… for ε = 1, δ = 1e−9 (zcdpRhoForBudget); σ₁ = √(9/ρ) = 24.517, σ₂ = √(6/ρ) = 20.018
    // (shown rounded down), ε = √(8ρ/6) = 0.1412945 (rounded up); age and income have 6 bins + missing = 7 levels.
    expect(mst.describe!(params, ctx)).toEqual([
      'Noise: σ = 24.51 on each one-way histogram, σ = 20.01 on each of the 2 two-way histograms of the tree; each of the 2 edge choices is an exponential mechanism with ε = 0.141295.',
      'Model: 2 two-way cliques of at most 49 cells each (before merging rare levels); 3 column pairs are scored.',
    ]);
  });
});

describe('MST sensitivities, by brute force over replace-one neighbours', () => {
  // 5 rows over three columns of 2, 3 and 2 levels; every row replaced by every one of the 12 possible rows.
  const sizes = [2, 3, 2];
  const rows = [
    [0, 0, 0],
    [1, 2, 1],
    [0, 1, 1],
    [1, 1, 0],
    [0, 2, 0],
  ];
  const allRows: number[][] = [];
  for (let a = 0; a < 2; a++) for (let b = 0; b < 3; b++) for (let c = 0; c < 2; c++) allRows.push([a, b, c]);
  const levelsOf = (table: number[][]) => sizes.map((_, j) => Uint32Array.from(table.map((row) => row[j]!)));
  // An arbitrary one-way model (any DP output is a fixed input to the score).
  const oneWay = [
    Float64Array.from([2.2, 2.8]),
    Float64Array.from([1.3, 1.9, 1.8]),
    Float64Array.from([3.1, 1.9]),
  ];

  it('every histogram moves by exactly √2 in L2 (or not at all), and every pair score by at most 2 counts', () => {
    const base = levelsOf(rows);
    const baseScores = pairScores(base, sizes, oneWay, 5).scores;
    let largestScoreMove = 0;
    for (let i = 0; i < rows.length; i++) {
      for (const replacement of allRows) {
        const neighbour = levelsOf(rows.map((row, k) => (k === i ? replacement : row)));
        for (const attrs of [[0], [1], [2], [0, 1], [0, 2], [1, 2]]) {
          const x = countCells(base, attrs, sizes);
          const y = countCells(neighbour, attrs, sizes);
          const squared = x.reduce((s, v, c) => s + (v - y[c]!) ** 2, 0);
          expect([0, 2]).toContain(squared);
        }
        const scores = pairScores(neighbour, sizes, oneWay, 5).scores;
        scores.forEach(
          (s, k) => (largestScoreMove = Math.max(largestScoreMove, Math.abs(Number(s - baseScores[k]!)))),
        );
      }
    }
    expect(largestScoreMove).toBeLessThanOrEqual(2 * SCORE_GRID);
    expect(largestScoreMove).toBe(2 * SCORE_GRID); // reached: a sensitivity of 1 would be wrong
  });
});

describe('level compression', () => {
  it('keeps a level exactly when y >= 0 and y² >= 9σ²', () => {
    // σ² = 1: the threshold is 3; σ² = 10/9: y² >= 10, so 3 is merged and 4 kept; negatives never kept.
    const unit = compressLevels(Float64Array.from([3, 2, -3, 10, 0]), Rational.ONE);
    expect(unit.members).toEqual([[0], [3], [1, 2, 4]]);
    expect(Array.from(unit.y)).toEqual([3, 10, -1]);
    expect(Array.from(unit.weight)).toEqual([1, 1, 1 / 3]);
    expect(Array.from(unit.compressed)).toEqual([0, 2, 2, 1, 2]);
    const tenNinths = compressLevels(Float64Array.from([3, 4, -4]), Rational.of(10, 9));
    expect(tenNinths.members).toEqual([[1], [0, 2]]);
    expect(compressLevels(Float64Array.from([5, 6]), Rational.ONE).members).toEqual([[0], [1]]);
    expect(identityCompression(Float64Array.from([0, -1]), Rational.ONE).members).toEqual([[0], [1]]);
  });

  it('sends rows of a merged level uniformly back to its members', () => {
    const compression = compressLevels(Float64Array.from([50, 0, 1, 2, 0]), Rational.ONE);
    const merged = new Uint32Array(40_000).fill(1);
    const restored = restoreLevels(new SeededRng('restore'), merged, compression);
    const counts = [0, 0, 0, 0, 0];
    for (const l of restored) counts[l]!++;
    expect(counts[0]).toBe(0);
    // Each member ~ Binomial(40,000, 1/4): sd ≈ 87; 6 sd = 520.
    for (const l of [1, 2, 3, 4]) expect(Math.abs(counts[l]! - 10_000)).toBeLessThan(520);
  });
});

describe('MST run', () => {
  it('returns M tables of n rows with the schema’s columns, values in bounds and missing rates kept', async () => {
    const n = 20_000;
    const { table, schema } = mixedTable(n);
    const ctx = runContext(schema, n, { epsilon: EPSILON, delta: DELTA, releases: 2 });
    const release = await mst.run(table, schema, params, ctx);
    expect(release.datasets).toHaveLength(2);
    for (const dataset of release.datasets) {
      expect(dataset.nRows).toBe(n);
      expect(dataset.columns.map((c) => c.name)).toEqual(['age', 'income', 'sex']);
      const [age, income, sex] = dataset.columns as [NumericColumn, NumericColumn, CategoricalColumn];
      for (let i = 0; i < n; i++) {
        if (
          age.missing[i] === 0 &&
          !(Number.isInteger(age.values[i]) && age.values[i]! >= 17 && age.values[i]! <= 90)
        ) {
          throw new Error(`age ${age.values[i]} at row ${i}`);
        }
        if (income.missing[i] === 0 && !(income.values[i]! >= 0 && income.values[i]! <= 1000)) {
          throw new Error(`income ${income.values[i]} at row ${i}`);
        }
      }
      expect(sex.dictionary).toEqual(['F', 'M']);
      // Missing rates 10 %, 25 %, 5 %. The fitted missing count is off by at most a few σ₁ = 24.5 of
      // the one-way noise (plus the two-way measurements pulling it); sampling by rounding adds < 1
      // row per group. 4σ₁ = 98 rows = 0.5 % of n.
      expect(Math.abs(missingRate(age) - 0.1)).toBeLessThan(0.005);
      expect(Math.abs(missingRate(income) - 0.25)).toBeLessThan(0.005);
      expect(Math.abs(missingRate(sex) - 0.05)).toBeLessThan(0.005);
    }
    expect(release.diagnostics).toMatchObject({ modelCells: expect.any(Number), tree: expect.any(Array) });
    expect((release.diagnostics.tree as unknown[]).length).toBe(2);
  });

  it('keeps a strong relationship the one-way model misses', async () => {
    // sex is F exactly when the row index is even, and income is then below 500: a dependence MST must find.
    const n = 4000;
    const { schema } = mixedTable(n);
    const table = mixedTable(n).table;
    const income = table.columns[1] as NumericColumn;
    const sex = table.columns[2] as CategoricalColumn;
    for (let i = 0; i < n; i++) {
      income.missing[i] = 0;
      sex.missing[i] = 0;
      income.values[i] = (sex.dictionary[sex.codes[i]!] === 'F' ? 0 : 500) + ((i * 37) % 500);
    }
    const release = await mst.run(
      table,
      schema,
      params,
      runContext(schema, n, { epsilon: '4', delta: DELTA }),
    );
    expect(release.diagnostics.tree).toContainEqual(['income', 'sex']);
    const out = release.datasets[0]!;
    const outIncome = out.columns[1] as NumericColumn;
    const outSex = out.columns[2] as CategoricalColumn;
    let agree = 0;
    let present = 0;
    for (let i = 0; i < n; i++) {
      if (outIncome.missing[i] || outSex.missing[i]) continue;
      present++;
      if (outIncome.values[i]! < 500 === (outSex.dictionary[outSex.codes[i]!] === 'F')) agree++;
    }
    // Independent columns would agree about half the time; the fitted edge keeps nearly all.
    expect(agree / present).toBeGreaterThan(0.9);
  });

  it('is reproducible with a seed and differs across seeds', async () => {
    const n = 500;
    const { table, schema } = mixedTable(n);
    const run = (seed: number) =>
      mst.run(
        table,
        schema,
        params,
        runContext(schema, n, { epsilon: EPSILON, delta: DELTA, rng: new SeededRng(seed) }),
      );
    const [a, b, c] = await Promise.all([run(7), run(7), run(8)]);
    const values = (r: typeof a) => Array.from((r.datasets[0]!.columns[1] as NumericColumn).values);
    expect(values(a)).toEqual(values(b));
    expect(values(a)).not.toEqual(values(c));
  });

  it('stops with an AbortError when cancelled', async () => {
    const n = 300;
    const { table, schema } = mixedTable(n);
    const ctx = runContext(schema, n, { epsilon: EPSILON, delta: DELTA, signal: { aborted: true } });
    await expect(mst.run(table, schema, params, ctx)).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('refuses δ = 0 with the check sentence', async () => {
    const { table, schema } = mixedTable(50);
    await expect(mst.run(table, schema, params, runContext(schema, 50, { delta: 0 }))).rejects.toThrow(
      /set δ > 0/,
    );
  });
});
