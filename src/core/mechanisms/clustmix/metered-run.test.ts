/**
 * ClustMix through the registry (the path of the CLI and the studio), privacy meter settled: each Lloyd
 * iteration, the final release and the adapt moments are their own step, charged by their own draws
 * exactly the ρ the claim states; noise at another scale or a skipped draw refuses the run; the run stops
 * when cancelled from its first progress report.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MeterMismatchError, PrivacyMeter } from '../../privacy/meter';
import * as metered from '../../privacy/metered';
import { roundUpRational } from '../../privacy/round-up';
import { Rational } from '../../rng/rational';
import { SeededRng } from '../../rng/seeded-rng';
import { mixedTable, runContext } from '../common/testing/fixtures';
import { resolveParams } from '../params';
import { getMechanism } from '../registry';
import type { RunContext } from '../types';
import { readClustmixSettings } from './params';
import { buildClustmixPlan, clustmixSteps } from './plan';

const N = 600;
const { table, schema } = mixedTable(N);
const clustmix = getMechanism('clustmix')!;
const context = (overrides: Partial<RunContext> = {}) =>
  runContext(schema, N, { epsilon: '1', delta: '1e-6', rng: new SeededRng(11), ...overrides });

afterEach(() => {
  vi.restoreAllMocks();
});

describe('ClustMix on the privacy meter, through the registry', () => {
  it('charges each iteration (counts, sums), the final release (counts, sums, squares) and the moments (A, b) their planned ρ', async () => {
    for (const label of ['', 'sex']) {
      const params = resolveParams(clustmix, { label, adaptShare: 0.2, kipSteps: 5 });
      const meter = new PrivacyMeter();
      const ctx = context({ meter });
      const release = await clustmix.run(table, schema, params, ctx);
      const plan = buildClustmixPlan(schema, readClustmixSettings(params), ctx);
      const T = plan.settings.iterations;
      expect(T).toBe(4);
      const draws = [...Array<number>(T).fill(2), 3, ...(label ? [2] : [])];
      expect(meter.steps().map((s) => [s.charges(), s.settled()])).toEqual(draws.map((d) => [d, true]));
      // The claim states each step's ρ as planned: ρ/… of the iterations, the final release's and the
      // moments' shares, and what the meter charged is exactly that plan.
      const planned = clustmixSteps(plan);
      expect(release.claim.steps.map((s) => [s.what, s.rho])).toEqual(
        planned.map((p) => [p.what, roundUpRational(p.rho)]),
      );
      meter.steps().forEach((step, i) => {
        const charged = step.charged();
        expect(charged.notion === 'zcdp' && charged.rho.equals(planned[i]!.rho)).toBe(true);
      });
      const total = planned.reduce((sum, p) => sum.add(p.rho), Rational.ZERO);
      expect(total.equals(plan.budget.rho)).toBe(true);
      expect(planned[0]!.rho.equals(plan.budget.iterationRho)).toBe(true);
      expect(planned[T]!.rho.equals(plan.budget.finalRho)).toBe(true);
    }
  });

  it('refuses a run whose iterations draw the final release’s (smaller) noise', async () => {
    const real = metered.meteredDiscreteGaussian;
    const plan = buildClustmixPlan(schema, readClustmixSettings(resolveParams(clustmix, {})), context());
    vi.spyOn(metered, 'meteredDiscreteGaussian').mockImplementation(
      (step, query, answers, sigma2, rng, signal) => {
        // An iteration's counts drawn at the final release's scale: more ρ than the iteration planned.
        const final = plan.budget.finalNoise.countSigma2;
        const mutated = step.what.includes('iteration') && query.kind === 'partition-counts' ? final : sigma2;
        return real(step, query, answers, mutated, rng, signal);
      },
    );
    await expect(clustmix.run(table, schema, resolveParams(clustmix, {}), context())).rejects.toBeInstanceOf(
      MeterMismatchError,
    );
  });

  it('refuses a run whose final release skips its noise', async () => {
    const real = metered.meteredDiscreteGaussian;
    vi.spyOn(metered, 'meteredDiscreteGaussian').mockImplementation(
      (step, query, answers, sigma2, rng, signal) =>
        step.what.includes('final') && query.kind === 'ball-sums'
          ? Float64Array.from(answers)
          : real(step, query, answers, sigma2, rng, signal),
    );
    await expect(clustmix.run(table, schema, resolveParams(clustmix, {}), context())).rejects.toBeInstanceOf(
      MeterMismatchError,
    );
  });

  it('stops with an AbortError when cancelled from its first progress report, before any step is charged', async () => {
    const signal = { aborted: false };
    const meter = new PrivacyMeter();
    const run = clustmix.run(
      table,
      schema,
      resolveParams(clustmix, { label: 'sex', adaptShare: 0.2 }),
      context({
        meter,
        signal,
        progress: () => {
          signal.aborted = true;
        },
      }),
    );
    await expect(run).rejects.toMatchObject({ name: 'AbortError' });
    expect(meter.steps().every((s) => s.charges() === 0)).toBe(true);
  });
});
