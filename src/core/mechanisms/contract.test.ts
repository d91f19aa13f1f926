import { afterEach, describe, expect, it, vi } from 'vitest';
import { Accountant } from '../privacy/accountant';
import { ZcdpAccountant } from '../privacy/zcdp-accountant';
import { SeededRng } from '../rng/seeded-rng';
import type { Rng } from '../rng/types';
import type { Schema, Table } from '../table/types';
import { mixedTable, runContext } from './common/testing/fixtures';
import { resolveParams } from './params';
import { MECHANISMS } from './registry';
import { tableOfRows } from './release-blocks';
import type { Mechanism, ParamValues, RunContext } from './types';

// The plug-in contract (README.md), checked for every registered mechanism with its default
// parameters: a new mechanism gets these tests by registering. Mechanism-specific arithmetic and
// messages are tested in each mechanism's folder.

const N = 60;

/**
 * Mechanisms whose claim at their defaults is not a proven bound, with the reason the headline gives.
 * The pMSE mechanism draws from an MCMC chain, which only approximates the exponential mechanism;
 * the sequential regression synthesizer perturbs regression coefficients with continuous noise drawn
 * in floating point (the mixed table has a categorical column); every other mechanism's claim is proven.
 */
const UNPROVEN_AT_DEFAULTS: Record<string, RegExp> = {
  'pmse-mechanism': /^MCMC draws approximate the exponential mechanism; ε holds for exact draws/,
  'dp-sequential-regression':
    /^continuous output-perturbation noise drawn in floating point; ε holds for exact draws/,
};
const { table, schema } = mixedTable(N);

function defaultsOf(mechanism: Mechanism): ParamValues {
  return resolveParams(mechanism, {});
}

function context(overrides: Partial<RunContext> = {}): RunContext {
  return runContext(schema, N, {
    epsilon: '2',
    delta: '1e-5', // some mechanisms (zCDP ones) need δ > 0
    releases: 2,
    rng: new SeededRng('contract'),
    ...overrides,
  });
}

/** Runs the mechanism and logs, in order, every reservation on any accountant (pure-DP or zCDP) and every draw of any seeded generator. */
async function runRecorded(
  mechanism: Mechanism,
  ctx: RunContext,
): Promise<{ log: string[]; release: Awaited<ReturnType<Mechanism['run']>> }> {
  const log: string[] = [];
  const reserve = Accountant.prototype.reserve;
  const reserveParallel = Accountant.prototype.reserveParallel;
  const reserveZcdp = ZcdpAccountant.prototype.reserve;
  const nextUint32 = SeededRng.prototype.nextUint32;
  vi.spyOn(ZcdpAccountant.prototype, 'reserve').mockImplementation(function (this: ZcdpAccountant, ...args) {
    log.push('reserve');
    return reserveZcdp.apply(this, args);
  });
  vi.spyOn(Accountant.prototype, 'reserve').mockImplementation(function (this: Accountant, ...args) {
    log.push('reserve');
    return reserve.apply(this, args);
  });
  vi.spyOn(Accountant.prototype, 'reserveParallel').mockImplementation(function (this: Accountant, ...args) {
    log.push('reserve');
    return reserveParallel.apply(this, args);
  });
  vi.spyOn(SeededRng.prototype, 'nextUint32').mockImplementation(function (this: SeededRng) {
    log.push('draw');
    return nextUint32.call(this);
  });
  const release = await mechanism.run(table, schema, defaultsOf(mechanism), ctx);
  vi.restoreAllMocks();
  return { log, release };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Problems of each release table against the schema: rows, column order, bounds, whole integers, categories. */
function problemsAgainstSchema(dataset: Table, declared: Schema, n: number): string[] {
  const problems: string[] = [];
  if (dataset.nRows !== n) problems.push(`${dataset.nRows} rows, not ${n}`);
  const names = dataset.columns.map((column) => column.name);
  const expected = declared.columns.map((column) => column.name);
  if (names.join() !== expected.join())
    problems.push(`columns ${names.join()} instead of ${expected.join()}`);
  declared.columns.forEach((spec, j) => {
    const column = dataset.columns[j];
    if (column === undefined) return;
    if (spec.type === 'numeric' && column.kind === 'numeric') {
      const [lo, hi] = spec.bounds!;
      for (let i = 0; i < n; i++) {
        if (column.missing[i]) continue;
        const value = column.values[i]!;
        if (!(value >= lo && value <= hi))
          problems.push(`${spec.name}[${i}] = ${value} outside [${lo}, ${hi}]`);
        if (spec.integer && !Number.isInteger(value))
          problems.push(`${spec.name}[${i}] = ${value} not whole`);
      }
    } else if (spec.type === 'categorical' && column.kind === 'categorical') {
      if (column.dictionary.join() !== spec.categories!.join())
        problems.push(`${spec.name} has categories ${column.dictionary.join()}`);
    } else {
      problems.push(`${spec.name} is ${column.kind}, not ${spec.type}`);
    }
  });
  return problems;
}

describe.each(MECHANISMS.map((mechanism) => [mechanism.id, mechanism] as const))(
  'the plug-in contract: %s',
  (_id, mechanism) => {
    afterEach(() => {
      vi.restoreAllMocks();
    });
    // One recorded run serves the claim and the schema tests (the pMSE mechanism takes seconds).
    let recorded: ReturnType<typeof runRecorded> | undefined;
    const recordedRun = () => (recorded ??= runRecorded(mechanism, context()));

    it('resolves its defaults to themselves, and they pass its own check', () => {
      const defaults = Object.fromEntries(mechanism.params.map((spec) => [spec.name, spec.default]));
      expect(resolveParams(mechanism, defaults)).toEqual(defaults);
      expect(mechanism.check(schema, defaultsOf(mechanism), context())).toEqual([]);
    });

    it('claims before the run exactly what the run returns, with a stated bound, and reserves before the first draw', async () => {
      const claim = mechanism.claim(defaultsOf(mechanism), context());
      const unproven = UNPROVEN_AT_DEFAULTS[mechanism.id];
      if (unproven === undefined) {
        expect(claim.bound).toBe('proven');
        expect(claim).not.toHaveProperty('unprovenBecause');
      } else {
        expect(claim.bound).toBe('unproven');
        expect(claim.unprovenBecause).toMatch(unproven);
      }
      const { log, release } = await recordedRun();
      expect(release.claim).toEqual(claim);
      const reservations = log.filter((event) => event === 'reserve').length;
      // One reservation per claim step (reserveParallel makes one step of several parts).
      expect(reservations).toBe(claim.steps.length);
      expect(log.indexOf('draw')).toBeGreaterThan(log.lastIndexOf('reserve'));
    });

    it('releases M tables of n rows within the schema', async () => {
      const { release } = await recordedRun();
      expect(release.datasets).toHaveLength(2);
      for (const dataset of release.datasets) expect(problemsAgainstSchema(dataset, schema, N)).toEqual([]);
    });

    it('rejects with an AbortError when its signal is set', async () => {
      const run = mechanism.run(table, schema, defaultsOf(mechanism), context({ signal: { aborted: true } }));
      await expect(run).rejects.toMatchObject({ name: 'AbortError' });
    });

    it('explains every problem in a sentence that ends with a full stop and names a column or a parameter', () => {
      const names = [
        ...schema.columns.map((column) => column.name),
        'unbounded',
        'uncategorised',
        ...mechanism.params.flatMap((spec) => [spec.name, spec.label]),
      ];
      // Inputs every mechanism must refuse or accept: a numeric column without bounds, a categorical
      // one without categories, and every text parameter naming a column that does not exist.
      const broken: Schema = {
        ...schema,
        columns: [
          ...schema.columns,
          { name: 'unbounded', type: 'numeric', source: 'declared' },
          { name: 'uncategorised', type: 'categorical', source: 'declared' },
        ],
      };
      const textParams = Object.fromEntries(
        mechanism.params.filter((spec) => spec.type === 'text').map((spec) => [spec.name, 'nosuchcolumn']),
      );
      const problems = [
        ...mechanism.check(broken, defaultsOf(mechanism), context({ schema: broken })),
        ...mechanism.check(schema, resolveParams(mechanism, textParams), context()),
      ];
      expect(problems.length).toBeGreaterThan(0);
      for (const problem of problems) {
        expect(problem).toMatch(/\.$/);
        const named = names.some(
          (name) =>
            problem.includes(`\`${name}\``) || new RegExp(`\\b${escapeRegExp(name)}\\b`).test(problem),
        );
        expect(named, problem).toBe(true);
      }
    });
  },
);

/** A seeded generator without `copy`: a release in blocks then draws each block's values as it is read. */
function withoutCopy(rng: SeededRng): Rng {
  return { seeded: true, nextUint32: () => rng.nextUint32(), nextFloat: () => rng.nextFloat() };
}

describe.each(
  MECHANISMS.filter((mechanism) => mechanism.runInBlocks !== undefined).map(
    (mechanism) => [mechanism.id, mechanism] as const,
  ),
)('a release in row blocks: %s', (_id, mechanism) => {
  const inBlocks = mechanism.runInBlocks!;

  it('gives, seeded, blocks that join into the tables run gives, and the same claim and diagnostics', async () => {
    const whole = await mechanism.run(table, schema, defaultsOf(mechanism), context());
    // 60 rows in blocks of 7: eight full blocks and one of 4.
    const blocks = await inBlocks(table, schema, defaultsOf(mechanism), context(), { blockRows: 7 });
    expect(blocks.claim).toEqual(whole.claim);
    expect(blocks.diagnostics).toEqual(whole.diagnostics);
    expect(blocks.datasets.map((rows) => [rows.nRows, rows.blockRows])).toEqual([
      [N, 7],
      [N, 7],
    ]);
    const [first, ...rest] = blocks.datasets;
    const sizes = Array.from(first!.blocks(), (block) => block.nRows);
    expect(sizes).toEqual([7, 7, 7, 7, 7, 7, 7, 7, 4]);
    expect(() => first!.blocks()).toThrow(/read once/);
    // The first dataset's blocks were read above; the run is seeded, so a second run gives them again.
    const again = await inBlocks(table, schema, defaultsOf(mechanism), context(), { blockRows: 7 });
    expect([tableOfRows(again.datasets[0]!), ...rest.map(tableOfRows)]).toEqual(whole.datasets);
  });

  it('gives, with a generator that cannot be copied, blocks of fresh draws within the schema', async () => {
    const release = await inBlocks(
      table,
      schema,
      defaultsOf(mechanism),
      context({ rng: withoutCopy(new SeededRng('no copy')) }),
      { blockRows: 16 },
    );
    for (const rows of release.datasets) {
      expect(problemsAgainstSchema(tableOfRows(rows), schema, N)).toEqual([]);
    }
  });
});
