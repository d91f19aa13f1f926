import { describe, expect, it } from 'vitest';
import { Rational } from '../rng/rational';
import { Accountant } from './accountant';
import { isSpentBudgetError } from './spent-budget-error';
import { MeterMismatchError, PrivacyMeter, StageMeter } from './meter';
import { ZcdpAccountant } from './zcdp-accountant';

const r = (num: number, den = 1) => Rational.of(num, den);
const zcdp = (rho: Rational) => ({ notion: 'zcdp' as const, rho });
const pure = (epsilon: Rational) => ({ notion: 'approx-dp' as const, epsilon, delta: Rational.ZERO });

function zcdpRun(meter = new PrivacyMeter()) {
  const accountant = new ZcdpAccountant(r(1), r(1, 10 ** 6), meter);
  const a = accountant.reserve('one-ways', r(1, 4));
  const b = accountant.reserve('rounds', r(3, 4));
  return { meter, accountant, a, b };
}

describe('PrivacyMeter', () => {
  it('registers each reservation as a planned step, in order: the claim’s steps are the meter’s', () => {
    const { meter, accountant, a, b } = zcdpRun();
    expect(meter.steps()).toEqual([a, b]);
    expect([a.id, a.what, b.id, b.what]).toEqual([0, 'one-ways', 1, 'rounds']);
    expect(a.planned).toEqual(zcdp(r(1, 4)));
    expect(accountant.steps()).toEqual([
      { what: 'one-ways', rho: r(1, 4) },
      { what: 'rounds', rho: r(3, 4) },
    ]);
    expect(accountant.claim([]).steps.map((s) => s.what)).toEqual(meter.steps().map((s) => s.what));
  });

  it('settles when every step was charged exactly its plan, in any number of draws', () => {
    const { meter, accountant, a, b } = zcdpRun();
    a.charge(zcdp(r(1, 8)));
    a.charge(zcdp(r(1, 8)));
    b.charge(zcdp(r(3, 4)));
    expect(a.charges()).toBe(2);
    expect(() => meter.settle(accountant.claim([]).steps)).not.toThrow();
  });

  it('refuses a step charged less than planned (a skipped draw), naming the step, plan and charge', () => {
    const { meter, a, b } = zcdpRun();
    a.charge(zcdp(r(1, 4)));
    b.charge(zcdp(r(1, 2)));
    let error: unknown;
    try {
      meter.settle();
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(MeterMismatchError);
    expect(isSpentBudgetError(error)).toBe(true);
    expect((error as Error).message).toBe(
      'Privacy meter: step 2 ("rounds") was planned at ρ = 0.75 but charged ρ = 0.5 in 1 draw; nothing is ' +
        'released. The run’s noise does not match its claim.',
    );
  });

  it('refuses a step that was never charged', () => {
    const { meter, a } = zcdpRun();
    a.charge(zcdp(r(1, 4)));
    expect(() => meter.settle()).toThrow(
      'step 2 ("rounds") was planned at ρ = 0.75 but charged ρ = 0 in 0 draws',
    );
  });

  it('refuses a charge past the plan before it is recorded (the draw never happens)', () => {
    const { a } = zcdpRun();
    a.charge(zcdp(r(1, 8)));
    expect(() => a.charge(zcdp(r(1, 4)))).toThrow(MeterMismatchError);
    expect(() => a.charge(zcdp(r(1, 4)))).toThrow(
      'would be charged ρ = 0.375, more than its planned ρ = 0.25',
    );
    expect(a.charged()).toEqual(zcdp(r(1, 8)));
  });

  it('refuses a charge of the other notion', () => {
    const { a } = zcdpRun();
    expect(() => a.charge(pure(r(1)))).toThrow('a approx-dp cost cannot be charged to a zcdp step');
  });

  it('checks (ε, δ) steps coordinate by coordinate', () => {
    const meter = new PrivacyMeter();
    const accountant = new Accountant({ epsilon: r(2), delta: r(1, 1000) }, meter);
    const step = accountant.reserve('counts', r(1), r(1, 1000));
    expect(() => step.charge({ notion: 'approx-dp', epsilon: r(1, 2), delta: r(2, 1000) })).toThrow(
      MeterMismatchError,
    );
    step.charge({ notion: 'approx-dp', epsilon: r(1), delta: r(1, 2000) });
    expect(() => meter.settle()).toThrow('planned at ε = 1, δ = 0.001 but charged ε = 1, δ = 0.0005');
    step.charge({ notion: 'approx-dp', epsilon: Rational.ZERO, delta: r(1, 2000) });
    expect(() => meter.settle(accountant.claim([]).steps)).not.toThrow();
  });

  it('refuses a claim that lists other steps than the meter planned', () => {
    const { meter, accountant, a, b } = zcdpRun();
    a.charge(zcdp(r(1, 4)));
    b.charge(zcdp(r(3, 4)));
    const claimed = accountant.claim([]).steps;
    expect(() => meter.settle(claimed.slice(1))).toThrow('1 claimed, 2 planned');
    expect(() => meter.settle([claimed[0]!, { ...claimed[1]!, what: 'other' }])).toThrow(
      'step 2 is "other" in the claim, "rounds" planned',
    );
    expect(() => meter.settle([claimed[0]!, { ...claimed[1]!, rho: 0.5 }])).toThrow(
      'step 2 ("rounds") states another cost than its planned ρ = 0.75',
    );
  });

  it('an accountant made on a meter, or attached before its first step, registers there; not after', () => {
    const meter = new PrivacyMeter();
    const accountant = new Accountant({ epsilon: r(1), delta: Rational.ZERO });
    accountant.attachMeter(meter);
    accountant.reserve('a', r(1, 2));
    expect(meter.steps().map((s) => s.what)).toEqual(['a']);
    expect(() => accountant.attachMeter(new PrivacyMeter())).toThrow('cannot move to another privacy meter');
    expect(accountant.meter).toBe(meter);
  });

  it('takes a stage’s charges, made elsewhere from the step’s ticket, after a structured clone', () => {
    const { meter, a, b } = zcdpRun();
    const ticket = structuredClone(b.ticket());
    const stage = new StageMeter();
    const handle = stage.step(ticket);
    handle.charge(zcdp(r(1, 4)));
    handle.charge(zcdp(r(1, 2)));
    a.charge(zcdp(r(1, 4)));
    expect(() => meter.settle()).toThrow('step 2 ("rounds")');
    meter.absorb(structuredClone(stage.charges()));
    expect(() => meter.settle()).not.toThrow();
    expect(() => meter.absorb([{ step: 7, notion: 'zcdp', values: ['1/2'] }])).toThrow(
      'step 8, which was never planned',
    );
  });

  it('a stage refuses a charge past its ticket’s plan before the draw, after a structured clone', () => {
    const { b } = zcdpRun();
    const handle = new StageMeter().step(structuredClone(b.ticket()));
    handle.charge(zcdp(r(1, 2)));
    expect(() => handle.charge(zcdp(r(1, 2)))).toThrow(MeterMismatchError);
    expect(() => handle.charge(zcdp(r(1, 4)))).not.toThrow();
  });

  it('refuses a claim whose step states another δ than planned', () => {
    const meter = new PrivacyMeter();
    const accountant = new Accountant({ epsilon: r(1), delta: r(1, 1000) }, meter);
    const step = accountant.reserve('list', r(1, 2), r(1, 10 ** 6));
    step.charge({ notion: 'approx-dp', epsilon: r(1, 2), delta: r(1, 10 ** 6) });
    const claimed = accountant.claim([]).steps;
    expect(() => meter.settle(claimed)).not.toThrow();
    expect(() => meter.settle([{ ...claimed[0]!, delta: 1e-7 }])).toThrow('states another cost');
  });
});
