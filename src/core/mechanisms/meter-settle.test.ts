import { describe, expect, it } from 'vitest';
import { Accountant } from '../privacy/accountant';
import { parseBudget } from '../privacy/budget';
import { MeterMismatchError, PrivacyMeter, type StepTicket } from '../privacy/meter';
import { meteredDiscreteLaplace } from '../privacy/metered/discrete-laplace';
import { isSpentBudgetError } from '../privacy/spent-budget-error';
import { Rational } from '../rng/rational';
import { SeededRng } from '../rng/seeded-rng';
import { mixedTable, runContext } from './common/testing/fixtures';
import { composedMechanism } from './domain-composition';
import { runStagesInOneThread } from './staged-run';
import type { Mechanism, MechanismMeta, ReleaseInBlocks, RunContext, StagedRun } from './types';

const { table, schema } = mixedTable(20);
const ctx = (overrides: Partial<RunContext> = {}) => runContext(schema, 20, { epsilon: '1', ...overrides });
const PARTITION = { kind: 'partition-counts' } as const;
const COUNTS = Float64Array.of(12, 8);

/** A toy mechanism: one step of ε = 1 planned, noisy counts of scale 2 (ε = 2/2 under replace-one) drawn `draws` times. */
function toy(draws: number): { mechanism: Mechanism; meta: MechanismMeta } {
  const meta: MechanismMeta = {
    id: 'toy',
    label: 'toy',
    summary: 'toy',
    reference: 'none',
    supports: { numeric: true, categorical: true },
    params: [],
    claim: (_params, context) => {
      const accountant = new Accountant(parseBudget(context.epsilon, context.delta));
      accountant.reserve('noisy counts', Rational.ONE);
      return accountant.claim([]);
    },
    check: () => [],
  };
  const release = (run: RunContext, scale: Rational) => {
    const accountant = new Accountant(parseBudget(run.epsilon, run.delta), run.meter);
    const step = accountant.reserve('noisy counts', Rational.ONE);
    for (let i = 0; i < draws; i++) meteredDiscreteLaplace(step, PARTITION, COUNTS, scale, run.rng);
    return { claim: accountant.claim([]), diagnostics: {}, dataHolderDiagnostics: {} };
  };
  const mechanism: Mechanism = {
    ...meta,
    run: async (_table, _schema, _params, run) => ({ ...release(run, Rational.of(2 * draws)), datasets: [] }),
    runInBlocks: async (_table, _schema, _params, run): Promise<ReleaseInBlocks> => ({
      ...release(run, Rational.of(2 * draws)),
      datasets: [],
    }),
  };
  return { mechanism, meta };
}

describe('the registry’s wrapper settles the meter of every mechanism before releasing', () => {
  it('releases when the charges equal the claim (one draw at ε = 1, or two at ε = 1/2)', async () => {
    for (const draws of [1, 2]) {
      const { mechanism, meta } = toy(draws);
      const wrapped = composedMechanism(mechanism, meta);
      const release = await wrapped.run(table, schema, {}, ctx());
      expect(release.claim.epsilon).toBe(1);
      await expect(wrapped.runInBlocks!(table, schema, {}, ctx())).resolves.toBeDefined();
    }
  });

  it('refuses a run that skipped its draw, with a SpentBudgetError naming the step', async () => {
    const { mechanism, meta } = toy(0);
    const wrapped = composedMechanism(mechanism, meta);
    const error = await wrapped.run(table, schema, {}, ctx()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MeterMismatchError);
    expect(isSpentBudgetError(error)).toBe(true);
    expect((error as Error).message).toContain(
      'step 1 ("noisy counts") was planned at ε = 1, δ = 0 but charged ε = 0',
    );
    await expect(wrapped.runInBlocks!(table, schema, {}, ctx())).rejects.toThrow(MeterMismatchError);
  });

  it('uses the caller’s meter when given one, and every run gets one', async () => {
    const { mechanism, meta } = toy(1);
    const meter = new PrivacyMeter();
    await composedMechanism(mechanism, meta).run(table, schema, {}, ctx({ meter }));
    expect(meter.steps().map((s) => [s.what, s.settled()])).toEqual([['noisy counts', true]]);
  });

  it('checks every mechanism: one that declares nothing and skipped its draw is refused too', async () => {
    const { mechanism, meta } = toy(0);
    await expect(composedMechanism(mechanism, meta).run(table, schema, {}, ctx())).rejects.toThrow(
      MeterMismatchError,
    );
  });
});

/** A staged toy: the plan reserves one step of ε = 1; each of two stages draws half of it from the step's ticket. */
function stagedToy(skipSecond: boolean): StagedRun<null, { ticket: StepTicket; skip: boolean }, number> {
  return {
    plan: (_table, _schema, _params, _run, accountant) => {
      const step = accountant.reserve('noisy counts in two stages', Rational.ONE);
      const ticket = step.ticket();
      return {
        plan: null,
        stages: [
          { spec: { ticket, skip: false }, seed: 's1' },
          { spec: { ticket, skip: skipSecond }, seed: 's2' },
        ],
        words: { stage: 'stage', stages: 'stages', step: 'step', finish: 'finish' },
      };
    },
    runStage: (spec, rng, _progress, _signal, _shared, meter) => {
      if (spec.skip) return 0;
      return meteredDiscreteLaplace(meter!.step(spec.ticket), PARTITION, COUNTS, Rational.of(4), rng)[0]!;
    },
    finish: (_plan, _results, _run, accountant) => ({
      datasets: [],
      claim: accountant.claim([]),
      diagnostics: {},
      dataHolderDiagnostics: {},
    }),
  };
}

describe('staged runs: stages return their charges with their results, and the finish settles', () => {
  async function throughWorkers(skipSecond: boolean) {
    const staged = stagedToy(skipSecond) as StagedRun;
    const { mechanism, meta } = toy(1);
    const wrapped = composedMechanism({ ...mechanism, staged }, meta).staged!;
    const accountant = new Accountant(parseBudget('1', 0));
    const run = ctx();
    const planned = wrapped.plan(table, schema, {}, run, accountant);
    // Each stage as another worker runs it: a structured clone of the spec in, of the result out.
    const results = planned.stages.map((stage) =>
      structuredClone(
        wrapped.runStage(
          structuredClone(stage.spec),
          new SeededRng(stage.seed!),
          () => {},
          run.signal,
          undefined,
        ),
      ),
    );
    return wrapped.finish(planned.plan, results, run, accountant);
  }

  it('releases when the stages charged the plan, and refuses when one skipped its draw', async () => {
    await expect(throughWorkers(false)).resolves.toBeDefined();
    await expect(throughWorkers(true)).rejects.toThrow('charged ε = 0.5, δ = 0 in 1 draw');
  });

  it('on one thread, runStagesInOneThread gives each stage a meter and adds its charges to the run’s', async () => {
    const meter = new PrivacyMeter();
    const accountant = new Accountant(parseBudget('1', 0), meter);
    await runStagesInOneThread(stagedToy(false), table, schema, {}, ctx({ meter }), accountant);
    expect(() => meter.settle()).not.toThrow();
  });
});

describe('a run that fails after its first draw', () => {
  it('counts as spent (FailedAfterSpendingError, an internal error); one that fails before drawing does not', async () => {
    const { mechanism, meta } = toy(1);
    const failing = (afterDraw: boolean): Mechanism => ({
      ...mechanism,
      run: async (t, s, p, run) => {
        if (afterDraw) await mechanism.run(t, s, p, run);
        throw new Error('out of memory');
      },
    });
    const after = await composedMechanism(failing(true), meta)
      .run(table, schema, {}, ctx())
      .catch((e: unknown) => e);
    expect(isSpentBudgetError(after)).toBe(true);
    expect((after as Error).name).toBe('FailedAfterSpendingError');
    expect((after as Error).message).toContain('out of memory');
    const before = await composedMechanism(failing(false), meta)
      .run(table, schema, {}, ctx())
      .catch((e: unknown) => e);
    expect(isSpentBudgetError(before)).toBe(false);
  });
});
