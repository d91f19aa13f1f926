/**
 * Plausible deniability through the registry (one thread, and staged as the studio's workers run it),
 * privacy meter settled: its one by-position step is charged part by part (the entropies in one draw,
 * the m conditional tables, and the privacy test once per chunk of slots), each part exactly as planned;
 * the test's charge comes from its own k, t, ε0 and fallback coin, so a test without its coin, with k − t
 * for k, or without noise refuses the run; unseeded chunks get no seed (a fresh CryptoRng each); the run
 * stops when cancelled from its first progress report, also staged.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Accountant } from '../../privacy/accountant';
import { parseBudget } from '../../privacy/budget';
import { MeterMismatchError, PrivacyMeter, StageMeter } from '../../privacy/meter';
import * as metered from '../../privacy/metered';
import { plausibleDeniabilityTestCost } from '../../privacy/plausible-deniability-cost';
import { CryptoRng } from '../../rng/crypto-rng';
import { parseRational, Rational } from '../../rng/rational';
import { SeededRng } from '../../rng/seeded-rng';
import { mixedTable, runContext } from '../common/testing/fixtures';
import { resolveParams } from '../params';
import { getMechanism } from '../registry';
import type { RunContext } from '../types';
import type { PdChunkSpec } from './index';
import { completePlan } from './meta';
import { seedTestOf } from './plan';

const N = 1000;
const { table, schema } = mixedTable(N);
const pd = getMechanism('plausible-deniability')!;
const params = resolveParams(pd, { bins: 2, modelEpsilon: 1 });
const context = (overrides: Partial<RunContext> = {}) =>
  runContext(schema, N, { epsilon: '1200', delta: '1e-6', rng: new SeededRng(5), ...overrides });

afterEach(() => {
  vi.restoreAllMocks();
});

describe('plausible deniability on the privacy meter, through the registry', () => {
  it('charges the entropies (1 draw), the 3 tables and each chunk’s tests, every part exactly its plan', async () => {
    const meter = new PrivacyMeter();
    const ctx = context({ meter, releases: 2 });
    const release = await pd.run(table, schema, params, ctx);
    const [step] = meter.steps();
    expect(meter.steps()).toHaveLength(1);
    // Two releases of 1,000 rows: one chunk each, so the test part is charged twice.
    expect([0, 1, 2].map((i) => [step!.part(i).charges(), step!.part(i).settled()])).toEqual([
      [1, true],
      [3, true],
      [2, true],
    ]);
    expect(step!.settled()).toBe(true);
    // The plan's numbers as the claim states them: T = M·n, k, t and ε0, and the seed part at T times
    // the test's own cost.
    const plan = completePlan(params, { ...ctx, schema });
    expect([plan.draws.draws, plan.draws.k, plan.draws.t]).toEqual([2000, 39, 8]);
    expect(release.claim.steps[0]!.what).toContain(
      `T = 2,000 seed-based draws from 500 seed rows, each (ε = 0.6, δ = `,
    );
    expect(release.claim.steps[0]!.what).toContain('with k = 39, t = 8, ε0 = ');
    const cost = plausibleDeniabilityTestCost(seedTestOf(plan));
    const seedPart = step!.part(2).charged();
    expect(seedPart.notion).toBe('approx-dp');
    if (seedPart.notion === 'approx-dp') {
      expect(seedPart.epsilon.equals(cost.epsilon.mul(Rational.of(2000)))).toBe(true);
      expect(seedPart.delta.equals(plan.draws.totalDelta)).toBe(true);
      expect(seedPart.epsilon.compare(Rational.of(1200))).toBeLessThanOrEqual(0);
    }
    expect(release.diagnostics).toMatchObject({ draws: 2000, k: 39, t: 8 });
    // ε0 shown to the user is rounded up, never below the exact ε0 the test spends.
    const shown = (release.diagnostics as { testEpsilon: number }).testEpsilon;
    expect(parseRational(String(shown)).compare(plan.draws.testEpsilon)).toBeGreaterThanOrEqual(0);
  });

  for (const [mutant, change] of [
    ['the test without its fallback coin', { fallbackNum: 0, fallbackDen: 1 }],
    ['the test’s k taken as k − t', 'k - t'],
  ] as const) {
    it(`refuses ${mutant}`, async () => {
      const real = metered.meteredPlausibleDeniabilityTest;
      vi.spyOn(metered, 'meteredPlausibleDeniabilityTest').mockImplementation((step, test, draws) =>
        real(step, change === 'k - t' ? { ...test, k: test.k - test.t } : { ...test, ...change }, draws),
      );
      await expect(pd.run(table, schema, params, context())).rejects.toBeInstanceOf(MeterMismatchError);
    });
  }

  it('refuses a test drawn without noise (not through the metered primitive)', async () => {
    vi.spyOn(metered, 'meteredPlausibleDeniabilityTest').mockImplementation(
      (_step, test) => (rng, pickSeed) => pickSeed(rng) >= test.k,
    );
    await expect(pd.run(table, schema, params, context())).rejects.toBeInstanceOf(MeterMismatchError);
  });

  it('gives unseeded chunks no seed (each a fresh CryptoRng) and seeded chunks distinct seeds from the run’s generator', () => {
    const staged = pd.staged!;
    const stagesOf = (rng: RunContext['rng'], seeded: boolean) => {
      const ctx = context({ rng, seeded, releases: 3 });
      return staged.plan(table, schema, params, ctx, new Accountant(parseBudget('3600', '1e-6'))).stages;
    };
    const unseeded = stagesOf(new CryptoRng(), false);
    expect(unseeded).toHaveLength(3);
    // Two unseeded chunks never share a seed: they have none, so each makes its own CryptoRng.
    expect(unseeded.map((s) => s.seed)).toEqual([null, null, null]);
    const seeded = stagesOf(new SeededRng('chunks'), true);
    const seeds = seeded.map((s) => s.seed);
    expect(seeds.every((s) => typeof s === 'string')).toBe(true);
    expect(new Set(seeds).size).toBe(3);
    expect(stagesOf(new SeededRng('chunks'), true).map((s) => s.seed)).toEqual(seeds);
  });

  it('stops with an AbortError when cancelled from its first progress report', async () => {
    const signal = { aborted: false };
    const run = pd.run(
      table,
      schema,
      params,
      context({
        signal,
        progress: () => {
          signal.aborted = true;
        },
      }),
    );
    await expect(run).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('stops a staged chunk with an AbortError when cancelled from its first progress report', () => {
    const staged = pd.staged!;
    const ctx = context();
    const planned = staged.plan(table, schema, params, ctx, new Accountant(parseBudget('1200', '1e-6')));
    const signal = { aborted: false };
    const stage = planned.stages[0]!;
    expect(() =>
      staged.runStage(
        stage.spec as PdChunkSpec,
        new SeededRng(1),
        () => {
          signal.aborted = true;
        },
        signal,
        planned.shared,
        new StageMeter(),
      ),
    ).toThrow(expect.objectContaining({ name: 'AbortError' }));
  });
});
