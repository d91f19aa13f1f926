import { describe, expect, it } from 'vitest';
import { makeDiscreteGaussianSampler } from '../../rng/discrete-gaussian';
import { makeDiscreteLaplaceSampler } from '../../rng/discrete-laplace';
import { sampleExponentialMechanism, sampleExponentialMechanismBig } from '../../rng/exponential-mechanism';
import { Rational } from '../../rng/rational';
import { SeededRng } from '../../rng/seeded-rng';
import { MeterMismatchError, PrivacyMeter } from '../meter';
import { ZcdpAccountant } from '../zcdp-accountant';
import { meteredDiscreteGaussian } from './discrete-gaussian';
import { meteredDiscreteLaplace } from './discrete-laplace';
import { meteredExponentialMechanism, meteredExponentialMechanismBig } from './exponential-mechanism';
import { recordingStep } from './testing';

const r = (num: number, den = 1) => Rational.of(num, den);
const COUNTS = Float64Array.of(5, 0, 12, 3);
const PARTITION = { kind: 'partition-counts' } as const;

describe('meteredDiscreteGaussian', () => {
  it('draws what the exact sampler draws, cell by cell, and charges Δ₂²/(2σ²) once (CKS 2020, Thm 4)', () => {
    const sigma2 = r(7, 3);
    const step = recordingStep('zcdp');
    const noisy = meteredDiscreteGaussian(step, PARTITION, COUNTS, sigma2, new SeededRng('g'));
    const sample = makeDiscreteGaussianSampler(sigma2);
    const rng = new SeededRng('g');
    expect(Array.from(noisy)).toEqual(Array.from(COUNTS, (x) => x + sample(rng)));
    // Replace-one: Δ₂² = 2, ρ = 2/(2·7/3) = 3/7.
    expect(step.charges).toEqual([{ notion: 'zcdp', rho: r(3, 7) }]);
    const addRemove = recordingStep('zcdp', 'add-remove');
    meteredDiscreteGaussian(addRemove, PARTITION, COUNTS, sigma2, new SeededRng('g'));
    expect(addRemove.charges).toEqual([{ notion: 'zcdp', rho: r(3, 14) }]);
  });

  it('needs a zCDP step, and draws nothing when the charge passes the plan', () => {
    expect(() =>
      meteredDiscreteGaussian(recordingStep('approx-dp'), PARTITION, COUNTS, r(1), new SeededRng(1)),
    ).toThrow('needs a zCDP step');
    const accountant = new ZcdpAccountant(r(1), r(1, 10 ** 6), new PrivacyMeter());
    const step = accountant.reserve('one marginal at σ² = 4', r(1, 4));
    const rng = new SeededRng('untouched');
    // σ² = 2 costs 1/2 > 1/4: refused before any draw.
    expect(() => meteredDiscreteGaussian(step, PARTITION, COUNTS, r(2), rng)).toThrow(MeterMismatchError);
    expect(rng.nextUint32()).toBe(new SeededRng('untouched').nextUint32());
    meteredDiscreteGaussian(step, PARTITION, COUNTS, r(4), rng);
    expect(() => accountant.meter.settle()).not.toThrow();
  });
});

describe('meteredDiscreteLaplace', () => {
  it('draws what the exact sampler draws and charges ε = Δ₁/t: (ε, 0), or ε²/2 on a zCDP step', () => {
    const scale = r(5, 2);
    const step = recordingStep('approx-dp');
    const noisy = meteredDiscreteLaplace(step, PARTITION, COUNTS, scale, new SeededRng('l'));
    const sample = makeDiscreteLaplaceSampler(scale);
    const rng = new SeededRng('l');
    expect(Array.from(noisy)).toEqual(Array.from(COUNTS, (x) => x + sample(rng)));
    // Replace-one: Δ₁ = 2, ε = 2/(5/2) = 4/5.
    expect(step.charges).toEqual([{ notion: 'approx-dp', epsilon: r(4, 5), delta: Rational.ZERO }]);
    const zcdp = recordingStep('zcdp');
    meteredDiscreteLaplace(zcdp, { kind: 'count' }, COUNTS.subarray(0, 1), scale, new SeededRng('l'));
    // A count: Δ₁ = 1, ε = 2/5, ρ = ε²/2 = 2/25 (Bun & Steinke 2016, Prop. 1.4).
    expect(zcdp.charges).toEqual([{ notion: 'zcdp', rho: r(2, 25) }]);
  });
});

describe('meteredExponentialMechanism', () => {
  const SCORES = [3, 0, 7, 7 - 2 ** 20];
  const QUERY = { kind: 'l1-error-score', weight: 1, grid: 2 ** 20 } as const;

  it('chooses what the exact sampler chooses with the query’s sensitivity, and charges ε or ε²/8', () => {
    const epsilon = r(1, 3);
    const step = recordingStep('zcdp');
    const rng = new SeededRng('e');
    const reference = new SeededRng('e');
    for (let i = 0; i < 20; i++) {
      expect(meteredExponentialMechanism(step, QUERY, SCORES, epsilon, rng)).toBe(
        sampleExponentialMechanism(reference, SCORES, epsilon, 2 * 2 ** 20),
      );
    }
    // Bounded range: ρ = ε²/8 = 1/72 per selection (Cesar & Rogers 2021, Lemma 3.2).
    expect(step.charges).toHaveLength(20);
    expect(step.charges[0]).toEqual({ notion: 'zcdp', rho: r(1, 72) });
    const pure = recordingStep('approx-dp', 'add-remove');
    const addRemove = new SeededRng('a');
    const addRemoveReference = new SeededRng('a');
    expect(meteredExponentialMechanism(pure, QUERY, SCORES, epsilon, addRemove)).toBe(
      sampleExponentialMechanism(addRemoveReference, SCORES, epsilon, 2 ** 20),
    );
    expect(pure.charges).toEqual([{ notion: 'approx-dp', epsilon, delta: Rational.ZERO }]);
  });

  it('as bigints: the same choices for Δ = 2·w·grid past 2^53', () => {
    const big = SCORES.map((s) => BigInt(s) * 10n ** 6n);
    const query = { kind: 'l1-error-score', weight: 10 ** 6, grid: 2 ** 20 } as const;
    const step = recordingStep('zcdp');
    const rng = new SeededRng('b');
    const reference = new SeededRng('b');
    for (let i = 0; i < 10; i++) {
      expect(meteredExponentialMechanismBig(step, query, big, r(2), rng)).toBe(
        sampleExponentialMechanismBig(reference, big, r(2), 2n * 10n ** 6n * 2n ** 20n),
      );
    }
    expect(step.charges[9]).toEqual({ notion: 'zcdp', rho: r(1, 2) });
  });

  it('refuses a score sensitivity that is not a whole positive number', () => {
    expect(() =>
      meteredExponentialMechanism(
        recordingStep(),
        { kind: 'clipped-sum', lower: r(0), upper: r(1, 2) },
        [1, 2],
        r(1),
        new SeededRng(1),
      ),
    ).toThrow('needs a whole positive sensitivity');
  });
});
