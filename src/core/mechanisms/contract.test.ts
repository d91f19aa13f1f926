import { afterEach, describe, expect, it, vi } from 'vitest';
import { Accountant } from '../privacy/accountant';
import { ZcdpAccountant } from '../privacy/zcdp-accountant';
import { SeededRng } from '../rng/seeded-rng';
import type { Rng } from '../rng/types';
import type { Schema, Table } from '../table/types';
import { planBinnedDomain } from './common/binning/binned-domain';
import { binningChoiceFromParams } from './common/coding/binning-params';
import type { ColumnCoding } from './common/coding/column-coding';
import { levelsOfColumn, numericLevel } from './common/coding/encode-rows';
import { mixedTable, runContext } from './common/testing/fixtures';
import { resolveParams } from './params';
import { MECHANISMS } from './registry';
import { releaseOfBlocks, tableOfRows } from './release-blocks';
import type { Mechanism, ParamValues, Release, RunContext } from './types';

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

/**
 * Logs, in order, every reservation on any accountant (pure-DP or zCDP) and every draw of any seeded
 * generator (copies included) while `body` runs, and returns the log with body's value.
 */
async function recorded<T>(body: () => Promise<T>): Promise<{ log: string[]; value: T }> {
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
  try {
    return { log, value: await body() };
  } finally {
    vi.restoreAllMocks();
  }
}

/** Runs the mechanism (`run`) and logs its reservations and draws (see recorded). */
async function runRecorded(
  mechanism: Mechanism,
  ctx: RunContext,
): Promise<{ log: string[]; release: Release }> {
  const { log, value } = await recorded(() => mechanism.run(table, schema, defaultsOf(mechanism), ctx));
  return { log, release: value };
}

/**
 * Runs the mechanism in row blocks (`runInBlocks`) and reads every block, logging the reservations
 * and the draws of both: those made during the call and those made when the blocks are decoded.
 */
async function runInBlocksRecorded(
  mechanism: Mechanism,
  ctx: RunContext,
  blockRows: number,
): Promise<{ log: string[]; release: Release }> {
  const { log, value } = await recorded(async () =>
    releaseOfBlocks(await mechanism.runInBlocks!(table, schema, defaultsOf(mechanism), ctx, { blockRows })),
  );
  return { log, release: value };
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
    let recording: ReturnType<typeof runRecorded> | undefined;
    const recordedRun = () => (recording ??= runRecorded(mechanism, context()));

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

  it('claims before the run what it returns, and reserves before the first draw, reading the blocks included', async () => {
    const claim = mechanism.claim(defaultsOf(mechanism), context());
    const { log, release } = await runInBlocksRecorded(mechanism, context(), 7);
    expect(release.claim).toEqual(claim);
    // One reservation per claim step, every one before the first draw of the call or of a block's decoding.
    expect(log.filter((event) => event === 'reserve')).toHaveLength(claim.steps.length);
    expect(log.indexOf('draw')).toBeGreaterThan(log.lastIndexOf('reserve'));
  });

  it('gives, with a generator that cannot be copied, blocks within the schema whose levels the call fixed and whose values are fresh draws', async () => {
    const params = defaultsOf(mechanism);
    const noCopy = () => context({ rng: withoutCopy(new SeededRng('no copy')) });
    // Two calls from the same generator state: one in blocks of 16 rows (60 = 16 + 16 + 16 + 12) read in
    // dataset order, one in a single block per dataset (the default size) read in reverse order.
    const inBlocksOf16 = await inBlocks(table, schema, params, noCopy(), { blockRows: 16 });
    const readInOrder = inBlocksOf16.datasets.map(tableOfRows);
    const whole = await inBlocks(table, schema, params, noCopy());
    const readReversed = [...whole.datasets].reverse().map(tableOfRows).reverse();
    // Rows, columns, bounds, whole integers and categories: every value re-encodes to a level of the
    // declared domain. Fails when a block decodes a level past the domain (a value out of bounds).
    for (const dataset of readInOrder) expect(problemsAgainstSchema(dataset, schema, N)).toEqual([]);
    // The mechanisms that declare runInBlocks bin numeric columns by the shared binning parameters.
    const { codings } = planBinnedDomain(schema, binningChoiceFromParams(params), N, false);
    // The levels (cells) are drawn during the call, so they depend neither on the block size nor on
    // when the blocks are read: fails when a block decodes another block's rows or another column's
    // levels (an offset, a shared scratch array read late), or when levels are drawn at read time.
    readInOrder.forEach((dataset, r) => {
      expect(levelsOfTable(dataset, codings)).toEqual(levelsOfTable(readReversed[r]!, codings));
    });
    // The values inside the bins are drawn when a block is read: fails when they were drawn during the
    // call (the whole release held in memory) or from a stream that does not move on.
    expect(readReversed).not.toEqual(readInOrder);
    // No draw is used twice: the uniform U each real value was decoded with (value = lo + (level + U)·width)
    // differs across all blocks of both datasets. Fails when blocks decode from the same generator state
    // (then two blocks with equal cells are identical); 2 × 60 doubles from 53-bit draws coincide to within
    // 1e-9 with probability below 10⁻⁵, and the generator is seeded, so the test is deterministic.
    const uniforms = readInOrder
      .flatMap((dataset) => decodingUniforms(dataset, codings))
      .sort((a, b) => a - b);
    expect(uniforms.length).toBeGreaterThan(N);
    const closest = Math.min(...uniforms.slice(1).map((u, i) => u - uniforms[i]!));
    expect(closest).toBeGreaterThan(1e-9);
  });
});

/** Every column's level in every row under the codings (re-encoded from the values). */
function levelsOfTable(dataset: Table, codings: readonly ColumnCoding[]): number[][] {
  return codings.map((coding, j) => Array.from(levelsOfColumn(dataset.columns[j]!, coding)));
}

/** The uniform draw behind each present value of every real (not integer) column: position in its bin. */
function decodingUniforms(dataset: Table, codings: readonly ColumnCoding[]): number[] {
  return codings.flatMap((coding, j) => {
    const column = dataset.columns[j]!;
    if (coding.kind !== 'real' || column.kind !== 'numeric') return [];
    const width = (coding.hi - coding.lo) / coding.bins;
    return Array.from(column.values).flatMap((value, i) =>
      column.missing[i] ? [] : [(value - coding.lo) / width - numericLevel(value, coding)],
    );
  });
}
