import { describe, expect, it } from 'vitest';
import { makeDiscreteLaplaceSampler } from '../../rng/discrete-laplace';
import { bernoulliRationalSafe } from '../../rng/bernoulli-rational';
import { Rational } from '../../rng/rational';
import { SeededRng } from '../../rng/seeded-rng';
import type { Rng } from '../../rng/types';
import { uniformIntBelow32 } from '../../rng/uniform-int';
import {
  expNegLowerBound,
  expNegUpperBound,
  lnOnePlusInverseUpperBound,
  plausibleDeniabilityTestCost,
  type PlausibleDeniabilityTest,
} from '../plausible-deniability-cost';
import { meteredPlausibleDeniabilityTest } from './plausible-deniability-test';
import { recordingStep } from './testing';

const TEST: PlausibleDeniabilityTest = {
  k: 12,
  t: 2,
  testEpsilon: Rational.ONE,
  seeds: 20,
  fallbackNum: 2,
  fallbackDen: 22,
};

describe('the metered plausible-deniability test', () => {
  it('costs (ε0 + L(t), (1 − p_f)/n_S · e^(−ε0(k − t))/(1 + e^(−ε0))) per draw with the coin t/(t + n_S)', () => {
    const { epsilon, delta } = plausibleDeniabilityTestCost(TEST);
    expect(epsilon.equals(Rational.ONE.add(lnOnePlusInverseUpperBound(2)))).toBe(true);
    // (1 − 2/22)/20 = 1/22; e^(−10) over 1 + a lower bound of e^(−1), exactly.
    expect(
      delta.equals(
        expNegUpperBound(Rational.of(10))
          .div(Rational.ONE.add(expNegLowerBound(Rational.ONE)))
          .div(Rational.of(22)),
      ),
    ).toBe(true);
    // L(2) >= ln 1.5 and δ >= e^(−10)/(22·(1 + e^(−1))), each within 10⁻¹¹ relative.
    expect(epsilon.toNumber()).toBeGreaterThanOrEqual(1 + Math.log(1.5));
    expect(epsilon.toNumber()).toBeLessThan(1 + Math.log(1.5) + 1e-11);
    const exact = Math.exp(-10) / (22 * (1 + Math.exp(-1)));
    expect(delta.toNumber()).toBeGreaterThanOrEqual(exact);
    expect(delta.toNumber()).toBeLessThan(exact * (1 + 1e-11));
    expect(expNegLowerBound(Rational.ONE).toNumber()).toBeLessThanOrEqual(Math.exp(-1));
  });

  it('charges more when the coin is dropped or smaller, or when k is lowered: the claim would not match', () => {
    const base = plausibleDeniabilityTestCost(TEST);
    const tail = expNegUpperBound(Rational.of(10)).div(Rational.ONE.add(expNegLowerBound(Rational.ONE)));
    const noCoin = plausibleDeniabilityTestCost({ ...TEST, fallbackNum: 0, fallbackDen: 1 });
    // Without the coin the unique seed's share (1 − p_f)/n_S = 1/20 of the fallback goes to δ too.
    expect(noCoin.delta.equals(tail.div(Rational.of(20)).add(Rational.of(1, 20)))).toBe(true);
    const smallCoin = plausibleDeniabilityTestCost({ ...TEST, fallbackNum: 1, fallbackDen: 22 });
    const share = Rational.of(21, 22 * 20);
    expect(smallCoin.delta.equals(tail.mul(share).add(share))).toBe(true);
    const lowerK = plausibleDeniabilityTestCost({ ...TEST, k: TEST.k - TEST.t });
    expect(lowerK.delta.compare(base.delta.mul(Rational.of(7)))).toBeGreaterThan(0); // e^(2) ≈ 7.4
    expect(() => plausibleDeniabilityTestCost({ ...TEST, t: 12 })).toThrow(RangeError);
    expect(() => plausibleDeniabilityTestCost({ ...TEST, testEpsilon: Rational.ZERO })).toThrow(RangeError);
  });

  it('charges draws × the cost before drawing, and refuses one draw more than charged', () => {
    const step = recordingStep('approx-dp');
    const draw = meteredPlausibleDeniabilityTest(step, TEST, 3);
    const { epsilon, delta } = plausibleDeniabilityTestCost(TEST);
    expect(step.charges).toEqual([
      { notion: 'approx-dp', epsilon: epsilon.mul(Rational.of(3)), delta: delta.mul(Rational.of(3)) },
    ]);
    const rng = new SeededRng(1);
    for (let i = 0; i < 3; i++) draw(rng, () => 12);
    expect(() => draw(rng, () => 12)).toThrow(RangeError);
    expect(() => meteredPlausibleDeniabilityTest(recordingStep('zcdp'), TEST, 1)).toThrow(RangeError);
    expect(() => meteredPlausibleDeniabilityTest(recordingStep('approx-dp', 'add-remove'), TEST, 1)).toThrow(
      RangeError,
    );
  });

  it('makes the same draws as the coin, the seed and the threshold by hand', () => {
    const byHand = (rng: Rng, pick: (rng: Rng) => number): boolean => {
      const noise = makeDiscreteLaplaceSampler(Rational.ONE);
      if (bernoulliRationalSafe(rng, 2, 22)) return false;
      return pick(rng) - 12 >= noise(rng);
    };
    const pick = (rng: Rng) => 5 + uniformIntBelow32(rng, 15);
    const draw = meteredPlausibleDeniabilityTest(recordingStep('approx-dp'), TEST, 2000);
    const a = new SeededRng('same');
    const b = new SeededRng('same');
    const metered = Array.from({ length: 2000 }, () => draw(a, pick));
    const manual = Array.from({ length: 2000 }, () => byHand(b, pick));
    expect(metered).toEqual(manual);
    expect(a.nextUint32()).toBe(b.nextUint32());
  });
});
