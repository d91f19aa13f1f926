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
import { dpBoundIndex } from './dp-quantile';
import { planDomain, type DomainPlan } from './domain-plan';
import {
  discreteLaplaceSurvival,
  predictedListedCount,
  predictedRowsBeyond,
  typeMargin,
} from './fact-quality';
import { DomainPlanRefused, learnDomain } from './learn-domain';
import { searchGrid } from './search-grid';

const GRID = searchGrid();
const QUANTILES = [parseRational('0.005'), parseRational('0.995')] as const;

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
    for (let i = 0; i < runs; i++) if (!dpMajority(rng, numbers, words, epsilon)) wrong++;
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
      // n distinct values on the first n grid points: each fills its own cell, none below.
      const sorted = Float64Array.from(GRID.slice(0, n));
      for (const epsilon of ['1.5', '4']) {
        const eps = parseRational(epsilon);
        const predicted = predictedRowsBeyond(n, eps, GRID.length, QUANTILES[0], 'lower').rows;
        const runs = 3000;
        const rng = new SeededRng(`bound ${n} ${epsilon}`);
        let sum = 0;
        let squares = 0;
        for (let i = 0; i < runs; i++) {
          const index = dpBoundIndex(rng, sorted, QUANTILES[0], GRID, 'lower', eps);
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
        expect(Math.abs(doubled - predicted)).toBeGreaterThan(tolerance);
      }
    },
  );

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
      const released = dpCategories(rng, counts, epsilon, threshold);
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
