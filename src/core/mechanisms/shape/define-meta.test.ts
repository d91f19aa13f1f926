import { describe, expect, it } from 'vitest';
import { Accountant } from '../../privacy/accountant';
import { parseBudget } from '../../privacy/budget';
import { PrivacyMeter } from '../../privacy/meter';
import { meteredDiscreteLaplace } from '../../privacy/metered/discrete-laplace';
import { Rational } from '../../rng/rational';
import { InputError } from '../../table/errors';
import { WHOLE_TABLES } from '../common/rows/dataset-form';
import { mixedTable, runContext } from '../common/testing/fixtures';
import type { Neighbouring } from '../neighbouring';
import type { RunContext } from '../types';
import { defineMechanism } from './define-mechanism';
import { budgetProblems, defineMechanismMeta, planOrRefuse, type MechanismSpec } from './define-meta';
import { defineStagedMechanism } from './define-staged-mechanism';

// Quick tests of what the shape derives beside the claim = run checks of define-mechanism.test.ts:
// the meta's fields, the budget's problems, the relation a claim is built under, the unproven bound.

const { table, schema } = mixedTable(20);
const PARTITION = { kind: 'partition-counts' } as const;
interface ToyPlan {
  problems: string[];
}

/** One step of ε on an (ε, δ) accountant over the meter's relation; one draw of two cells at scale 2/ε. */
function spec(
  overrides: Partial<MechanismSpec<ToyPlan, Accountant, ReturnType<Accountant['reserve']>>> = {},
) {
  return {
    id: 'toy',
    label: 'toy',
    summary: 'toy',
    reference: 'none',
    supports: { numeric: true, categorical: true },
    params: [],
    plan: (_schema, params) => ({
      problems: params.refuse === true ? ['first problem.', 'second problem.'] : [],
    }),
    accountant: (context, meter) => new Accountant(parseBudget(context.epsilon, context.delta), meter),
    reserve: (_plan, accountant, context) =>
      accountant.reserve('noisy counts', parseBudget(context.epsilon).epsilon),
    assumptions: () => ['one draw.'],
    ...overrides,
  } satisfies MechanismSpec<ToyPlan, Accountant, ReturnType<Accountant['reserve']>>;
}

const ctx = (overrides: Partial<RunContext> = {}) => runContext(schema, 20, { epsilon: '1', ...overrides });

describe('defineMechanismMeta', () => {
  it('copies the catalogue fields and keeps the spec, but none of the spec’s own functions', () => {
    const meta = defineMechanismMeta(spec({ describe: () => ['a sentence.'], unproven: () => undefined }));
    expect(Object.keys(meta).sort()).toEqual(
      [
        'check',
        'claim',
        'describe',
        'id',
        'label',
        'params',
        'reference',
        'spec',
        'summary',
        'supports',
      ].sort(),
    );
    expect(meta.describe!({}, ctx())).toEqual(['a sentence.']);
    // No describe in the spec: none in the meta (the page then shows none).
    expect(defineMechanismMeta(spec())).not.toHaveProperty('describe');
  });

  it('states a budget it cannot read, and nothing without a context', () => {
    expect(budgetProblems(undefined)).toEqual([]);
    expect(budgetProblems({ epsilon: '1', delta: '1e-9' })).toEqual([]);
    expect(budgetProblems({ epsilon: 'x', delta: 0 })).toEqual(["ε must be a positive number; got 'x'."]);
  });

  it('refuses a plan with problems, naming the mechanism and every problem', () => {
    expect(() => planOrRefuse(spec(), schema, { refuse: true }, ctx())).toThrow(InputError);
    expect(() => planOrRefuse(spec(), schema, { refuse: true }, ctx())).toThrow(
      'toy cannot run: first problem. second problem.',
    );
    expect(planOrRefuse(spec(), schema, {}, ctx())).toEqual({ problems: [] });
  });

  it('states an unproven bound when the spec says why, and a proven one otherwise', () => {
    const unproven = defineMechanismMeta(spec({ unproven: () => ({ unprovenBecause: 'a toy bound' }) }));
    expect(unproven.claim({}, ctx())).toMatchObject({ bound: 'unproven', unprovenBecause: 'a toy bound' });
    expect(defineMechanismMeta(spec()).claim({}, ctx())).toMatchObject({ bound: 'proven', epsilon: 1 });
    expect(defineMechanismMeta(spec()).claim({}, ctx()).assumptions.at(-1)).toBe('one draw.');
  });

  it('builds the claim under the context’s relation when supported, else under the first supported one', () => {
    const both = defineMechanismMeta(spec({ supportsNeighbouring: ['add-remove', 'replace-one'] }));
    expect(both.claim({}, ctx({ neighbouring: 'add-remove' })).neighbouring).toBe('add-remove');
    expect(both.claim({}, ctx()).neighbouring).toBe('replace-one');
    const addRemoveOnly = defineMechanismMeta(spec({ supportsNeighbouring: ['add-remove'] }));
    expect(addRemoveOnly.claim({}, ctx()).neighbouring).toBe('add-remove');
  });
});

describe('defineMechanism', () => {
  const draw = {
    read: () => Float64Array.of(20, 0),
    draw: async <D>(
      counts: Float64Array,
      _plan: ToyPlan,
      step: ReturnType<Accountant['reserve']>,
      ctx: RunContext,
      form: { dataset(nRows: number, columns: never[]): D },
    ) => {
      meteredDiscreteLaplace(
        step,
        PARTITION,
        counts,
        parseBudget(ctx.epsilon).epsilon.inverse().mul(Rational.of(2)),
        ctx.rng,
      );
      return {
        datasets: [form.dataset(0, [])],
        diagnostics: { drawn: 1 },
        ...(ctx.seeded ? { dataHolderDiagnostics: { held: true } } : {}),
      };
    },
  };

  it('hands on the draw’s data-holder diagnostics, and none when it gives none', async () => {
    const mechanism = defineMechanism(defineMechanismMeta(spec()), draw);
    expect((await mechanism.run(table, schema, {}, ctx())).dataHolderDiagnostics).toEqual({ held: true });
    expect((await mechanism.run(table, schema, {}, ctx({ seeded: false }))).dataHolderDiagnostics).toEqual(
      {},
    );
  });

  it('without a meter or an accountant, reserves on a meter under the run’s relation', async () => {
    const mechanism = defineMechanism(
      defineMechanismMeta(spec({ supportsNeighbouring: ['replace-one', 'add-remove'] })),
      draw,
    );
    for (const relation of ['add-remove', 'replace-one'] as Neighbouring[]) {
      const release = await mechanism.drawFromTable(
        table,
        schema,
        {},
        ctx({ neighbouring: relation }),
        WHOLE_TABLES,
      );
      expect(release.claim.neighbouring).toBe(relation);
    }
    // With the run's meter, its steps are the ones reserved.
    const meter = new PrivacyMeter();
    await mechanism.run(table, schema, {}, ctx({ meter }));
    expect(meter.steps().map((step) => step.what)).toEqual(['noisy counts']);
  });

  it('runs in blocks of the rows asked for, or of the default size', async () => {
    const mechanism = defineMechanism(defineMechanismMeta(spec()), {
      ...draw,
      draw: async (counts, plan, step, ctx, form) => {
        await draw.draw(counts, plan, step, ctx, { dataset: () => null });
        return { datasets: [form.dataset(3, [])], diagnostics: {} };
      },
    });
    expect(
      (await mechanism.runInBlocks(table, schema, {}, ctx(), { blockRows: 2 })).datasets[0]!.blockRows,
    ).toBe(2);
    expect((await mechanism.runInBlocks(table, schema, {}, ctx())).datasets[0]!.blockRows).toBe(65_536);
  });
});

describe('defineStagedMechanism', () => {
  const stages = {
    read: () => 0,
    stages: () => ({
      state: null,
      stages: [],
      words: { stage: 'stage', stages: 'stages', step: 'step', finish: 'finish' },
    }),
    runStage: () => ({ buffer: new ArrayBuffer(8) }),
    finish: () => ({ datasets: [], diagnostics: {} }),
  };

  it('passes on transferables when the draw has them, and has none otherwise', () => {
    const meta = defineMechanismMeta(spec());
    const withBuffers = defineStagedMechanism(meta, {
      ...stages,
      transferables: (result) => [result.buffer],
    });
    const result = { buffer: new ArrayBuffer(8) };
    expect(withBuffers.staged.transferables!(result)).toEqual([result.buffer]);
    expect(defineStagedMechanism(meta, stages).staged).not.toHaveProperty('transferables');
  });

  it('hands on the finish’s data-holder diagnostics, and none when it gives none', async () => {
    const meta = defineMechanismMeta(spec());
    const held = defineStagedMechanism(meta, {
      ...stages,
      finish: () => ({ datasets: [], diagnostics: {}, dataHolderDiagnostics: { held: true } }),
    });
    expect((await held.run(table, schema, {}, ctx())).dataHolderDiagnostics).toEqual({ held: true });
    expect(
      (await defineStagedMechanism(meta, stages).run(table, schema, {}, ctx())).dataHolderDiagnostics,
    ).toEqual({});
  });
});
