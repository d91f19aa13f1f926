import { Accountant } from '../../../privacy/accountant';
import type { PrivacyBudget } from '../../../privacy/budget';
import type { MeterStep } from '../../../privacy/meter';
import type { Rational } from '../../../rng/rational';
import { SeededRng } from '../../../rng/seeded-rng';
import type { Rng } from '../../../rng/types';
import type { CategoricalColumn, NumericColumn, Schema, Table } from '../../../table/types';
import type { RunContext } from '../../types';

/** A numeric column from plain values; null is missing. */
export function numericColumn(name: string, values: (number | null)[]): NumericColumn {
  return {
    kind: 'numeric',
    name,
    values: Float64Array.from(values, (v) => (v === null ? NaN : v)),
    missing: Uint8Array.from(values, (v) => (v === null ? 1 : 0)),
  };
}

/** A categorical column from plain values; null is missing; the dictionary is in order of first appearance. */
export function categoricalColumn(name: string, values: (string | null)[]): CategoricalColumn {
  const dictionary: string[] = [];
  const codes = Uint32Array.from(values, (v) => {
    if (v === null) return 0;
    let code = dictionary.indexOf(v);
    if (code < 0) code = dictionary.push(v) - 1;
    return code;
  });
  return {
    kind: 'categorical',
    name,
    codes,
    dictionary,
    missing: Uint8Array.from(values, (v) => (v === null ? 1 : 0)),
  };
}

/**
 * A mixed table of n rows with known missing rates, deterministic in i:
 * age integer in [17, 90], missing where i % 10 = 0 (10 %);
 * income real in [0, 1000], missing where i % 4 = 1 (25 %);
 * sex F/M alternating, missing where i % 20 = 7 (5 %).
 */
export function mixedTable(n: number): { table: Table; schema: Schema } {
  const age: (number | null)[] = [];
  const income: (number | null)[] = [];
  const sex: (string | null)[] = [];
  for (let i = 0; i < n; i++) {
    age.push(i % 10 === 0 ? null : 17 + ((i * 7) % 74));
    income.push(i % 4 === 1 ? null : ((i * 37) % 1000) + 0.5);
    sex.push(i % 20 === 7 ? null : i % 2 === 0 ? 'F' : 'M');
  }
  return {
    table: {
      nRows: n,
      columns: [numericColumn('age', age), numericColumn('income', income), categoricalColumn('sex', sex)],
    },
    schema: {
      version: 1,
      missing: [''],
      columns: [
        { name: 'age', type: 'numeric', bounds: [17, 90], integer: true, source: 'declared' },
        { name: 'income', type: 'numeric', bounds: [0, 1000], source: 'declared' },
        { name: 'sex', type: 'categorical', categories: ['F', 'M'], source: 'declared' },
      ],
    },
  };
}

/** A run context with a SeededRng and no-op progress; override any field. */
export function runContext(schema: Schema, n: number, overrides: Partial<RunContext> = {}): RunContext {
  return {
    n,
    schema,
    epsilon: '1',
    delta: 0,
    releases: 1,
    seeded: true,
    rng: new SeededRng(20240601),
    progress: () => {},
    signal: { aborted: false },
    ...overrides,
  };
}

/** An Rng that appends "draw" to `log` on every call, delegating to `inner`. */
export function recordingRng(inner: Rng, log: string[]): Rng {
  return {
    seeded: inner.seeded,
    nextUint32: () => {
      log.push('draw');
      return inner.nextUint32();
    },
    nextFloat: () => {
      log.push('draw');
      return inner.nextFloat();
    },
  };
}

/** A real Accountant that also appends "reserve" to `log` and keeps the exact ε of each reservation. */
export class RecordingAccountant extends Accountant {
  readonly reservedEpsilons: Rational[] = [];
  constructor(
    budget: PrivacyBudget,
    private readonly log: string[],
  ) {
    super(budget);
  }
  override reserve(what: string, epsilon: Rational, delta?: Rational): MeterStep {
    this.log.push('reserve');
    const step = super.reserve(what, epsilon, delta);
    this.reservedEpsilons.push(epsilon);
    return step;
  }
}

/** Fraction of rows whose missing flag is set. */
export function missingRate(column: { missing: Uint8Array }): number {
  let count = 0;
  for (const flag of column.missing) count += flag;
  return count / column.missing.length;
}
