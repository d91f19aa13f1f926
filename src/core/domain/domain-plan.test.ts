import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Accountant } from '../privacy/accountant';
import { parseRational, Rational } from '../rng/rational';
import { SeededRng } from '../rng/seeded-rng';
import { parseCsv } from '../table/csv-read';
import { inferSchema } from '../table/infer';
import type { TableSource } from '../table/table-source';
import type { Schema } from '../table/types';
import { dpCategories } from './dp-categories';
import { dpMajority } from './dp-majority';
import { boundRank, dpBoundIndex } from './dp-quantile';
import { planDomain, type DomainPlan } from './domain-plan';
import {
  discreteLaplaceSurvival,
  predictedBeyondData,
  predictedListedCount,
  predictedRowsBeyond,
  typeMargin,
} from './fact-quality';
import { DEFAULT_QUANTILES, DomainPlanRefused, learnDomain } from './learn-domain';
import { searchGrid } from './search-grid';
import { recordingStep } from '../privacy/metered/testing';

const GRID = searchGrid();
const QUANTILES = [parseRational(DEFAULT_QUANTILES[0]), parseRational(DEFAULT_QUANTILES[1])] as const;

function plan(schema: Schema, n: number, epsilon: string, delta = '1e-6'): DomainPlan {
  return planDomain(schema, n, { epsilon, delta, quantiles: QUANTILES, candidates: GRID.length });
}

/** A schema of `names` with nothing declared (every type inferred, here all categorical). */
function undeclared(names: string[], type: 'numeric' | 'categorical' = 'categorical'): Schema {
  return {
    version: 1,
    columns: names.map((name) => ({ name, type, source: 'inferred' as const })),
    missing: [''],
  } as Schema;
}

const BIRTH_COLUMNS = ['low', 'age', 'lwt', 'race', 'smoke', 'ptl', 'ht', 'ui', 'ftv', 'bwt'];
const birthwt = parseCsv(readFileSync('tests/fixtures/birthwt.csv', 'utf8'), { fileName: 'birthwt.csv' });

afterEach(() => vi.restoreAllMocks());

describe('domain plan: public facts only', () => {
  it('is the same whatever types the data suggests: a learned type plans both paths', () => {
    const a = plan(undeclared(BIRTH_COLUMNS, 'categorical'), 189, '40');
    const b = plan(undeclared(BIRTH_COLUMNS, 'numeric'), 189, '40');
    const shares = (p: DomainPlan) => p.facts.map((f) => [f.fact, f.epsilon.toString(), f.delta.toString()]);
    expect(shares(a)).toEqual(shares(b));
    expect(a.facts.filter((f) => f.column === 'bwt').map((f) => f.part)).toEqual([
      'type',
      'lower',
      'upper',
      'integer',
      'categories',
    ]);
  });

  it('gives declared facts nothing, follows need, and never spends more than ε', () => {
    const schema = undeclared(['x', 'c']);
    schema.columns[0] = {
      name: 'x',
      type: 'numeric',
      bounds: [0, 10],
      source: 'inferred',
      sources: { type: 'declared', bounds: ['declared', 'inferred'] },
    };
    const p = plan(schema, 1000, '3');
    expect(p.facts.map((f) => f.fact)).toEqual([
      'x.upper',
      'x.integer',
      'c.type',
      'c.lower',
      'c.upper',
      'c.integer',
      'c.categories',
    ]);
    const eps = (fact: string) => p.facts.find((f) => f.fact === fact)!.epsilon;
    // A bound needs far more than a flag, a flag more than a type.
    expect(eps('x.upper').toNumber()).toBeGreaterThan(3 * eps('x.integer').toNumber());
    expect(eps('c.integer').toNumber()).toBeGreaterThan(eps('c.type').toNumber());
    // Both paths of c spend the same; the total over one path per column is at most ε.
    const numericPath = eps('c.lower').add(eps('c.upper')).add(eps('c.integer'));
    expect(eps('c.categories').equals(numericPath)).toBe(true);
    const total = eps('x.upper').add(eps('x.integer')).add(eps('c.type')).add(numericPath);
    expect(total.compare(Rational.of(3))).toBeLessThanOrEqual(0);
    expect(total.toNumber()).toBeGreaterThan(3 - 1e-9);
    // δ goes only to the column that may learn a list, reserved by its type step.
    expect(p.facts.find((f) => f.fact === 'c.type')!.delta.toString()).toBe('1/1000000');
  });
});

describe('domain plan: the birth-weight table (189 rows, 10 columns, nothing declared)', () => {
  it('refuses ε = 0.2, names the facts, and names an ε that meets every floor', () => {
    const small = plan(undeclared(BIRTH_COLUMNS), 189, '0.2');
    expect(small.failing.length).toBe(small.facts.length);
    const enough = plan(undeclared(BIRTH_COLUMNS), 189, String(small.epsilonNeeded));
    expect(enough.failing).toEqual([]);
    // Declaring the types is cheaper when some columns are categorical.
    expect(small.epsilonNeededTypesDeclared![0]).toBeLessThan(small.epsilonNeeded);
  });

  it('accepts ε = 40 (every fact meets its floor) and refuses ε = 0.2 naming the ε that does', () => {
    const generous = plan(undeclared(BIRTH_COLUMNS), 189, '40');
    expect(generous.failing).toEqual([]);
    expect(generous.epsilonNeeded).toBeLessThanOrEqual(40);
    // Each bound aims at ⌈0.025·189⌉ = 5 rows and is predicted to leave at most 2.5 % of the rows.
    const bound = generous.facts.find((f) => f.fact === 'bwt.lower')!;
    expect(bound.quality.value).toBeLessThanOrEqual(0.025 * 189);
    const small = plan(undeclared(BIRTH_COLUMNS), 189, '0.2');
    expect(small.failing.length).toBeGreaterThan(0);
    expect(() =>
      learnDomain(birthwt, inferSchema(birthwt), { epsilon: '0.2', delta: '1e-6' }, new SeededRng('refused')),
    ).toThrow(`spend ε = ${small.epsilonNeeded} with this split`);
    expect(small.epsilonNeeded).toBe(generous.epsilonNeeded);
  });

  /**
   * The product's goal on the birth-weight study (MASS::birthwt, tests/fixtures/birthwt.csv) at ε = 40:
   * types right, each pair of learned bounds keeping at least 95 % of its column's values, every
   * category held by 10 % of the rows listed. 5 fixed seeds (the bench runs 20). Tolerances from
   * the binomial: a pair fell below 95 % 4 times in 1,000 (200 seeds, 5 numeric columns), a rate
   * below 0.0092 (Poisson 95 % upper bound for 4), so of 25 pairs the mean is below 0.23 and the
   * SD below 0.48: at most mean + 3·SD = 1.7, i.e. 1 pair. Types and lists: the plan's floors give
   * each a probability of at least 0.99; of 50 types the errors have mean at most 0.5 and SD 0.70
   * (mean + 3·SD = 2.6: at most 2), and likewise of the 50 frequent categories (10 a seed).
   */
  it('meets the goal at ε = 40 over 5 seeds: types, bound pairs keeping 95 %, frequent categories', () => {
    const schema = inferSchema(birthwt);
    const truth = new Map(schema.columns.map((c) => [c.name, c.type]));
    let wrongTypes = 0;
    let pairsBelow = 0;
    let pairs = 0;
    let unlisted = 0;
    let frequent = 0;
    for (let seed = 0; seed < 5; seed++) {
      const learned = learnDomain(
        birthwt,
        schema,
        { epsilon: '40', delta: '1e-6' },
        new SeededRng(`birthwt goal ${seed}`),
      );
      for (const column of learned.schema.columns) {
        if (column.type !== truth.get(column.name)) wrongTypes++;
        const cells = birthwt.columns[birthwt.header.indexOf(column.name)]!;
        if (truth.get(column.name) === 'numeric' && column.type === 'numeric') {
          const [lo, hi] = column.bounds!;
          pairs++;
          const inside = cells.filter((c) => Number(c) >= lo && Number(c) <= hi).length;
          if (inside < 0.95 * cells.length) pairsBelow++;
        }
        if (truth.get(column.name) === 'categorical') {
          const counts = new Map<string, number>();
          for (const c of cells) counts.set(c, (counts.get(c) ?? 0) + 1);
          for (const [value, count] of counts) {
            if (count < 0.1 * cells.length) continue;
            frequent++;
            if (!(column.type === 'categorical' && column.categories!.includes(value))) unlisted++;
          }
        }
      }
    }
    expect(pairs).toBe(25);
    expect(frequent).toBe(50);
    expect(pairsBelow).toBeLessThanOrEqual(1);
    expect(wrongTypes).toBeLessThanOrEqual(2);
    expect(unlisted).toBeLessThanOrEqual(2);
  });
});

/**
 * Predicted against simulated quality, at the share the plan gives a fact, on tables of several
 * sizes. Each comparison states its tolerance: 5 standard errors of the simulated mean or
 * proportion (a false alarm about 1 in 1.7 million), and each has power: a prediction from the
 * wrong noise scale (twice ε) lies outside it.
 */
describe('predicted quality matches simulated quality', () => {
  const SIZES = [60, 189, 1000];

  it.each(SIZES)('type, n = %i: P(right) for a column with its kind ahead by ⌈n/2⌉', (n) => {
    const p = plan(undeclared(['x']), n, '1000');
    const typeFact = p.facts.find((f) => f.part === 'type')!;
    // Use the type's own need, where the error is near 1 %: a scale the test can see.
    const epsilon = parseRational(String(typeFact.need));
    const margin = typeMargin(n);
    const words = Math.floor((n - margin) / 2);
    const numbers = words + margin;
    const runs = 40_000;
    const rng = new SeededRng(`type ${n}`);
    let wrong = 0;
    for (let i = 0; i < runs; i++)
      if (!dpMajority(recordingStep('approx-dp'), rng, numbers, words, epsilon)) wrong++;
    const predicted = discreteLaplaceSurvival(margin, Math.exp(-epsilon.toNumber() / 2));
    const tolerance = 5 * Math.sqrt((predicted * (1 - predicted)) / runs);
    expect(Math.abs(wrong / runs - predicted), `${wrong}/${runs} vs ${predicted}`).toBeLessThanOrEqual(
      tolerance,
    );
    expect(predicted).toBeLessThanOrEqual(0.01);
    // Power: at twice ε the predicted error is far outside the tolerance.
    const wrongScale = discreteLaplaceSurvival(margin, Math.exp(-epsilon.toNumber()));
    expect(Math.abs(wrongScale - predicted)).toBeGreaterThan(tolerance);
  });

  it.each([60, 189, 300])(
    'lower bound, n = %i: mean rows beyond for values filling their own grid cells',
    (n) => {
      // n distinct values on the first n grid points: each fills its own cell, none below. At these
      // ε the cells near the target are wide apart in weight only slowly, so the cut at 0 rows and
      // ε itself move the mean (at large ε it tends to r − 1/2 whatever ε is).
      const sorted = Float64Array.from(GRID.slice(0, n));
      for (const epsilon of ['0.35', '0.55']) {
        const eps = parseRational(epsilon);
        const predicted = predictedRowsBeyond(n, eps, GRID.length, QUANTILES[0], 'lower').rows;
        const runs = 3000;
        const rng = new SeededRng(`bound ${n} ${epsilon}`);
        let sum = 0;
        let squares = 0;
        for (let i = 0; i < runs; i++) {
          const index = dpBoundIndex(
            recordingStep('approx-dp'),
            rng,
            sorted,
            QUANTILES[0],
            GRID,
            'lower',
            eps,
          );
          const beyond = Math.min(index, n); // values below grid[index]
          sum += beyond;
          squares += beyond * beyond;
        }
        const mean = sum / runs;
        const sd = Math.sqrt(squares / runs - mean * mean);
        const tolerance = 5 * (sd / Math.sqrt(runs)) + 1e-9;
        expect(
          Math.abs(mean - predicted),
          `n = ${n}, ε = ${epsilon}: ${mean} vs ${predicted}`,
        ).toBeLessThanOrEqual(tolerance);
        // Power: the prediction for twice ε is outside the tolerance.
        const doubled = predictedRowsBeyond(
          n,
          eps.mul(Rational.of(2)),
          GRID.length,
          QUANTILES[0],
          'lower',
        ).rows;
        expect(Math.abs(doubled - predicted), `n = ${n}, ε = ${epsilon}: power`).toBeGreaterThan(tolerance);
      }
    },
  );

  it.each([
    [60, '1'],
    [189, '0.5'],
    [189, '0.75'],
    [300, '0.4'],
  ])(
    'upper bound, n = %i, ε = %s: the probability of a bound beyond all the data, the data at the grid’s other end',
    (n, epsilon) => {
      // n distinct values on the first n grid points, upper end: the K − n cells above the data
      // hold none, and a bound there is beyond all of it (index >= n).
      const sorted = Float64Array.from(GRID.slice(0, n));
      const eps = parseRational(epsilon);
      const cellsBeyond = GRID.length - n;
      const predicted = predictedBeyondData(
        n,
        eps,
        GRID.length,
        QUANTILES[1],
        'upper',
        cellsBeyond,
      ).probability;
      const runs = 4000;
      const rng = new SeededRng(`beyond ${n} ${epsilon}`);
      let beyond = 0;
      for (let i = 0; i < runs; i++) {
        if (dpBoundIndex(recordingStep('approx-dp'), rng, sorted, QUANTILES[1], GRID, 'upper', eps) >= n)
          beyond++;
      }
      // 5 standard errors of a binomial proportion (a false alarm about 1 in 1.7 million).
      const tolerance = 5 * Math.sqrt((predicted * (1 - predicted)) / runs);
      expect(Math.abs(beyond / runs - predicted), `${beyond}/${runs} vs ${predicted}`).toBeLessThanOrEqual(
        tolerance,
      );
      // Power: the prediction for twice ε, and the one that leaves out the reach (every cell beyond
      // the data scored −r, as the rank alone gives), are outside the tolerance.
      const doubled = predictedBeyondData(
        n,
        eps.mul(Rational.of(2)),
        GRID.length,
        QUANTILES[1],
        'upper',
        cellsBeyond,
      ).probability;
      expect(Math.abs(doubled - predicted)).toBeGreaterThan(tolerance);
      // The plan's default, max(K − n, ⌈K/2⌉) cells beyond, is never below the simulated layout's.
      expect(
        predictedBeyondData(n, eps, GRID.length, QUANTILES[1], 'upper').probability,
      ).toBeGreaterThanOrEqual(predicted);
      const p = Math.exp(-eps.toNumber() / 2);
      const r = boundRank(QUANTILES[1], 'upper', n);
      let inside = 0;
      for (let k = 0; k < n; k++) inside += p ** Math.max(k - r, r - k - 1, 0);
      const flat = ((GRID.length - n) * p ** r) / ((GRID.length - n) * p ** r + inside);
      expect(Math.abs(flat - predicted)).toBeGreaterThan(tolerance);
    },
  );

  it('a table with more rows than grid cells still has half the grid beyond its data in the plan', () => {
    // 1,000 rows cannot each fill one of 363 cells; the plan keeps ⌈363/2⌉ = 182 cells beyond the data.
    const eps = parseRational('0.3');
    const none = predictedBeyondData(1000, eps, GRID.length, QUANTILES[1], 'upper', 0).probability;
    const planned = predictedBeyondData(1000, eps, GRID.length, QUANTILES[1], 'upper').probability;
    expect(none).toBe(0);
    expect(planned).toBeGreaterThan(0.01);
    expect(planned).toBe(predictedBeyondData(1000, eps, GRID.length, QUANTILES[1], 'upper', 182).probability);
  });

  it.each(SIZES)('category list, n = %i: the smallest count listed with probability 0.99', (n) => {
    const p = plan(undeclared(['c']), n, '1000');
    const list = p.facts.find((f) => f.part === 'categories')!;
    const epsilon = parseRational(String(list.need));
    const { count, threshold } = predictedListedCount(epsilon, list.listDelta);
    const runs = 40_000;
    const rng = new SeededRng(`list ${n}`);
    const counts = new Map([
      ['held by c', count],
      ['held by c - 2', count - 2],
    ]);
    let listed = 0;
    let listedBelow = 0;
    for (let i = 0; i < runs; i++) {
      const released = dpCategories(
        recordingStep('approx-dp'),
        rng,
        counts,
        epsilon,
        threshold,
        list.listDelta,
      );
      if (released.includes('held by c')) listed++;
      if (released.includes('held by c - 2')) listedBelow++;
    }
    const pmf = Math.exp(-epsilon.toNumber() / 2);
    for (const [hits, c] of [
      [listed, count],
      [listedBelow, count - 2],
    ] as const) {
      const predicted = discreteLaplaceSurvival(threshold - c, pmf);
      const tolerance = 5 * Math.sqrt((predicted * (1 - predicted)) / runs);
      expect(Math.abs(hits / runs - predicted), `count ${c}`).toBeLessThanOrEqual(tolerance);
    }
    expect(discreteLaplaceSurvival(threshold - count, pmf)).toBeGreaterThanOrEqual(0.99);
    expect(discreteLaplaceSurvival(threshold - count + 1, pmf)).toBeLessThan(0.99);
    // Power: the count held by c − 2 rows is listed measurably less often than 0.99.
    expect(listedBelow / runs).toBeLessThan(0.99 - 5 * Math.sqrt((0.99 * 0.01) / runs));
  });
});

describe('refusal before any data is read', () => {
  it('throws DomainPlanRefused without touching a cell, reserving budget or drawing', () => {
    const header = BIRTH_COLUMNS;
    const raw = parseCsv(
      [header.join(','), ...Array.from({ length: 189 }, () => header.map(() => '1').join(','))].join('\n'),
      {
        fileName: 'birthwt.csv',
      },
    );
    const schema = inferSchema(raw);
    // A table whose cells cannot be read: any access to its columns throws.
    const sealed: TableSource = {
      fileName: raw.fileName,
      header: raw.header,
      nRows: raw.nRows,
      delimiter: ',',
      get columns(): string[][] {
        throw new Error('a cell was read');
      },
    };
    const rng = new SeededRng('refusal');
    const draw = vi.spyOn(rng, 'nextUint32');
    const reserve = vi.spyOn(Accountant.prototype, 'reserve');
    expect(() => learnDomain(sealed, schema, { epsilon: '0.2', delta: '1e-6' }, rng)).toThrow(
      DomainPlanRefused,
    );
    expect(draw).not.toHaveBeenCalled();
    expect(reserve).not.toHaveBeenCalled();
    // Control: with force, the same call reads the cells.
    expect(() => learnDomain(sealed, schema, { epsilon: '0.2', delta: '1e-6', force: true }, rng)).toThrow(
      'a cell was read',
    );
  });
});
