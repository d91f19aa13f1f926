import { describe, expect, it } from 'vitest';
import { Accountant } from '../privacy/accountant';
import { parseBudget } from '../privacy/budget';
import { PrivacyMeter } from '../privacy/meter';
import { meteredDiscreteLaplace } from '../privacy/metered/discrete-laplace';
import { SpentBudgetError } from '../privacy/spent-budget-error';
import { makeRng } from '../rng/make-rng';
import { Rational } from '../rng/rational';
import { InputError } from '../table/errors';
import { getMechanismMeta, mechanismIds, MECHANISM_IDS, withMechanismId } from './catalogue';
import { mixedTable, runContext } from './common/testing/fixtures';
import { composedMechanism, composedMeta, spending } from './domain-composition';
import { runStagesInOneThread } from './staged-run';
import type { Mechanism, MechanismMeta, RunContext, StagedRun } from './types';

// Quick tests of the registry's wrapper at its edges: what it refuses, what a failure after a draw
// becomes, the staged run's progress, and the catalogue's lookups.

const { table, schema } = mixedTable(20);
const ctx = (overrides: Partial<RunContext> = {}) => runContext(schema, 20, { epsilon: '1', ...overrides });
const PARTITION = { kind: 'partition-counts' } as const;

const meta: MechanismMeta = {
  id: 'toy',
  label: 'toy',
  summary: 'toy',
  reference: 'none',
  supports: { numeric: true, categorical: true },
  params: [],
  claim: (_params, context) => new Accountant(parseBudget(context.epsilon, context.delta)).claim([]),
  check: () => ['the toy’s own problem.'],
};

/** A staged toy: one stage that draws once at ε = 1 (scale 2, L1 = 2) and reports its progress twice. */
function stagedToy(): StagedRun {
  return {
    plan: (_table, _schema, _params, _run, accountant) => {
      const step = (accountant as Accountant).reserve('noisy counts', Rational.ONE);
      return {
        plan: null,
        stages: [{ spec: { ticket: step.ticket() }, seed: 's1' }],
        words: { stage: 'part', stages: 'parts', step: 'sweep', finish: 'joining' },
      };
    },
    runStage: (spec, rng, progress, _signal, _shared, meter) => {
      progress(1, 2);
      progress(2, 2);
      return meteredDiscreteLaplace(
        meter!.step((spec as { ticket: never }).ticket),
        PARTITION,
        Float64Array.of(1, 2),
        Rational.of(2),
        rng,
      )[0];
    },
    finish: (_plan, _results, _run, accountant) => ({
      datasets: [],
      claim: accountant.claim([]),
      diagnostics: {},
      dataHolderDiagnostics: {},
    }),
  };
}

describe('the registry’s wrapper at its edges', () => {
  it('check states only the relation’s refusal when there is one', () => {
    const composed = composedMeta(meta);
    expect(composed.check(schema, {}, ctx())).toEqual(['the toy’s own problem.']);
    const refused = composed.check(schema, {}, ctx({ neighbouring: 'add-remove' }));
    expect(refused).toHaveLength(1);
    expect(refused[0]).toMatch(/^toy runs only with replace-one neighbours/);
    expect(() => composed.claim({}, ctx({ neighbouring: 'add-remove' }))).toThrow(InputError);
    expect(() => composed.claim({}, ctx({ neighbouring: 'add-remove' }))).toThrow(
      /^toy cannot run: toy runs only/,
    );
  });

  it('passes a cancel and a budget error after a draw unchanged; any other failure after a draw counts as spent', async () => {
    const drawn = () => {
      const meter = new PrivacyMeter();
      const step = new Accountant(parseBudget('1'), meter).reserve('noisy counts', Rational.ONE);
      meteredDiscreteLaplace(step, PARTITION, Float64Array.of(1), Rational.of(2), ctx().rng);
      return meter;
    };
    const abort = Object.assign(new Error('stopped'), { name: 'AbortError' });
    await expect(spending(drawn(), () => Promise.reject(abort))).rejects.toBe(abort);
    const spent = new SpentBudgetError('over budget');
    await expect(spending(drawn(), () => Promise.reject(spent))).rejects.toBe(spent);
    await expect(spending(drawn(), () => Promise.reject(new Error('broken')))).rejects.toMatchObject({
      name: 'FailedAfterSpendingError',
      message:
        'The run failed after drawing noise on the data, so its budget counts as spent and nothing is released: broken',
    });
    const plain = new Error('before any draw');
    await expect(spending(new PrivacyMeter(), () => Promise.reject(plain))).rejects.toBe(plain);
    await expect(spending(new PrivacyMeter(), () => Promise.resolve(3))).resolves.toBe(3);
  });

  it('refuses to finish a staged run it did not plan', () => {
    const wrapped = composedMechanism(
      { ...meta, run: async () => ({}) as never, staged: stagedToy() },
      meta,
    ).staged!;
    expect(() => wrapped.finish(null, [], ctx(), new Accountant(parseBudget('1')))).toThrow(
      'This staged run was not planned through the registry; plan it again.',
    );
  });

  it('runs a staged mechanism on one thread, reporting each stage’s steps and the finish', async () => {
    const reports: [number, string][] = [];
    const meter = new PrivacyMeter();
    await runStagesInOneThread(
      stagedToy(),
      table,
      schema,
      {},
      ctx({ meter, progress: (fraction, message) => reports.push([fraction, message ?? '']) }),
      new Accountant(parseBudget('1'), meter),
    );
    // One stage: 97 % of the progress, then the finish at 98 % and done.
    expect(reports).toEqual([
      [0.97 * 0.5, 'part 1 of 1: sweep 1 of 2'],
      [0.97, 'part 1 of 1: sweep 2 of 2'],
      [0.98, 'joining'],
      [1, 'done'],
    ]);
    expect(() => meter.settle()).not.toThrow();
  });

  it('gives each stage the generator of its seed, shares the progress among the stages, and needs no meter', async () => {
    // Two stages that draw nothing on the data: each returns the first word of its generator.
    const seeded: StagedRun = {
      plan: () => ({
        plan: null,
        stages: [
          { spec: 0, seed: 'first' },
          { spec: 1, seed: 'second' },
        ],
        words: { stage: 'part', stages: 'parts', step: 'sweep', finish: 'joining' },
      }),
      runStage: (_spec, rng, progress) => {
        progress(1, 1);
        return rng.nextUint32();
      },
      finish: (_plan, results, _run, accountant) => ({
        datasets: [],
        claim: accountant.claim([]),
        diagnostics: { words: results },
        dataHolderDiagnostics: {},
      }),
    };
    const reports: [number, string][] = [];
    const release = await runStagesInOneThread(
      seeded,
      table,
      schema,
      {},
      ctx({ progress: (fraction, message) => reports.push([fraction, message ?? '']) }),
    );
    expect(release.diagnostics.words).toEqual([
      makeRng('first').nextUint32(),
      makeRng('second').nextUint32(),
    ]);
    // Each stage's share of 97 %: the first ends at 0.97·1/2, the second at 0.97.
    expect(reports.slice(0, 2)).toEqual([
      [0.97 / 2, 'part 1 of 2: sweep 1 of 1'],
      [0.97, 'part 2 of 2: sweep 1 of 1'],
    ]);
  });
});

describe('the catalogue', () => {
  it('refuses a meta under an id it does not list, and finds none under unknown text', () => {
    expect(() => withMechanismId(meta)).toThrow('mechanism toy is not listed in mechanism-id.ts');
    expect(getMechanismMeta('toy')).toBeUndefined();
    expect(getMechanismMeta('mst')!.id).toBe('mst');
    const ids = mechanismIds();
    ids.pop();
    expect(mechanismIds()).toEqual([...MECHANISM_IDS]);
  });

  it('keeps a registered mechanism’s fields through the wrapper', () => {
    const mechanism: Mechanism = { ...meta, run: async () => ({}) as never };
    expect(composedMechanism(mechanism, meta)).not.toHaveProperty('staged');
    expect(composedMechanism(mechanism, meta)).not.toHaveProperty('runInBlocks');
  });
});
