import { describe, expect, it } from 'vitest';
import { InputError } from '../../table/errors';
import type { Schema } from '../../table/types';
import { runContext } from '../common/testing/fixtures';
import { resolveParams } from '../params';
import { clustmix } from './index';
import { CLUSTMIX_PARAMS, readClustmixSettings } from './params';
import { parseRational } from '../../rng/rational';
import { BudgetError } from '../../privacy/budget';
import {
  adaptRuns,
  buildClustmixPlan,
  clustmixAccountant,
  clustmixProblems,
  DELTA_ZERO_PROBLEM,
  reserveClustmixBudget,
} from './plan';
import { RecordingZcdpAccountant } from './testing';

// The limits of check at their boundaries, the automatic K in the K·d limit, the refusals before a
// reservation, and when the adapt step runs.

/** One categorical column of `categories` declared categories: d = categories + 1 (its missing part). */
function codes(categories: number): Schema {
  return {
    version: 1,
    missing: [''],
    columns: [
      {
        name: 'code',
        type: 'categorical',
        categories: Array.from({ length: categories }, (_, i) => `c${i}`),
        source: 'declared',
      },
    ],
  };
}
const defaults = resolveParams(clustmix, {});

describe('clustmix check limits', () => {
  it('accepts d = 5,000 coordinates exactly (the limit refuses 5,001 in check.test.ts)', () => {
    expect(clustmix.check(codes(4999), defaults)).toEqual([]);
  });

  it('refuses a schema whose only column is the label, and a plan whose label is not a column', () => {
    const onlyLabel = resolveParams(clustmix, { label: 'code' });
    expect(clustmix.check(codes(3), onlyLabel)).toEqual([
      'needs at least one column besides the label to synthesize.',
    ]);
    const unknown = readClustmixSettings(resolveParams(clustmix, { label: 'colour' }));
    expect(() => buildClustmixPlan(codes(3), unknown, runContext(codes(3), 1000, { delta: '1e-4' }))).toThrow(
      'The label `colour` is not a column of the schema: name a categorical column or leave it empty.',
    );
  });

  it('states no K·d problem beside another problem: K is not planned then', () => {
    // d = 5,001 is refused; with n = 10⁶ at ε = 10 the automatic K would be 500, K·d far above 10⁶.
    const wide = codes(5000);
    expect(
      clustmix.check(wide, defaults, runContext(wide, 1_000_000, { epsilon: '10', delta: '1e-6' })),
    ).toEqual([
      'The encoded rows have 5,001 coordinates, above the limit of 5,000: leave out columns or categories.',
    ]);
  });

  it('makes no accountant for δ = 0: zCDP gives no pure ε-DP guarantee', () => {
    const make = () => clustmixAccountant({ epsilon: '1', delta: 0 });
    expect(make).toThrow(BudgetError);
    expect(make).toThrow(DELTA_ZERO_PROBLEM);
  });

  it('checks a schema before the data is loaded (no context): no mixture is planned and nothing is refused', () => {
    expect(clustmix.check(codes(3), defaults)).toEqual([]);
    expect(clustmix.check(codes(3), resolveParams(clustmix, { clusters: 7 }))).toEqual([]);
  });

  it('applies the K·d limit to the automatic K once n and the budget are known, not with δ = 0', () => {
    // d = 2,500; n = 10⁶ at ε = 10 makes ⌊n/(2·l_min)⌋ far above 500, so K = 500 and K·d = 1.25·10⁶.
    const wide = codes(2499);
    const at = (delta: string | number) => runContext(wide, 1_000_000, { epsilon: '10', delta });
    expect(clustmix.check(wide, defaults, at('1e-6'))).toEqual([
      'K·d = 500·2,500 is above the limit of 1,000,000: choose fewer clusters or columns.',
    ]);
    // Without a usable budget K is unknown: only δ's own problem is stated.
    expect(clustmix.check(wide, defaults, at(0))).toEqual([
      'clustmix needs δ > 0 (zero-concentrated DP gives no pure ε-DP guarantee): set δ, e.g. 1/n.',
    ]);
    // An unreadable ε is the budget form's to report: the mechanism's own problems say nothing of it.
    expect(
      clustmixProblems(wide, defaults, runContext(wide, 1_000_000, { epsilon: 'abc', delta: '1e-6' })),
    ).toEqual([]);
  });

  it('refuses to claim a plan with problems, with check’s sentences, as an InputError', () => {
    const badShares = resolveParams(clustmix, { approxShare: 0.6, adaptShare: 0.4 });
    const claim = () => clustmix.claim(badShares, runContext(codes(3), 1000, { delta: '1e-4' }));
    expect(claim).toThrow(InputError);
    expect(claim).toThrow(
      'clustmix cannot run: approxShare + adaptShare must be below 1 so that the final release gets a share of ρ; got 0.6 + 0.4.',
    );
  });
});

describe('clustmix adapt step', () => {
  it('runs only with a label, a positive share, α < 1 and optimisation steps', () => {
    const base = { label: 'code', adaptShare: 0.2, alpha: 0.5, kipSteps: 10 };
    expect(adaptRuns(readClustmixSettings(base))).toBe(true);
    for (const off of [{ label: '' }, { adaptShare: 0 }, { alpha: 1 }, { kipSteps: 0 }])
      expect(adaptRuns(readClustmixSettings({ ...base, ...off })), JSON.stringify(off)).toBe(false);
  });
});

describe('clustmix with iterations but no share for them', () => {
  it('reserves no iteration step and gives the final release the whole ρ', () => {
    // approxShare = 0 with T = 4 iterations: ρ_iteration = 0 buys no noise, so no iteration is released
    // (the centroids stay at their public start) and the final release gets ρ.
    const schema = codes(3);
    const settings = readClustmixSettings(resolveParams(clustmix, { approxShare: 0 }));
    const plan = buildClustmixPlan(schema, settings, runContext(schema, 1000, { delta: '1e-4' }));
    expect(plan.settings.iterations).toBe(4);
    expect(plan.budget.iterationNoise).toBeNull();
    expect(plan.budget.finalRho.equals(plan.budget.rho)).toBe(true);
    const accountant = new RecordingZcdpAccountant(plan.budget.rho, parseRational('1e-4'));
    const steps = reserveClustmixBudget(accountant, plan);
    expect(steps.iterations).toEqual([]);
    expect(steps.moments).toBeNull();
    expect(steps.final).toBeDefined();
    expect(accountant.reserved.map((s) => s.what)).toEqual([
      `noisy counts and clipped residual sums of ${plan.clusters} clusters and squared norms (final mixture)`,
    ]);
  });
});

describe('clustmix settings', () => {
  it('reads each setting left out as that parameter’s own default, by its name', () => {
    const settings = readClustmixSettings({});
    for (const spec of CLUSTMIX_PARAMS)
      expect([spec.name, settings[spec.name as keyof typeof settings]]).toEqual([spec.name, spec.default]);
    // The numeric defaults differ from one another, so a setting read under another name would show.
    const numbers = Object.values(settings).filter((value) => typeof value === 'number');
    expect(new Set(numbers).size).toBeGreaterThan(8);
  });

  it('trims the label, reads numbers given as text, and takes the centre-only spread only when asked', () => {
    expect(readClustmixSettings({ label: '  sex ', clusters: '12' })).toMatchObject({
      label: 'sex',
      clusters: 12,
    });
    expect(readClustmixSettings({ spread: 'centroid' }).spread).toBe('centroid');
    expect(readClustmixSettings({ spread: 'other' }).spread).toBe('gaussian');
  });
});
