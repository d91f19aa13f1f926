/**
 * Run-path audit of learnDomain: does each step draw its noise with the ε the schema records for it,
 * and as often as the step says? The samplers are wrapped (they still draw with the real code) and
 * every call during a learning is recorded: the scale of each discrete Laplace sampler and how many
 * draws were taken from it, the ε and Δ of each exponential mechanism, the threshold of each
 * category list and of each whole-number flag. The expected values are re-derived here from the
 * recorded steps (`domainBudget.steps`), n, the data's distinct values and the sensitivities of the
 * domain README, not read from the code:
 * - type: noisy majority, Δ = 2 → one draw at scale 2/ε_step;
 * - lower / upper bound: exponential mechanism with ε = ε_step and Δ = 1;
 * - whole-number flag: threshold max(⌈n/200⌉, ⌈ln(20)/ε_step⌉), one draw of a noisy count of
 *   non-whole values, Δ = 1 → scale 1/ε_step;
 * - category list: threshold τ for (ε_step, δ of the column), one draw per distinct value present
 *   at scale 2/ε_step (Δ = 2).
 * A learning that spends more than it records (e.g. 2·ε_step in a draw, or two draws where one is
 * paid for), draws for a step it does not record, or skips a recorded draw fails here.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseRational, Rational } from '../rng/rational';
import { SeededRng } from '../rng/seeded-rng';
import { parseCsv } from '../table/csv-read';
import { inferSchema } from '../table/infer';
import { tokensOfColumn } from '../table/table-source';
import type { DomainStep, Schema } from '../table/types';
import { thresholdFor } from './dp-categories';
import { exactDecimal } from './budget-split';
import { learnDomain } from './learn-domain';

type Call =
  | { kind: 'laplace'; scale: Rational; draws: number }
  | { kind: 'exponential'; epsilon: Rational; sensitivity: number }
  | { kind: 'threshold'; threshold: number }
  | { kind: 'whole'; threshold: number };

const calls = vi.hoisted(() => [] as unknown[]);

vi.mock('../rng/discrete-laplace', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../rng/discrete-laplace')>();
  return {
    ...actual,
    // The sampler a step builds is wrapped too: each draw from it is counted on its call.
    makeDiscreteLaplaceSampler: (scale: Rational) => {
      const call = { kind: 'laplace', scale, draws: 0 };
      calls.push(call);
      const sample = actual.makeDiscreteLaplaceSampler(scale);
      return (rng: Parameters<typeof sample>[0]) => {
        call.draws++;
        return sample(rng);
      };
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
      calls.push({ kind: 'threshold', threshold: args[4] });
      return actual.dpCategories(...args);
    },
  };
});

vi.mock('./dp-whole-number', async (importOriginal) => {
  const actual = await importOriginal<typeof import('./dp-whole-number')>();
  return {
    ...actual,
    dpWholeNumber: (...args: Parameters<typeof actual.dpWholeNumber>) => {
      calls.push({ kind: 'whole', threshold: args[3] });
      return actual.dpWholeNumber(...args);
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

/** What a step's draws depend on besides its ε: the column's δ, n, its distinct values present. */
interface StepFacts {
  columnDelta: Rational;
  rows: number;
  distinct: number;
}

/** The calls a step must make, from its recorded ε (and the column's δ for a list). */
function expectedCalls(step: DomainStep, facts: StepFacts): Call[] {
  const epsilon = parseRational(step.epsilon);
  const part = step.fact.slice(step.fact.lastIndexOf('.') + 1);
  if (step.what.includes('left unused')) return [];
  switch (part) {
    case 'type':
      return [{ kind: 'laplace', scale: Rational.of(2).div(epsilon), draws: 1 }];
    case 'integer': {
      // T = max(⌈n/200⌉, ⌈ln(20)/ε⌉) (no ties at the budgets used here).
      const threshold = Math.max(
        Math.ceil(facts.rows / 200),
        Math.ceil(Math.log(20) / epsilon.toNumberDown()),
      );
      return [
        { kind: 'whole', threshold },
        { kind: 'laplace', scale: Rational.ONE.div(epsilon), draws: 1 },
      ];
    }
    case 'lower':
    case 'upper':
      return [{ kind: 'exponential', epsilon, sensitivity: 1 }];
    case 'categories':
      return [
        { kind: 'threshold', threshold: thresholdFor(epsilon, facts.columnDelta) },
        { kind: 'laplace', scale: Rational.of(2).div(epsilon), draws: facts.distinct },
      ];
    default:
      throw new Error(`unknown step ${step.fact}`);
  }
}

/** Exact text of a call, rationals reduced, so that equal calls compare equal. */
function describeCall(call: Call): string {
  switch (call.kind) {
    case 'laplace':
      return `laplace scale ${call.scale.toString()}, ${call.draws} draw(s)`;
    case 'whole':
      return `whole-number threshold ${call.threshold}`;
    case 'exponential':
      return `exponential ε ${call.epsilon.toString()} Δ ${call.sensitivity}`;
    case 'threshold':
      return `threshold ${call.threshold}`;
  }
}

/** Learns `schema` and checks the recorded calls against the steps the result records. */
function audit(schema: Schema, epsilon: string, delta: string, seed: string) {
  calls.length = 0;
  // Forced: the audit checks the draws at budgets the plan may find too small.
  const result = learnDomain(raw, schema, { epsilon, delta, force: true }, new SeededRng(seed));
  const steps = result.schema.domainBudget!.steps;
  // The δ a column's list may spend: what its steps reserve (the type step, or the list itself).
  const columnDelta = (fact: string) => {
    const column = fact.slice(0, fact.lastIndexOf('.'));
    return steps
      .filter((s) => s.fact.startsWith(`${column}.`))
      .reduce((sum, s) => sum.add(parseRational(s.delta)), Rational.ZERO);
  };
  const expected = steps.flatMap((step) => {
    const tokens = tokensOfColumn(raw, step.fact.slice(0, step.fact.lastIndexOf('.')))!;
    return expectedCalls(step, {
      columnDelta: columnDelta(step.fact),
      rows: tokens.length,
      // The distinct values present: cells that are not missing, each value once.
      distinct: new Set(tokens.filter((t) => !schema.missing.includes(t))).size,
    });
  });
  expect((calls as Call[]).map(describeCall)).toEqual(expected.map(describeCall));
  return result;
}

describe('learnDomain run-path audit: every draw uses the ε its recorded step states', () => {
  it('an inferred schema: types, bounds, whole-number flags and category lists', () => {
    const result = audit(inferSchema(raw), '3', '1e-6', 'audit inferred');
    const steps = result.steps;
    // The audit covered every kind of step, and a split that is not a power of two.
    expect(new Set(steps.map((s) => s.fact.split('.')[1]))).toEqual(
      new Set(['type', 'lower', 'upper', 'integer', 'categories']),
    );
    // Each step spends the share its plan gave it (a split that follows need, not an even one).
    const planned = new Map(result.plan.facts.map((f) => [f.fact, exactDecimal(f.epsilon)]));
    for (const step of steps.filter((s) => !s.what.includes('left unused'))) {
      expect(step.epsilon, step.fact).toBe(planned.get(step.fact));
    }
    expect(new Set(steps.map((s) => s.epsilon)).size).toBeGreaterThan(2);
    // The lists drew once per value seen: 2 for sex, 3 for town.
    const draws = (calls as Call[]).flatMap((c) => (c.kind === 'laplace' ? [c.draws] : []));
    expect(draws.filter((d) => d > 1).sort()).toEqual([2, 3]);
  });

  it('declared types: no type step, and δ goes only to the columns with a list', () => {
    const start = inferSchema(raw);
    start.columns = start.columns.map((c) => ({ ...c, sources: { type: 'declared' as const } }));
    const { steps } = audit(start, '1', '1e-6', 'audit declared types');
    expect(steps.some((s) => s.fact.endsWith('.type'))).toBe(false);
    // Two categorical columns (sex, town) share δ; the numeric ones take none.
    expect(steps.find((s) => s.fact === 'sex.categories')).toMatchObject({ delta: '0.0000005' });
    expect(steps.filter((s) => s.fact.startsWith('age.')).every((s) => s.delta === '0')).toBe(true);
  });

  it('declared bounds with a learned type: the unused shares draw nothing', () => {
    const start = inferSchema(raw);
    const age = start.columns[0]!;
    start.columns[0] = { ...age, sources: { bounds: ['declared', 'declared'] } };
    const { steps } = audit(start, '2', '1e-6', 'audit unused shares');
    // The declared bounds take no share and draw nothing; the flag (or the list) is learned.
    expect(steps.filter((s) => s.fact === 'age.lower' || s.fact === 'age.upper')).toHaveLength(0);
    expect(steps.filter((s) => s.fact.startsWith('age.')).length).toBe(2);
  });
});
