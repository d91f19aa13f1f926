/**
 * The privacy meter of a domain learning: every step is charged exactly its share by the metered draws
 * (or as an unused share), the meter is settled before the schema is returned, and a learning whose
 * draws do not match its steps returns nothing (MeterMismatchError).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MeterMismatchError, PrivacyMeter, type MeterStep } from '../privacy/meter';
import { Rational } from '../rng/rational';
import { SeededRng } from '../rng/seeded-rng';
import { parseCsv } from '../table/csv-read';
import { inferSchema } from '../table/infer';
import type { Schema } from '../table/types';
import { learnDomain } from './learn-domain';

/** How the mocked flag draws: as the code does, skipping its draw, or at twice its ε. */
const mutant = vi.hoisted(() => ({ flag: 'none' as 'none' | 'skip' | 'double' }));

vi.mock('./dp-whole-number', async (importOriginal) => {
  const actual = await importOriginal<typeof import('./dp-whole-number')>();
  return {
    ...actual,
    dpWholeNumber: (...args: Parameters<typeof actual.dpWholeNumber>) => {
      if (mutant.flag === 'skip') return true;
      if (mutant.flag === 'double') {
        const [step, rng, nonWhole, threshold, epsilon] = args;
        return actual.dpWholeNumber(step, rng, nonWhole, threshold, epsilon.mul(Rational.of(2)));
      }
      return actual.dpWholeNumber(...args);
    },
  };
});

afterEach(() => {
  mutant.flag = 'none';
  vi.restoreAllMocks();
});

/** 600 rows: a whole-number column, one with cents, two categorical. */
const raw = parseCsv(
  [
    'age,income,sex,town',
    ...Array.from(
      { length: 600 },
      (_, i) =>
        `${20 + (i % 50)},${(1000 + i * 1.25).toFixed(2)},${i % 2 ? 'F' : 'M'},${['Bern', 'Basel', 'Biel'][i % 3]}`,
    ),
  ].join('\n'),
  { fileName: 'people.csv' },
);

const settle = PrivacyMeter.prototype.settle;

/** Learns with a spy on settle; returns the result and the meter that was settled. */
function learnWithMeter(schema: Schema, epsilon: string, columns?: string[]) {
  const settled: PrivacyMeter[] = [];
  vi.spyOn(PrivacyMeter.prototype, 'settle').mockImplementation(function (this: PrivacyMeter, ...args) {
    settled.push(this);
    return settle.apply(this, args);
  });
  const result = learnDomain(
    raw,
    schema,
    { epsilon, delta: '1e-6', force: true, ...(columns ? { columns } : {}) },
    new SeededRng('meter'),
  );
  return { result, settled };
}

const charges = (steps: readonly MeterStep[]) => steps.map((s) => [s.what.split(':')[0], s.charges()]);

describe('domain learning through the privacy meter', () => {
  it('charges each step exactly by its draws and settles once, the type step also paying its δ', () => {
    const { result, settled } = learnWithMeter(inferSchema(raw), '20');
    expect(settled).toHaveLength(1);
    const steps = settled[0]!.steps();
    expect(steps.every((s) => s.settled())).toBe(true);
    expect(steps.map((s) => s.what)).toEqual(result.steps.map((s) => s.what));
    // Numeric columns: the type's draw and its unused δ (no list); bounds and flag one draw each.
    // Categorical columns: the type's draw and the list's δ charged to it; the list's ε on its own step.
    expect(charges(steps)).toEqual([
      ['type of `age`', 2],
      ['lower bound of `age`', 1],
      ['upper bound of `age`', 1],
      ['whole-number flag of `age`', 1],
      ['type of `income`', 2],
      ['lower bound of `income`', 1],
      ['upper bound of `income`', 1],
      ['whole-number flag of `income`', 1],
      ['type of `sex`', 2],
      ['categories of `sex`', 1],
      ['type of `town`', 2],
      ['categories of `town`', 1],
    ]);
    expect(steps[0]!.neighbouring).toBe('replace-one');
    // The numeric columns' type steps hold the δ of the list the type may call for (charged unused).
    expect(result.steps[0]!.delta).not.toBe('0');
  });

  it('charges a path whose facts are all declared as an unused share, and the type δ no list drew', () => {
    const start = inferSchema(raw);
    start.columns[0] = {
      name: 'age',
      type: 'numeric',
      bounds: [0, 120],
      integer: true,
      source: 'inferred',
      sources: { bounds: ['declared', 'declared'], integer: 'declared' },
    };
    start.columns[2] = {
      name: 'sex',
      type: 'categorical',
      categories: ['F', 'M'],
      source: 'inferred',
      sources: { categories: 'declared' },
    };
    const { result, settled } = learnWithMeter(start, '4', ['age', 'sex']);
    const steps = settled[0]!.steps();
    expect(steps.every((s) => s.settled())).toBe(true);
    expect(result.steps.map((s) => s.fact)).toEqual(['age.type', 'age.type', 'sex.type', 'sex.type']);
    // `age` may still be called categorical and learn a list, so its type step holds δ; it came out
    // numeric, so that δ is charged unused beside the type's draw. `sex` declares its list: no δ.
    // Each unused share: one charge, no draw.
    expect(result.steps.map((s) => s.delta)).toEqual(['0.000001', '0', '0', '0']);
    expect(steps.map((s) => s.charges())).toEqual([2, 1, 1, 1]);
    expect(steps[1]!.what).toMatch(/left unused/);
    expect(steps[3]!.what).toMatch(/left unused/);
  });

  it('returns nothing when a draw is skipped (the step is charged less than its share)', () => {
    mutant.flag = 'skip';
    expect(() => learnWithMeter(inferSchema(raw), '20')).toThrow(MeterMismatchError);
    expect(() => learnWithMeter(inferSchema(raw), '20')).toThrow(/whole-number flag of `age`.*charged ε = 0/);
  });

  it('refuses a draw at more than its share before it draws', () => {
    mutant.flag = 'double';
    expect(() => learnWithMeter(inferSchema(raw), '20')).toThrow(/would be charged .* more than its planned/);
  });
});
