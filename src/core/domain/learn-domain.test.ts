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
import { wholeNumberThreshold } from './dp-whole-number';
import { DomainPlanRefused, learnDomain, OTHER_LEVEL } from './learn-domain';

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
    // The split follows need: a type needs far less than a bound, a flag less than a bound; every
    // column here learns its type, so all four get the same share, and a list takes what the
    // numeric path of its column takes (both paths spend the same).
    const eps = (fact: string) => parseRational(steps.find((s) => s.fact === fact)!.epsilon);
    expect(eps('age.type').compare(eps('age.integer'))).toBe(-1);
    expect(eps('age.integer').compare(eps('age.lower'))).toBe(-1);
    expect(eps('age.lower').equals(eps('income.lower'))).toBe(true);
    expect(eps('sex.categories').equals(eps('age.lower').add(eps('age.upper')).add(eps('age.integer')))).toBe(
      true,
    );
    // The type step reserves the column's δ for the list it may call for, whichever type comes out.
    for (const fact of ['age.type', 'sex.type']) {
      expect(steps.find((s) => s.fact === fact)).toMatchObject({ delta: '0.00000025' });
    }
    expect(steps.find((s) => s.fact === 'sex.categories')).toMatchObject({ delta: '0' });
    // Shares are rounded down to 12 digits: the total is at most ε and within 1e−9 of it.
    const total = parseRational(schema.domainBudget!.epsilon);
    expect(total.compare(Rational.of(8))).toBeLessThanOrEqual(0);
    expect(total.compare(parseRational('7.999999999'))).toBe(1);
    expect(schema.domainBudget).toMatchObject({ delta: '0.000001', learnedAt: '2026-01-01T00:00:00Z' });
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
    const { schema } = learnDomain(
      raw,
      inferSchema(raw),
      { epsilon: '0.3', delta: '1e-6', force: true },
      rng,
    );
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
      { epsilon: '1', delta: '1e-6', columns: ['age', 'sex'], weights: { age: 3 }, force: true },
      new SeededRng('a'),
    );
    // Both columns learn their type and need the same: each type takes its need first, and what
    // follows the type stands 3 : 1 (shares rounded down to 12 digits).
    const sum = (prefix: string) =>
      first.steps
        .filter((s) => s.fact.startsWith(prefix) && !s.fact.endsWith('.type'))
        .reduce((t, s) => t + Number(s.epsilon), 0);
    expect(sum('age.') / sum('sex.')).toBeCloseTo(3, 9);
    const types = first.steps.filter((s) => s.fact.endsWith('.type')).map((s) => s.epsilon);
    expect(types[0]).toBe(types[1]);
    const second = learnDomain(
      raw,
      first.schema,
      { epsilon: '0.5', delta: '1e-6', columns: ['town'], force: true },
      new SeededRng('b'),
    );
    expect(second.schema.domainBudget!.steps).toHaveLength(8);
    expect(Number(second.schema.domainBudget!.epsilon)).toBeCloseTo(1.5, 9);
    expect(Number(second.schema.domainBudget!.epsilon)).toBeLessThanOrEqual(1.5);
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
      { epsilon: '4', delta: '1e-6', weights: { x: 2 }, force: true },
      new SeededRng('own'),
    );
    // Shares 1, 1, 2 times the same need: what follows each type stands 1 : 1 : 2.
    const after = (name: string) =>
      steps
        .filter((s) => s.fact.startsWith(`${name}.`) && !s.fact.endsWith('.type'))
        .reduce((t, s) => t + Number(s.epsilon), 0);
    expect(steps.filter((s) => s.fact.endsWith('.type')).map((s) => s.fact)).toEqual([
      'constructor.type',
      '__proto__.type',
      'x.type',
    ]);
    expect(after('constructor') / after('__proto__')).toBeCloseTo(1, 9);
    expect(after('x') / after('constructor')).toBeCloseTo(2, 9);
  });

  it('keeps declared facts when the learned type agrees; declared facts take no share and both paths spend the same', () => {
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
    expect(steps.map((s) => s.fact)).toEqual(['age.type', 'age.integer']);
    expect(Number(schema.domainBudget!.epsilon)).toBeCloseTo(1, 9);
  });

  it('aims the bounds at ranks of the values present: a column 99 % empty still gets bounds around its data', () => {
    // 10,000 rows, 100 values 20…69 (each twice), the rest empty; about ε = 2.9 per bound. Aiming at
    // ⌈0.005·n⌉ = 50 rows would put both bounds at the median (about [40, 50]); the rank of the values
    // present is max(⌈0.005·100⌉, s = ⌈(2/ε)·ln(36,300)⌉ ≈ 8) ≈ 8, about the 8th value from each end.
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

  it('refuses, before reading a cell, a plan with facts below their floors, and says what ε would do', () => {
    // 1,000 rows at ε = 0.5: the bounds would leave about 12 % of the rows beyond each end.
    const rows = parseCsv(['x', ...Array.from({ length: 1000 }, (_, i) => String(i % 50))].join('\n'), {
      fileName: 'x.csv',
    });
    let refused: unknown;
    try {
      learnDomain(rows, inferSchema(rows), { epsilon: '0.5', delta: '1e-6' }, new SeededRng('w'));
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(DomainPlanRefused);
    expect(refused).toBeInstanceOf(InputError);
    const plan = (refused as DomainPlanRefused).plan;
    expect(plan.failing.map((f) => f.fact)).toContain('x.lower');
    expect((refused as Error).message).toContain(`spend ε = ${plan.epsilonNeeded} with this split`);
    // The ε it names meets every floor, and one 1 % below it does not (3 significant digits).
    const at = (epsilon: number) =>
      learnDomain(rows, inferSchema(rows), { epsilon: String(epsilon), delta: '1e-6' }, new SeededRng('w'));
    expect(at(plan.epsilonNeeded).warnings).toEqual([]);
    expect(() => at(plan.epsilonNeeded * 0.99)).toThrow(DomainPlanRefused);
    // Forced, it learns and says so.
    const forced = learnDomain(
      rows,
      inferSchema(rows),
      { epsilon: '0.5', delta: '1e-6', force: true },
      new SeededRng('w'),
    );
    expect(forced.warnings[0]).toContain("learned below the plan's floors (forced)");
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
    const flag = steps.find((s) => s.fact === 'x.integer')!;
    const t = wholeNumberThreshold(1000, parseRational(flag.epsilon));
    expect(t).toBeLessThanOrEqual(50);
    expect(flag.what).toContain(
      `is below T = ${t}, the larger of 5 (0.5 % of the 1000 rows, rounded up) and ${t} (the least T with ` +
        'e^(−ε·T) <= 0.05), so a whole column is taken for fractional with probability at most 0.05',
    );
    // A whole column with a few missing cells is flagged whole: P(Z >= T) <= 0.05 at the flag's
    // share, so the fixed seed decides; a whole column is rarely taken for fractional.
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
      { epsilon: '1', delta: '1e-6', force: true },
      new SeededRng('s'),
    );
    expect(schema.domainBudget!.seeded).toBe(true);
    expect(parseSchemaJson(schemaToJson(schema), 's.json').domainBudget!.seeded).toBe(true);
  });
});
