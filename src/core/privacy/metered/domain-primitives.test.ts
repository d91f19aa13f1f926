import { describe, expect, it } from 'vitest';
import { makeDiscreteLaplaceSampler } from '../../rng/discrete-laplace';
import { parseRational, Rational } from '../../rng/rational';
import { SeededRng } from '../../rng/seeded-rng';
import { Accountant } from '../accountant';
import { MeterMismatchError, PrivacyMeter } from '../meter';
import { recordingStep } from './testing';
import { meteredThresholdedCounts, thresholdHoldsDelta } from './thresholded-counts';
import { chargeUnusedShare } from './unused-share';

const r = (num: number, den = 1) => Rational.of(num, den);
const PARTITION = { kind: 'partition-counts' } as const;
const COUNTS = new Map([
  ['a', 9],
  ['b', 3],
  ['c', 1],
  ['d', 6],
]);

describe('meteredThresholdedCounts', () => {
  it('draws what the exact sampler draws, value by value in the map order, and charges (Δ₁/t, δ) once', () => {
    // t = 1, δ = 0.2, τ = 3 (p = e^−1: p²/(1 + p) = 0.099 <= 0.2), with counts on both sides of τ.
    const scale = r(1);
    const delta = parseRational('0.2');
    const step = recordingStep('approx-dp');
    const released = meteredThresholdedCounts(step, PARTITION, COUNTS, scale, 3, delta, new SeededRng('t'));
    const sample = makeDiscreteLaplaceSampler(scale);
    const rng = new SeededRng('t');
    expect(released).toEqual([...COUNTS].filter(([, c]) => c + sample(rng) >= 3).map(([v]) => v));
    // Replace-one: counts over a partition, Δ₁ = 2, ε = 2/t = 2.
    expect(step.charges).toEqual([{ notion: 'approx-dp', epsilon: r(2), delta }]);
    const addRemove = recordingStep('approx-dp', 'add-remove');
    meteredThresholdedCounts(addRemove, PARTITION, COUNTS, scale, 3, delta, new SeededRng('t'));
    expect(addRemove.charges).toEqual([{ notion: 'approx-dp', epsilon: r(1), delta }]);
  });

  it('charges δ to the step that holds it when one is given, ε to its own', () => {
    const step = recordingStep('approx-dp');
    const holder = recordingStep('approx-dp');
    const delta = parseRational('0.2');
    meteredThresholdedCounts(step, PARTITION, COUNTS, r(1), 3, delta, new SeededRng(1), holder);
    expect(step.charges).toEqual([{ notion: 'approx-dp', epsilon: r(2), delta: Rational.ZERO }]);
    expect(holder.charges).toEqual([{ notion: 'approx-dp', epsilon: Rational.ZERO, delta }]);
  });

  it('accepts exactly the thresholds whose single-row release probability p^(τ−1)/(1 + p) is <= δ', () => {
    // t = 1, p = e^−1: τ = 3 gives 0.0989, τ = 2 gives 0.2689; τ <= 1 is refused outright.
    const p = Math.exp(-1);
    expect(p ** 2 / (1 + p)).toBeLessThan(0.2);
    expect(p / (1 + p)).toBeGreaterThan(0.2);
    expect(thresholdHoldsDelta(r(1), 3, parseRational('0.2'))).toBe(true);
    expect(thresholdHoldsDelta(r(1), 2, parseRational('0.2'))).toBe(false);
    expect(thresholdHoldsDelta(r(1), 1, parseRational('0.9'))).toBe(false);
    expect(thresholdHoldsDelta(r(1), 3, Rational.ZERO)).toBe(false);
    // At t = 2 (ε = 1), δ = 1e-6: τ = 28 holds and 27 does not (dp-categories.ts, thresholdFor).
    expect(thresholdHoldsDelta(r(2), 28, parseRational('1e-6'))).toBe(true);
    expect(thresholdHoldsDelta(r(2), 27, parseRational('1e-6'))).toBe(false);
  });

  it('refuses a threshold too low for δ, or a zCDP step, before it charges or draws', () => {
    const step = recordingStep('approx-dp');
    const rng = new SeededRng('untouched');
    expect(() =>
      meteredThresholdedCounts(step, PARTITION, COUNTS, r(1), 2, parseRational('0.2'), rng),
    ).toThrow(RangeError);
    expect(() =>
      meteredThresholdedCounts(recordingStep('zcdp'), PARTITION, COUNTS, r(1), 3, parseRational('0.2'), rng),
    ).toThrow('(ε, δ) steps');
    expect(step.charges).toEqual([]);
    expect(rng.nextUint32()).toBe(new SeededRng('untouched').nextUint32());
  });

  it('draws nothing when the charge passes the plan', () => {
    const accountant = new Accountant({ epsilon: r(1), delta: parseRational('0.2') }, new PrivacyMeter());
    const step = accountant.reserve('a list at ε = 1', r(1), parseRational('0.2'));
    const rng = new SeededRng('untouched');
    // t = 1 costs ε = 2 > 1.
    expect(() =>
      meteredThresholdedCounts(step, PARTITION, COUNTS, r(1), 3, parseRational('0.2'), rng),
    ).toThrow(MeterMismatchError);
    expect(rng.nextUint32()).toBe(new SeededRng('untouched').nextUint32());
    // t = 2 costs ε = 1; p = e^(−1/2) needs τ = 4 for δ = 0.2 (p³/(1 + p) = 0.139).
    meteredThresholdedCounts(step, PARTITION, COUNTS, r(2), 4, parseRational('0.2'), rng);
    expect(() => accountant.meter.settle()).not.toThrow();
  });
});

describe('chargeUnusedShare', () => {
  it('charges the share given, draws nothing, and settles a step reserved for a branch not taken', () => {
    const accountant = new Accountant({ epsilon: r(1), delta: r(1, 1000) }, new PrivacyMeter());
    const step = accountant.reserve('a share left unused', r(1, 2), r(1, 1000));
    chargeUnusedShare(step, r(1, 2));
    expect(() => accountant.meter.settle()).toThrow(MeterMismatchError);
    chargeUnusedShare(step, Rational.ZERO, r(1, 1000));
    expect(() => accountant.meter.settle()).not.toThrow();
    expect(step.charges()).toBe(2);
  });

  it('refuses a charge past the plan, and a zCDP step', () => {
    const accountant = new Accountant({ epsilon: r(1), delta: Rational.ZERO }, new PrivacyMeter());
    const step = accountant.reserve('a share', r(1, 2));
    expect(() => chargeUnusedShare(step, r(3, 4))).toThrow(MeterMismatchError);
    expect(() => chargeUnusedShare(recordingStep('zcdp'), r(1))).toThrow('(ε, δ) step');
  });
});
