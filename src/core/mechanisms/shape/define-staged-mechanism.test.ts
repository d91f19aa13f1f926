import { describe, expect, it } from 'vitest';
import { Accountant } from '../../privacy/accountant';
import { parseBudget } from '../../privacy/budget';
import { MeterMismatchError, PrivacyMeter, type StepTicket } from '../../privacy/meter';
import { meteredDiscreteLaplace } from '../../privacy/metered/discrete-laplace';
import { SeededRng } from '../../rng';
import { Rational } from '../../rng/rational';
import type { Table } from '../../table/types';
import { mixedTable, runContext } from '../common/testing/fixtures';
import { composedMechanism } from '../domain-composition';
import { runStagesInOneThread } from '../staged-run';
import type { Mechanism, RunContext, StagedRun } from '../types';
import { defineMechanismMeta } from './define-meta';
import { defineStagedMechanism } from './define-staged-mechanism';

const { table, schema } = mixedTable(20);
const PARTITION = { kind: 'partition-counts' } as const;

/** A stage: one release's noisy counts, drawn `draws` times on the release's step (0: a skipped draw, a mutant). */
interface ToyStage {
  release: number;
  draws: number;
  ticket: StepTicket;
  counts: number[];
  scale: { num: bigint; den: bigint };
}

/**
 * A toy staged mechanism: its plan is the number of draws per stage (`draws`, default 1); it reserves
 * ε/M per release and runs one stage per release, which draws discrete Laplace noise on two cells at
 * scale 2M/ε (L1 = 2 under replace-one, so one draw costs ε/M); the finish makes a one-column table
 * of each release's noisy counts and adds one value from ctx.rng (so the finish's generator shows).
 */
function toy(log: string[] = []) {
  const meta = defineMechanismMeta({
    id: 'staged-toy',
    label: 'staged toy',
    summary: 'toy',
    reference: 'none',
    supports: { numeric: true, categorical: true },
    params: [],
    plan: (_schema, params) => ({
      draws: params.draws === undefined ? 1 : Number(params.draws),
      problems: params.refuse === true ? ['the toy was asked to refuse.'] : [],
    }),
    accountant: (context, meter) => new Accountant(parseBudget(context.epsilon, context.delta), meter),
    reserve: (_plan, accountant, context) => {
      log.push('reserve');
      const share = Accountant.split(parseBudget(context.epsilon).epsilon, context.releases);
      return Array.from({ length: context.releases }, (_, i) =>
        accountant.reserve(`noisy counts, release ${i + 1}`, share),
      );
    },
    assumptions: (plan) => [`${plan.draws} draw(s) per stage.`],
    finishClaim: (claim, { reserved }) => ({
      ...claim,
      assumptions: [...claim.assumptions, `${reserved.length} steps.`],
    }),
  });
  const mechanism = defineStagedMechanism(meta, {
    read: (t) => {
      log.push('read');
      return [t.nRows, 0];
    },
    stages: (counts, plan, steps, ctx) => {
      log.push('stages');
      const scale = parseBudget(ctx.epsilon)
        .epsilon.inverse()
        .mul(Rational.of(2 * ctx.releases));
      return {
        state: { releases: steps.length },
        stages: steps.map((step, release) => ({
          spec: {
            release,
            draws: plan.draws,
            ticket: step.ticket(),
            counts,
            scale: { num: scale.num, den: scale.den },
          } satisfies ToyStage,
          seed: ctx.rng.seeded ? `toy-${ctx.rng.nextUint32()}` : null,
        })),
        words: { stage: 'stage', stages: 'stages', step: 'draw', finish: 'finish' },
      };
    },
    runStage: (spec, rng, _progress, _signal, _shared, meter) => {
      let noisy: number[] = [...spec.counts];
      for (let i = 0; i < spec.draws; i++) {
        noisy = Array.from(
          meteredDiscreteLaplace(
            meter!.step(spec.ticket),
            PARTITION,
            Float64Array.from(spec.counts),
            Rational.of(spec.scale.num, spec.scale.den),
            rng,
          ),
        );
      }
      return { release: spec.release, noisy };
    },
    finish: (state, results, ctx, claim) => ({
      datasets: results.map((result): Table => ({
        nRows: 3,
        columns: [
          {
            kind: 'numeric',
            name: 'noisy',
            values: Float64Array.of(...result.noisy, ctx.rng.nextFloat()),
            missing: new Uint8Array(3),
          },
        ],
      })),
      diagnostics: { releases: state.releases, claimedEpsilon: claim.epsilon },
    }),
  });
  return { meta, mechanism };
}

const ctx = (overrides: Partial<RunContext> = {}) =>
  runContext(schema, 20, { epsilon: '1', releases: 2, rng: new SeededRng(7), ...overrides });

/** The staged run as the studio's workers run it: each stage's spec and result structured-cloned. */
function throughWorkers(mechanism: Mechanism, run: RunContext) {
  const staged = mechanism.staged as StagedRun;
  const accountant = new Accountant(parseBudget(run.epsilon, run.delta));
  const planned = staged.plan(table, schema, {}, run, accountant);
  const results = planned.stages.map((stage) =>
    structuredClone(
      staged.runStage(
        structuredClone(stage.spec),
        new SeededRng(stage.seed!),
        () => {},
        run.signal,
        planned.shared,
      ),
    ),
  );
  return { planned, release: staged.finish(planned.plan, results, run, accountant) };
}

describe('defineStagedMechanism', () => {
  it('the claim shown before the run is the claim the run returns, every step charged and settled', async () => {
    const { meta, mechanism } = toy();
    const wrapped = composedMechanism(mechanism, meta);
    const meter = new PrivacyMeter();
    const release = await wrapped.run(table, schema, {}, ctx({ meter }));
    expect(release.claim).toEqual(wrapped.claim({}, ctx()));
    expect(release.claim.steps.map((s) => s.what)).toEqual([
      'noisy counts, release 1',
      'noisy counts, release 2',
    ]);
    expect(release.claim.assumptions.slice(-2)).toEqual(['1 draw(s) per stage.', '2 steps.']);
    expect(meter.steps().map((s) => [s.charges(), s.settled()])).toEqual([
      [1, true],
      [1, true],
    ]);
    // The finish sees the claim it returns.
    expect(release.diagnostics.claimedEpsilon).toBe(release.claim.epsilon);
    expect(release.diagnostics.releases).toBe(2);
  });

  it('plans in order plan → read → reserve → stages, and each stage carries its step’s ticket', () => {
    const log: string[] = [];
    const { meta, mechanism } = toy(log);
    const wrapped = composedMechanism(mechanism, meta);
    const { planned } = throughWorkers(wrapped, ctx());
    expect(log).toEqual(['read', 'reserve', 'stages']);
    const tickets = planned.stages.map((stage) => (stage.spec as ToyStage).ticket);
    expect(tickets.map((ticket) => ticket.what)).toEqual([
      'noisy counts, release 1',
      'noisy counts, release 2',
    ]);
    expect(new Set(tickets.map((ticket) => ticket.id)).size).toBe(2);
    expect(tickets.map((ticket) => ticket.neighbouring)).toEqual(['replace-one', 'replace-one']);
  });

  it('run is runStagesInOneThread, and gives the release the workers give for the same seed', async () => {
    const { mechanism } = toy();
    const direct = await mechanism.run(table, schema, {}, ctx({ meter: new PrivacyMeter() }));
    const meter = new PrivacyMeter();
    const oneThread = await runStagesInOneThread(
      mechanism.staged,
      table,
      schema,
      {},
      ctx({ meter }),
      new Accountant(parseBudget('1'), meter),
    );
    expect(oneThread).toEqual(direct);
    const { meta } = toy();
    const { release } = throughWorkers(composedMechanism(mechanism, meta), ctx());
    expect(release.datasets).toEqual(direct.datasets);
    expect(release.claim).toEqual(direct.claim);
  });

  it('a skipped draw is refused by the registry’s settle, on one thread and through workers', async () => {
    const { meta, mechanism } = toy();
    const wrapped = composedMechanism(mechanism, meta);
    await expect(wrapped.run(table, schema, { draws: 0 }, ctx())).rejects.toBeInstanceOf(MeterMismatchError);
    const staged = wrapped.staged!;
    const run = ctx();
    const accountant = new Accountant(parseBudget('1'));
    const planned = staged.plan(table, schema, { draws: 0 }, run, accountant);
    const results = planned.stages.map((stage) =>
      staged.runStage(stage.spec, new SeededRng(stage.seed!), () => {}, run.signal, planned.shared),
    );
    expect(() => staged.finish(planned.plan, results, run, accountant)).toThrow(MeterMismatchError);
  });

  it('a plan with problems is refused with an InputError before anything is read or reserved', async () => {
    const log: string[] = [];
    const { mechanism } = toy(log);
    await expect(mechanism.run(table, schema, { refuse: true }, ctx())).rejects.toMatchObject({
      name: 'InputError',
      message: 'staged-toy cannot run: the toy was asked to refuse.',
    });
    expect(log).toEqual([]);
  });
});
