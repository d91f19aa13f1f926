import { afterEach, describe, expect, it, vi } from 'vitest';
import { Accountant } from '../privacy/accountant';
import { parseRational, Rational } from '../rng/rational';
import { SeededRng } from '../rng/seeded-rng';
import { buildTable } from '../table/build-table';
import { parseCsv } from '../table/csv-read';
import { InputError } from '../table/errors';
import { inferSchema } from '../table/infer';
import { partSource } from '../table/schema-facts';
import { parseSchemaJson, schemaToJson } from '../table/schema-json';
import type { ColumnSchema, Schema } from '../table/types';
import { learnDomain, OTHER_LEVEL } from './learn-domain';

/** 2,000 rows: age 20…69 (whole), income with cents, sex F/M, town with one rare value held by one row. */
function csv(): string {
  const lines = ['age,income,sex,town'];
  for (let i = 0; i < 2000; i++) {
    const town = i === 0 ? 'Hamlet' : i % 3 === 0 ? 'Bern' : 'Basel';
    lines.push(`${20 + (i % 50)},${(1000 + i * 1.25).toFixed(2)},${i % 2 ? 'F' : 'M'},${town}`);
  }
  return lines.join('\n');
}

const raw = parseCsv(csv(), { fileName: 'people.csv' });

function column(schema: Schema, name: string): ColumnSchema {
  return schema.columns.find((c) => c.name === name)!;
}

afterEach(() => vi.restoreAllMocks());

describe('learnDomain', () => {
  it('learns every fact of an inferred schema, marks each "dp" and records steps that spend the budget exactly', () => {
    const { schema, steps } = learnDomain(
      raw,
      inferSchema(raw),
      { epsilon: '8', delta: '1e-6', learnedAt: '2026-01-01T00:00:00Z' },
      new SeededRng('learn'),
    );
    for (const c of schema.columns) {
      expect(c.source, c.name).toBe('dp');
      expect(c.sources, c.name).toBeUndefined();
    }
    expect(steps.map((s) => s.fact)).toEqual([
      'age.type',
      'age.lower',
      'age.upper',
      'age.integer',
      'income.type',
      'income.lower',
      'income.upper',
      'income.integer',
      'sex.type',
      'sex.categories',
      'town.type',
      'town.categories',
    ]);
    // Even split: 2 per column; within a column ε/4 for the type, the rest 3/4 (numeric: 1/4 each).
    expect(steps.filter((s) => s.fact.startsWith('age.')).map((s) => s.epsilon)).toEqual([
      '0.5',
      '0.5',
      '0.5',
      '0.5',
    ]);
    // The type step reserves the column's δ for the list it may call for, whichever type comes out.
    for (const fact of ['age.type', 'sex.type']) {
      expect(steps.find((s) => s.fact === fact)).toMatchObject({ epsilon: '0.5', delta: '0.00000025' });
    }
    expect(steps.find((s) => s.fact === 'sex.categories')).toMatchObject({ epsilon: '1.5', delta: '0' });
    expect(schema.domainBudget).toMatchObject({
      epsilon: '8',
      delta: '0.000001',
      learnedAt: '2026-01-01T00:00:00Z',
    });
    // With ε = 2 per column on 2,000 rows the facts are learned well (rank error a few rows):
    const age = column(schema, 'age');
    expect(age).toMatchObject({ type: 'numeric', integer: true });
    if (age.type !== 'numeric') throw new Error('numeric');
    expect(age.bounds![0]).toBeGreaterThanOrEqual(15);
    expect(age.bounds![0]).toBeLessThanOrEqual(20);
    expect(age.bounds![1]).toBeGreaterThanOrEqual(69);
    expect(age.bounds![1]).toBeLessThanOrEqual(80);
    expect(column(schema, 'income')).toMatchObject({ type: 'numeric', integer: false });
    expect(column(schema, 'sex')).toMatchObject({
      type: 'categorical',
      categories: ['F', 'M', OTHER_LEVEL],
      other: OTHER_LEVEL,
    });
    // The value held by one row is released with probability at most δ: it becomes "(other)".
    expect(column(schema, 'town')).toMatchObject({ categories: ['Basel', 'Bern', OTHER_LEVEL] });
  });

  it('writes a schema that reads back the same, and that types the table with the rare value as "(other)"', () => {
    const { schema } = learnDomain(
      raw,
      inferSchema(raw),
      { epsilon: '8', delta: '1e-6' },
      new SeededRng('round trip'),
    );
    expect(parseSchemaJson(schemaToJson(schema), 's.json')).toEqual(schema);
    const { table, report } = buildTable(raw, schema);
    const town = table.columns[3]!;
    if (town.kind !== 'categorical') throw new Error('categorical');
    expect(town.dictionary[town.codes[0]!]).toBe(OTHER_LEVEL);
    expect(town.missing[0]).toBe(0);
    expect(report.columns[3]!.undeclared).toEqual([{ value: 'Hamlet', count: 1 }]);
    expect(report.messages.join(' ')).toContain('counted as "(other)"');
  });

  it('keeps declared facts, learns only the others, and gives the column its whole share', () => {
    const start = inferSchema(raw);
    start.columns[0] = {
      name: 'age',
      type: 'numeric',
      bounds: [0, 120],
      integer: true,
      source: 'inferred',
      sources: { type: 'declared', bounds: ['declared', 'inferred'], integer: 'declared' },
    };
    const { schema, steps } = learnDomain(
      raw,
      start,
      { epsilon: '1', delta: '0', columns: ['age'] },
      new SeededRng('partly'),
    );
    expect(steps).toHaveLength(1);
    expect(steps[0]).toMatchObject({ fact: 'age.upper', epsilon: '1', delta: '0' });
    const age = column(schema, 'age');
    expect(age.type === 'numeric' && age.bounds![0]).toBe(0);
    expect(partSource(age, 'lower')).toBe('declared');
    expect(partSource(age, 'upper')).toBe('dp');
    expect(partSource(age, 'type')).toBe('declared');
    expect(column(schema, 'sex').source).toBe('inferred');
  });

  it('refuses, before any draw, δ = 0 when a category list may have to be learned', () => {
    const rng = new SeededRng('no delta');
    const draw = vi.spyOn(rng, 'nextUint32');
    expect(() => learnDomain(raw, inferSchema(raw), { epsilon: '1', delta: '0' }, rng)).toThrow(InputError);
    expect(() => learnDomain(raw, inferSchema(raw), { epsilon: '1', delta: '0' }, rng)).toThrow(
      /needs δ > 0 \(e\.g\. 1e-6\): with δ = 0 only declared lists are possible/,
    );
    expect(draw).not.toHaveBeenCalled();
  });

  it('reserves every step on the accountant before its draw, and never more than the budget', () => {
    const log: string[] = [];
    const reserve = Accountant.prototype.reserve;
    vi.spyOn(Accountant.prototype, 'reserve').mockImplementation(function (this: Accountant, ...args) {
      log.push('reserve');
      return reserve.apply(this, args);
    });
    const rng = new SeededRng('order');
    const next = rng.nextUint32.bind(rng);
    vi.spyOn(rng, 'nextUint32').mockImplementation(() => {
      log.push('draw');
      return next();
    });
    const { schema } = learnDomain(raw, inferSchema(raw), { epsilon: '0.3', delta: '1e-6' }, rng);
    // Each step's reservation comes before its first draw: 12 reservations, each followed by draws.
    const reservations = log.flatMap((entry, i) => (entry === 'reserve' ? [i] : []));
    expect(reservations).toHaveLength(12);
    expect(log[0]).toBe('reserve');
    for (const i of reservations) expect(log[i + 1]).toBe('draw');
    const spent = schema.domainBudget!.steps.reduce(
      (s, step) => s.add(parseRational(step.epsilon)),
      Rational.ZERO,
    );
    expect(spent.compare(parseRational('0.3'))).toBeLessThanOrEqual(0);
    expect(parseRational(schema.domainBudget!.epsilon).compare(spent)).toBe(0);
  });

  it('splits unevenly when asked, and adds later learnings to the recorded budget', () => {
    const first = learnDomain(
      raw,
      inferSchema(raw),
      { epsilon: '1', delta: '1e-6', columns: ['age', 'sex'], weights: { age: 3 } },
      new SeededRng('a'),
    );
    expect(first.steps.filter((s) => s.fact.startsWith('age.')).map((s) => s.epsilon)).toEqual([
      '0.1875',
      '0.1875',
      '0.1875',
      '0.1875',
    ]);
    expect(first.steps.filter((s) => s.fact.startsWith('sex.')).map((s) => s.epsilon)).toEqual([
      '0.0625',
      '0.1875',
    ]);
    const second = learnDomain(
      raw,
      first.schema,
      { epsilon: '0.5', delta: '1e-6', columns: ['town'] },
      new SeededRng('b'),
    );
    expect(second.schema.domainBudget!.steps).toHaveLength(8);
    expect(second.schema.domainBudget!.epsilon).toBe('1.5');
    expect(second.schema.domainBudget!.delta).toBe('0.000002');
    expect(() =>
      learnDomain(
        raw,
        inferSchema(raw),
        { epsilon: '1', delta: '1e-6', weights: { agee: 2 } },
        new SeededRng('c'),
      ),
    ).toThrow('a share of the domain budget names `agee`, which is not a column learned here');
  });

  it('reads shares as own properties only: columns named `constructor` and `__proto__` get the default share', () => {
    const tricky = parseCsv(
      ['constructor,__proto__,x', ...Array.from({ length: 40 }, (_, i) => `${i},${i % 3},${i % 2}`)].join(
        '\n',
      ),
      { fileName: 'tricky.csv' },
    );
    const { steps } = learnDomain(
      tricky,
      inferSchema(tricky),
      { epsilon: '4', delta: '1e-6', weights: { x: 2 } },
      new SeededRng('own'),
    );
    // Shares 1, 1, 2 of ε = 4: 1, 1 and 2 per column, a quarter of each for its type.
    expect(
      steps
        .filter((s) => s.fact.endsWith('.type') && !s.what.includes('unused'))
        .map((s) => [s.fact, s.epsilon]),
    ).toEqual([
      ['constructor.type', '0.25'],
      ['__proto__.type', '0.25'],
      ['x.type', '0.5'],
    ]);
  });

  it('keeps declared facts when the learned type agrees, reserving their shares so every path spends the same', () => {
    const start = inferSchema(raw);
    // Bounds declared, type and whole-number flag still inferred.
    start.columns[0] = {
      name: 'age',
      type: 'numeric',
      bounds: [0, 120],
      integer: true,
      source: 'inferred',
      sources: { bounds: ['declared', 'declared'] },
    };
    const { schema, steps } = learnDomain(
      raw,
      start,
      { epsilon: '1', delta: '1e-6', columns: ['age'] },
      new SeededRng('declared kept'),
    );
    const age = column(schema, 'age');
    expect(age).toMatchObject({ type: 'numeric', bounds: [0, 120] });
    expect(partSource(age, 'lower')).toBe('declared');
    expect(partSource(age, 'type')).toBe('dp');
    expect(partSource(age, 'integer')).toBe('dp');
    expect(steps.map((s) => [s.fact, s.epsilon])).toEqual([
      ['age.type', '0.25'],
      ['age.type', '0.25'],
      ['age.type', '0.25'],
      ['age.integer', '0.25'],
    ]);
    expect(steps[1]!.what).toContain('left unused: its lower bound is declared');
    expect(schema.domainBudget!.epsilon).toBe('1');
  });

  it('aims the bounds at ranks of the values present: a column 99 % empty still gets bounds around its data', () => {
    // 10,000 rows, 100 values 20…69 (each twice), the rest empty; ε = 2 per bound. Aiming at
    // ⌈0.005·n⌉ = 50 rows would put both bounds at the median (about [40, 50]); the rank of the values
    // present is max(⌈0.005·100⌉, s = ⌈ln(36,300)⌉ = 11) = 11, about the 11th value from each end.
    const sparse = parseCsv(
      ['x', ...Array.from({ length: 10_000 }, (_, i) => (i < 100 ? String(20 + (i % 50)) : ''))].join('\n'),
      { fileName: 'sparse.csv' },
    );
    const start = inferSchema(sparse);
    start.columns[0] = { ...start.columns[0]!, sources: { type: 'declared' } };
    for (const seed of ['sparse 1', 'sparse 2', 'sparse 3']) {
      const { schema, warnings } = learnDomain(
        sparse,
        start,
        { epsilon: '6', delta: '0' },
        new SeededRng(seed),
      );
      const x = column(schema, 'x');
      if (x.type !== 'numeric') throw new Error('numeric');
      expect(x.bounds![0], seed).toBeLessThanOrEqual(25);
      expect(x.bounds![0], seed).toBeGreaterThanOrEqual(15);
      expect(x.bounds![1], seed).toBeGreaterThanOrEqual(65);
      expect(x.bounds![1], seed).toBeLessThanOrEqual(80);
      expect(warnings).toEqual([]);
    }
  });

  it('warns, from public facts, when ε·n moves the bounds inside the data or makes a far bound likely', () => {
    // 1,000 rows at ε = 0.5: 0.125 per bound, s = ⌈16·ln(36,300)⌉ = 168 > ⌈0.005·1000⌉ = 5.
    const rows = parseCsv(['x', ...Array.from({ length: 1000 }, (_, i) => String(i % 50))].join('\n'), {
      fileName: 'x.csv',
    });
    const small = learnDomain(rows, inferSchema(rows), { epsilon: '0.5', delta: '1e-6' }, new SeededRng('w'));
    expect(small.warnings).toEqual([
      '`x`: ε = 0.125 per bound is small for 1000 rows: each bound is placed about 168 values inside the data ' +
        'rather than 5 (quantile 0.005) and 5 (quantile 0.995), so about 168 values at each end will be ' +
        'clamped to the bounds; with fewer than 672 values present a bound far beyond the data becomes likely. ' +
        'Declare the bounds, give this column a larger share (a split), narrow the search range or spend more ε.',
    ]);
    // At ε = 0.05 per column s = 1680 exceeds n/4 = 250: the stronger warning. The flag's threshold,
    // 240 (the least T with e^(−0.0125·T) <= 0.05), exceeds n/20 = 50: a warning of its own.
    const tiny = learnDomain(rows, inferSchema(rows), { epsilon: '0.05', delta: '1e-6' }, new SeededRng('w'));
    expect(tiny.warnings).toHaveLength(2);
    expect(tiny.warnings[0]).toContain('is too small for 1000 rows: a bound beyond the data is chosen');
    expect(tiny.warnings[1]).toBe(
      '`x`: ε = 0.0125 for the whole-number flag is small for 1000 rows: the column is called whole, and its ' +
        'values rounded, unless more than about 240 of them (24 % of the rows) are not whole numbers. Declare ' +
        'the flag, give this column a larger share (a split) or spend more ε.',
    );
    // Enough ε: no warning.
    expect(
      learnDomain(rows, inferSchema(rows), { epsilon: '80', delta: '1e-6' }, new SeededRng('w')).warnings,
    ).toEqual([]);
  });

  it('flags a column whole only when few of its values are not whole: 40 % fractional is not rounded', () => {
    // 1,000 rows, 400 of them x.5: the noisy count of non-whole values (400) is far above T = 5.
    const mixed = parseCsv(
      ['x', ...Array.from({ length: 1000 }, (_, i) => (i % 5 < 2 ? `${i % 50}.5` : String(i % 50)))].join(
        '\n',
      ),
      { fileName: 'mixed.csv' },
    );
    const { schema, steps } = learnDomain(
      mixed,
      inferSchema(mixed),
      { epsilon: '2', delta: '1e-6' },
      new SeededRng('mixed'),
    );
    expect(column(schema, 'x')).toMatchObject({ type: 'numeric', integer: false });
    expect(steps.find((s) => s.fact === 'x.integer')!.what).toBe(
      'whole-number flag of `x`: set when the noisy count of its values that are not whole (discrete Laplace, ' +
        'Δ = 1) is below T = 6, the larger of 5 (0.5 % of the 1000 rows, rounded up) and 6 (the least T with ' +
        'e^(−ε·T) <= 0.05), so a whole column is taken for fractional with probability at most 0.05, and a ' +
        'column with fewer than about 6 values that are not whole is called whole and rounded',
    );
    // A whole column with a few missing cells is flagged whole: P(Z >= 6) = e^(−3)/(1 + e^(−0.5)) = 0.031
    // at ε = 0.5 per fact, so the fixed seed decides; a whole column is rarely taken for fractional.
    const whole = parseCsv(
      ['x', ...Array.from({ length: 1000 }, (_, i) => (i % 97 === 0 ? '' : String(i % 50)))].join('\n'),
      { fileName: 'whole.csv' },
    );
    const learned = learnDomain(
      whole,
      inferSchema(whole),
      { epsilon: '2', delta: '1e-6' },
      new SeededRng('w'),
    );
    expect(column(learned.schema, 'x')).toMatchObject({ type: 'numeric', integer: true });
  });

  it('records a seeded learning in the schema, and reads it back', () => {
    const { schema } = learnDomain(
      raw,
      inferSchema(raw),
      { epsilon: '1', delta: '1e-6' },
      new SeededRng('s'),
    );
    expect(schema.domainBudget!.seeded).toBe(true);
    expect(parseSchemaJson(schemaToJson(schema), 's.json').domainBudget!.seeded).toBe(true);
  });
});
