import { describe, expect, it } from 'vitest';
import { Accountant } from './accountant';
import { parseBudget } from './budget';
import { MeterMismatchError, PrivacyMeter, StageMeter } from './meter';
import { Rational } from '../rng/rational';

const cost = (epsilon: number, delta = 0) => ({
  notion: 'approx-dp' as const,
  epsilon: Rational.of(epsilon),
  delta: Rational.of(delta),
});

describe('a by-position parallel step on the meter: one handle per part', () => {
  const plan = () => {
    const meter = new PrivacyMeter();
    const accountant = new Accountant(parseBudget('3', '1e-3'), meter);
    const step = accountant.reserveParallel(
      'three parts',
      [
        { epsilon: Rational.of(1) },
        { epsilon: Rational.of(2) },
        { epsilon: Rational.of(3), delta: Rational.of(1, 10_000) },
      ],
      'by-position',
    );
    return { meter, step, accountant };
  };

  it('settles when every part is charged its own plan, and its cost is the parts’ largest', () => {
    const { meter, step, accountant } = plan();
    step.part(0).charge(cost(1));
    step.part(1).charge(cost(1));
    step.part(1).charge(cost(1));
    const stage = new StageMeter();
    stage.step(step.part(2).ticket()).charge({ ...cost(3), delta: Rational.of(1, 10_000) });
    meter.absorb(structuredClone(stage.charges()));
    expect(step.charges()).toBe(4);
    expect(step.settled()).toBe(true);
    expect(step.charged()).toEqual({ ...cost(3), delta: Rational.of(1, 10_000) });
    expect(() => meter.settle(accountant.claim([]).steps)).not.toThrow();
  });

  it('refuses a part charged less (a skipped draw) or more than planned, and a charge to the whole', () => {
    const { meter, step } = plan();
    step.part(0).charge(cost(1));
    step.part(2).charge({ ...cost(3), delta: Rational.of(1, 10_000) });
    expect(() => meter.settle()).toThrow(MeterMismatchError);
    expect(() => meter.settle()).toThrow(/part 2/);
    expect(() => step.part(0).charge(cost(1))).toThrow(MeterMismatchError);
    expect(() => step.charge(cost(1))).toThrow(RangeError);
    expect(() => step.part(3)).toThrow(RangeError);
  });
});
