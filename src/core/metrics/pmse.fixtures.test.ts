import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readFixtureTablePair } from '../../../tests/reference/pmse/read-fixture-tables';
import { SeededRng } from '../rng/seeded-rng';
import type { NumericColumn } from '../table/types';
import { buildDesignMatrix, poolPredictors } from '../models/design-matrix';
import { fitLogisticRegression } from '../models/logistic/fit-logistic-regression';
import { computePmse, makeCartPmseEvaluator } from './pmse';
import { expectRelativelyClose } from '../testing/expect-close';

// Fixtures: tests/reference/pmse/make_fixtures.sh (R 4.2 rpart 4.1.19 / glm via pmse_fixture.R);
// each JSON carries the exact command that produced it.
const FIXTURE_DIR = join(__dirname, '../../../tests/fixtures/pmse');

interface Fixture {
  name: string;
  command: string;
  model: 'cart' | 'logit';
  n_real: number;
  pMSE: number;
  columns: string[];
  scores: number[];
  cp?: number;
  minbucket?: number;
  minsplit?: number;
  maxdepth?: number;
  n_leaves?: number;
  maxorder?: 0 | 1;
  k?: number;
  S_pMSE?: number;
  deviance?: number;
  coefficients?: (number | null)[];
  coefficient_names?: string[];
  null_pMSE?: number[];
  null_pMSE_mean?: number;
}

const fixtures: Fixture[] = readdirSync(FIXTURE_DIR)
  .filter((file) => file.endsWith('.json'))
  .sort()
  .map((file) => JSON.parse(readFileSync(join(FIXTURE_DIR, file), 'utf8')) as Fixture);

function tablesOf(fixture: Fixture) {
  const dataset = fixture.name.split('-')[1]!;
  return readFixtureTablePair(
    join(FIXTURE_DIR, 'data', `${dataset}_real.csv`),
    join(FIXTURE_DIR, 'data', `${dataset}_synth.csv`),
  );
}

function cartOptionsOf(fixture: Fixture) {
  return {
    cp: fixture.cp!,
    minBucket: fixture.minbucket!,
    minSplit: fixture.minsplit!,
    maxDepth: fixture.maxdepth!,
  };
}

const cartFixtures = fixtures.filter((fixture) => fixture.model === 'cart');
const logitFixtures = fixtures.filter((fixture) => fixture.model === 'logit');

describe('CART pMSE equals rpart on every fixture', () => {
  it('has the fixtures', () => expect(cartFixtures.length).toBeGreaterThanOrEqual(38));

  it.each(cartFixtures.map((fixture) => [fixture.name, fixture] as const))('%s', (_name, fixture) => {
    const { real, synth } = tablesOf(fixture);
    const result = computePmse(
      real,
      synth,
      { model: 'cart', cart: cartOptionsOf(fixture), permutations: 0, keepPropensities: true },
      new SeededRng(1),
    );
    // Propensities are computed in rpart's floating-point steps and must be bit-identical; the
    // pMSE sums differ by summation method only (R accumulates in long double, we use compensated
    // summation): 1e-12 relative leaves ~10^4 ulp of slack (observed: equal on every fixture).
    expectRelativelyClose(result.value, fixture.pMSE, 1e-12, `${fixture.name} pMSE`);
    expect(result.leaves, `${fixture.name} leaves`).toBe(fixture.n_leaves);
    const scores = [...result.propensities!.real, ...result.propensities!.synth];
    const differing = scores.filter((score, i) => score !== fixture.scores[i]).length;
    expect(differing, `${fixture.name} propensities differing from rpart's`).toBe(0);
  });
});

describe('fast CART pMSE evaluator equals rpart on the all-numeric fixtures without missing values', () => {
  const numericOnly = cartFixtures.filter((fixture) => fixture.name.startsWith('cart-continuous-'));

  it.each(numericOnly.map((fixture) => [fixture.name, fixture] as const))('%s', (_name, fixture) => {
    const { real, synth } = tablesOf(fixture);
    const numericColumns = (table: typeof real) =>
      table.columns.map((column) => (column as NumericColumn).values);
    expect(real.columns.every((column) => column.kind === 'numeric')).toBe(true);
    const evaluator = makeCartPmseEvaluator(numericColumns(real), synth.nRows, cartOptionsOf(fixture));
    // Twice: the second call reuses every buffer and must give the same number.
    for (let repeat = 0; repeat < 2; repeat++) {
      expectRelativelyClose(evaluator.evaluate(numericColumns(synth)), fixture.pMSE, 1e-12, fixture.name);
      expect(evaluator.lastLeafCount()).toBe(fixture.n_leaves);
    }
  });
});

describe('logit pMSE equals glm on every fixture without separation', () => {
  it('has the fixtures', () => expect(logitFixtures.length).toBeGreaterThanOrEqual(10));

  it.each(logitFixtures.map((fixture) => [fixture.name, fixture] as const))('%s', (_name, fixture) => {
    const { real, synth } = tablesOf(fixture);
    const result = computePmse(
      real,
      synth,
      // The fixtures ran glm with epsilon 1e-14, maxit 100 so that both sides sit at the MLE.
      { model: 'logit', maxOrder: fixture.maxorder!, logit: { epsilon: 1e-14, maxIter: 100 } },
      new SeededRng(1),
    );
    expect(result.k, `${fixture.name} rank`).toBe(fixture.k);
    expect(result.nExtreme).toBe(0);
    expectRelativelyClose(result.value, fixture.pMSE, 1e-6, `${fixture.name} pMSE`);
    expectRelativelyClose(result.ratio!, fixture.S_pMSE!, 1e-6, `${fixture.name} S_pMSE`);
  });

  it.each(logitFixtures.map((fixture) => [fixture.name, fixture] as const))(
    '%s: design column names, aliased columns and coefficients as glm',
    (_name, fixture) => {
      const { real, synth } = tablesOf(fixture);
      const pooled = poolPredictors([real, synth]);
      const design = buildDesignMatrix(pooled, { maxOrder: fixture.maxorder! });
      const labels = new Uint8Array(design.nRows).fill(1, real.nRows);
      const fit = fitLogisticRegression(design.X, design.nRows, design.nColumns, labels, {
        epsilon: 1e-14,
        maxIter: 100,
      });
      // pmse_fixture.R names the model columns v001, v002, … (position in "columns").
      const rNames = fixture.coefficient_names!.map((name) =>
        name.replace(/v(\d{3})/g, (_match, digits: string) => fixture.columns[Number(digits) - 1]!),
      );
      expect(design.columnNames).toEqual(rNames);
      fixture.coefficients!.forEach((expected, j) => {
        if (expected === null) {
          expect(fit.aliased[j], `${design.columnNames[j]} aliased`).toBe(true);
          return;
        }
        // Both fits stop at |Δdev|/(|dev| + 0.1) < 1e-14: coefficients agree to well below 1e-6.
        expect(Math.abs(fit.coefficients[j]! - expected), design.columnNames[j]).toBeLessThan(
          1e-6 * Math.max(1, Math.abs(expected)),
        );
      });
    },
  );
});

describe('CART permutation null agrees with rpart statistically', () => {
  const permFixtures = cartFixtures.filter((fixture) => fixture.null_pMSE !== undefined);

  it.each(permFixtures.map((fixture) => [fixture.name, fixture] as const))('%s', (_name, fixture) => {
    const { real, synth } = tablesOf(fixture);
    const permutations = fixture.null_pMSE!.length;
    const result = computePmse(
      real,
      synth,
      { model: 'cart', cart: cartOptionsOf(fixture), permutations },
      new SeededRng(20240611),
    );
    // Both null means average `permutations` independent permuted-label pMSEs (different RNGs), so
    // their difference has sd ≈ s·sqrt(2/P) with s the sd of R's permuted values; allow 4 sd.
    const values = fixture.null_pMSE!;
    const mean = values.reduce((a, b) => a + b, 0) / values.length;
    const sd = Math.sqrt(values.reduce((a, b) => a + (b - mean) ** 2, 0) / (values.length - 1));
    const tolerance = 4 * sd * Math.sqrt(2 / permutations);
    expect(Math.abs(result.nullMean! - fixture.null_pMSE_mean!)).toBeLessThan(tolerance);
    expect(result.ratio).toBeCloseTo(result.value / (result.nullMean! / 2), 12);
    expect(result.rawRatio).toBeCloseTo(result.value / result.nullMean!, 12);
  });
});
