import { describe, expect, it } from 'vitest';
import { Accountant } from '../../privacy/accountant';
import { parseBudget } from '../../privacy/budget';
import { MeterMismatchError, PrivacyMeter, type MeterStep } from '../../privacy/meter';
import { meteredDiscreteLaplace } from '../../privacy/metered/discrete-laplace';
import { Rational } from '../../rng/rational';
import { WHOLE_TABLES } from '../common/rows/dataset-form';
import { mixedTable, runContext } from '../common/testing/fixtures';
import { composedMechanism } from '../domain-composition';
import type { RunContext } from '../types';
import { defineMechanism } from './define-mechanism';
import { defineMechanismMeta } from './define-meta';

const { table, schema } = mixedTable(20);
const PARTITION = { kind: 'partition-counts' } as const;

/**
 * A toy mechanism in the shape: its plan is the number of draws (the `draws` parameter; 0 is a
 * skipped draw, a mutant) and a problem when `refuse` is set; it reserves ε/M per release and
 * draws noisy counts of two cells per release at scale 2M/ε (L1 = 2 under replace-one, so each
 * draw costs ε/M). `log` records the order of read, reserve and draw.
 */
function toy(log: string[] = []) {
  const meta = defineMechanismMeta({
    id: 'toy',
    label: 'toy',
    summary: 'toy',
    reference: 'none',
    supports: { numeric: true, categorical: true },
    params: [],
    plan: (_schema, params) => ({
      draws: params.draws === undefined ? 1 : Number(params.draws),
      problems: params.refuse === true ? ['the toy was asked to refuse.'] : [],
    }),
    accountant: (context, meter) => new Accountant(parseBudget(context.epsilon, context.delta), meter),
    reserve: (_plan, accountant, context) =>
      Array.from({ length: context.releases }, (_, i): MeterStep => {
        log.push('reserve');
        return accountant.reserve(
          `noisy counts, release ${i + 1}`,
          Accountant.split(parseBudget(context.epsilon).epsilon, context.releases),
        );
      }),
    assumptions: (plan) => [`${plan.draws} draw(s) per release.`],
    finishClaim: (claim, { reserved }) => ({
      ...claim,
      assumptions: [...claim.assumptions, `${reserved.length} steps.`],
    }),
    describe: (plan) => [`A toy of ${plan.draws} draw(s).`],
  });
  const mechanism = defineMechanism(meta, {
    read: (t) => {
      log.push('read');
      return Float64Array.of(t.nRows, 0);
    },
    draw: async (counts, plan, steps, ctx, form) => {
      const scale = parseBudget(ctx.epsilon)
        .epsilon.inverse()
        .mul(Rational.of(2 * ctx.releases));
      for (const step of steps) {
        for (let i = 0; i < plan.draws; i++) {
          log.push('draw');
          meteredDiscreteLaplace(step, PARTITION, counts, scale, ctx.rng);
        }
      }
      return { datasets: steps.map(() => form.dataset(0, [])), diagnostics: { steps: steps.length } };
    },
  });
  return { meta, mechanism };
}

const ctx = (overrides: Partial<RunContext> = {}) =>
  runContext(schema, 20, { epsilon: '1', releases: 2, ...overrides });

describe('defineMechanismMeta and defineMechanism', () => {
  it('the claim shown before the run is the claim the run returns, through the registry’s settle', async () => {
    const { meta, mechanism } = toy();
    const wrapped = composedMechanism(mechanism, meta);
    const meter = new PrivacyMeter();
    const release = await wrapped.run(table, schema, {}, ctx({ meter }));
    expect(release.claim).toEqual(wrapped.claim({}, ctx()));
    expect(release.claim.steps.map((s) => s.what)).toEqual([
      'noisy counts, release 1',
      'noisy counts, release 2',
    ]);
    expect(release.claim.assumptions.slice(-2)).toEqual(['1 draw(s) per release.', '2 steps.']);
    expect(meter.steps().map((s) => [s.charges(), s.settled()])).toEqual([
      [1, true],
      [1, true],
    ]);
    expect(release.diagnostics.steps).toBe(2);
  });

  it('reads the input, then reserves every step, then draws; run in blocks the same', async () => {
    const log: string[] = [];
    const { meta, mechanism } = toy(log);
    const wrapped = composedMechanism(mechanism, meta);
    await wrapped.run(table, schema, {}, ctx());
    expect(log).toEqual(['read', 'reserve', 'reserve', 'draw', 'draw']);
    log.length = 0;
    const blocks = await wrapped.runInBlocks!(table, schema, {}, ctx(), { blockRows: 4 });
    expect(log).toEqual(['read', 'reserve', 'reserve', 'draw', 'draw']);
    expect(blocks.datasets[0]!.blockRows).toBe(4);
  });

  it('check reports the plan’s problems, an unsupported relation and a budget it cannot read', () => {
    const { meta } = toy();
    expect(meta.check(schema, {}, ctx())).toEqual([]);
    expect(meta.check(schema, { refuse: true })).toEqual(['the toy was asked to refuse.']);
    expect(meta.check(schema, {}, ctx({ epsilon: '-1' }))).toEqual([
      "ε must be a positive number; got '-1'.",
    ]);
    expect(meta.check(schema, {}, ctx({ neighbouring: 'add-remove' }))[0]).toMatch(/add\/remove/);
  });

  it('under a relation it does not support, the claim shown is its supported relation’s, never the label chosen', () => {
    // The toy supports replace-one only (no supportsNeighbouring): its L1 = 2 holds with n public.
    const { meta } = toy();
    const shown = meta.claim({}, ctx({ neighbouring: 'add-remove' }));
    expect(shown.neighbouring).toBe('replace-one');
    expect(shown).toEqual(meta.claim({}, ctx()));
  });

  it('describe comes from the plan', () => {
    expect(toy().meta.describe!({ draws: 3 }, ctx())).toEqual(['A toy of 3 draw(s).']);
  });

  it('run refuses a plan with problems with an InputError before any reservation; claim still states the plan', async () => {
    const log: string[] = [];
    const { meta, mechanism } = toy(log);
    await expect(mechanism.run(table, schema, { refuse: true }, ctx())).rejects.toMatchObject({
      name: 'InputError',
      message: 'toy cannot run: the toy was asked to refuse.',
    });
    expect(log).toEqual([]);
    expect(meta.claim({ refuse: true }, ctx()).epsilon).toBe(1);
  });

  it('a run whose draw is skipped is refused by the registry’s settle, releasing nothing', async () => {
    const { meta, mechanism } = toy();
    const wrapped = composedMechanism(mechanism, meta);
    await expect(wrapped.run(table, schema, { draws: 0 }, ctx())).rejects.toBeInstanceOf(MeterMismatchError);
  });

  it('drawFrom runs on an input already read and on a given accountant, with the same claim', async () => {
    const log: string[] = [];
    const { meta, mechanism } = toy(log);
    const accountant = new Accountant(parseBudget('1'));
    const release = await mechanism.drawFrom(
      Float64Array.of(20, 0),
      schema,
      {},
      ctx(),
      WHOLE_TABLES,
      accountant,
    );
    expect(log).toEqual(['reserve', 'reserve', 'draw', 'draw']);
    expect(accountant.spent().epsilon.equals(Rational.ONE)).toBe(true);
    expect(release.claim).toEqual(meta.claim({}, ctx()));
  });
});
