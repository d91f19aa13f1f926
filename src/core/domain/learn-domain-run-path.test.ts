/**
 * Run-path audit of learnDomain: does each step draw its noise with the ε the schema records for it?
 * The samplers are wrapped (they still draw with the real code) and every call during a learning is
 * recorded: the scale of each discrete Laplace sampler, the ε and Δ of each exponential mechanism,
 * the threshold of each category list. The expected values are re-derived here from the recorded
 * steps (`domainBudget.steps`) and the sensitivities of the domain README, not read from the code:
 * - type: noisy majority, Δ = 2 → scale 2/ε_step;
 * - lower / upper bound: exponential mechanism with ε = ε_step and Δ = 1;
 * - whole-number flag: noisy count of non-whole values, Δ = 1 → scale 1/ε_step;
 * - category list: noisy counts, Δ = 2 → scale 2/ε_step, threshold τ for (ε_step, δ of the column).
 * A learning that spends more than it records (e.g. 2·ε_step in a draw), draws for a step it does not
 * record, or skips a recorded draw fails here.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseRational, Rational } from '../rng/rational';
import { SeededRng } from '../rng/seeded-rng';
import { parseCsv } from '../table/csv-read';
import { inferSchema } from '../table/infer';
import type { DomainStep, Schema } from '../table/types';
import { thresholdFor } from './dp-categories';
import { learnDomain } from './learn-domain';

type Call =
  | { kind: 'laplace'; scale: Rational }
  | { kind: 'exponential'; epsilon: Rational; sensitivity: number }
  | { kind: 'threshold'; threshold: number };

const calls = vi.hoisted(() => [] as unknown[]);

vi.mock('../rng/discrete-laplace', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../rng/discrete-laplace')>();
  return {
    ...actual,
    makeDiscreteLaplaceSampler: (scale: Rational) => {
      calls.push({ kind: 'laplace', scale });
      return actual.makeDiscreteLaplaceSampler(scale);
    },
  };
});

vi.mock('../rng/exponential-mechanism', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../rng/exponential-mechanism')>();
  return {
    ...actual,
    sampleExponentialMechanism: (...args: Parameters<typeof actual.sampleExponentialMechanism>) => {
      calls.push({ kind: 'exponential', epsilon: args[2], sensitivity: args[3] });
      return actual.sampleExponentialMechanism(...args);
    },
  };
});

vi.mock('./dp-categories', async (importOriginal) => {
  const actual = await importOriginal<typeof import('./dp-categories')>();
  return {
    ...actual,
    dpCategories: (...args: Parameters<typeof actual.dpCategories>) => {
      calls.push({ kind: 'threshold', threshold: args[3] });
      return actual.dpCategories(...args);
    },
  };
});

afterEach(() => {
  calls.length = 0;
});

/** 600 rows: a whole-number column, one with cents and some missing, two categorical. */
const raw = parseCsv(
  [
    'age,income,sex,town',
    ...Array.from(
      { length: 600 },
      (_, i) =>
        `${20 + (i % 50)},${i % 7 === 0 ? '' : (1000 + i * 1.25).toFixed(2)},${i % 2 ? 'F' : 'M'},${['Bern', 'Basel', 'Biel'][i % 3]}`,
    ),
  ].join('\n'),
  { fileName: 'people.csv' },
);

/** The calls a step must make, from its recorded ε (and the column's δ for a list). */
function expectedCalls(step: DomainStep, columnDelta: Rational): Call[] {
  const epsilon = parseRational(step.epsilon);
  const part = step.fact.slice(step.fact.lastIndexOf('.') + 1);
  if (step.what.includes('left unused')) return [];
  switch (part) {
    case 'type':
      return [{ kind: 'laplace', scale: Rational.of(2).div(epsilon) }];
    case 'integer':
      return [{ kind: 'laplace', scale: Rational.ONE.div(epsilon) }];
    case 'lower':
    case 'upper':
      return [{ kind: 'exponential', epsilon, sensitivity: 1 }];
    case 'categories':
      return [
        { kind: 'threshold', threshold: thresholdFor(epsilon, columnDelta) },
        { kind: 'laplace', scale: Rational.of(2).div(epsilon) },
      ];
    default:
      throw new Error(`unknown step ${step.fact}`);
  }
}

/** Exact text of a call, rationals reduced, so that equal calls compare equal. */
function describeCall(call: Call): string {
  switch (call.kind) {
    case 'laplace':
      return `laplace scale ${call.scale.toString()}`;
    case 'exponential':
      return `exponential ε ${call.epsilon.toString()} Δ ${call.sensitivity}`;
    case 'threshold':
      return `threshold ${call.threshold}`;
  }
}

/** Learns `schema` and checks the recorded calls against the steps the result records. */
function audit(schema: Schema, epsilon: string, delta: string, seed: string) {
  calls.length = 0;
  const result = learnDomain(raw, schema, { epsilon, delta }, new SeededRng(seed));
  const steps = result.schema.domainBudget!.steps;
  // The δ a column's list may spend: what its steps reserve (the type step, or the list itself).
  const columnDelta = (fact: string) => {
    const column = fact.slice(0, fact.lastIndexOf('.'));
    return steps
      .filter((s) => s.fact.startsWith(`${column}.`))
      .reduce((sum, s) => sum.add(parseRational(s.delta)), Rational.ZERO);
  };
  const expected = steps.flatMap((step) => expectedCalls(step, columnDelta(step.fact)));
  expect((calls as Call[]).map(describeCall)).toEqual(expected.map(describeCall));
  return result;
}

describe('learnDomain run-path audit: every draw uses the ε its recorded step states', () => {
  it('an inferred schema: types, bounds, whole-number flags and category lists', () => {
    const { steps } = audit(inferSchema(raw), '3', '1e-6', 'audit inferred');
    // The audit covered every kind of step, and a split that is not a power of two.
    expect(new Set(steps.map((s) => s.fact.split('.')[1]))).toEqual(
      new Set(['type', 'lower', 'upper', 'integer', 'categories']),
    );
    expect(steps[0]!.epsilon).toBe('0.1875');
  });

  it('declared types: the facts share the column budget evenly (thirds, a list alone)', () => {
    const start = inferSchema(raw);
    start.columns = start.columns.map((c) => ({ ...c, sources: { type: 'declared' as const } }));
    const { steps } = audit(start, '1', '1e-6', 'audit declared types');
    expect(steps.find((s) => s.fact === 'age.lower')!.epsilon).toBe('0.0833333333333');
    expect(steps.find((s) => s.fact === 'sex.categories')).toMatchObject({
      epsilon: '0.25',
      delta: '0.00000025',
    });
  });

  it('declared bounds with a learned type: the unused shares draw nothing', () => {
    const start = inferSchema(raw);
    const age = start.columns[0]!;
    start.columns[0] = { ...age, sources: { bounds: ['declared', 'declared'] } };
    const { steps } = audit(start, '2', '1e-6', 'audit unused shares');
    expect(steps.filter((s) => s.what.includes('left unused'))).toHaveLength(2);
  });
});
