import { describe, expect, it } from 'vitest';
import { makeNormalSampler, sampleGamma } from '../../rng/continuous';
import { makeDiscreteLaplaceSampler } from '../../rng/discrete-laplace';
import { Rational } from '../../rng/rational';
import { SeededRng } from '../../rng/seeded-rng';
import { Accountant } from '../accountant';
import { MeterMismatchError, PrivacyMeter } from '../meter';
import type { L2QueryKind, QueryKind } from '../query-sensitivity';
import { meteredLaplaceOnGrid } from './laplace-on-grid';
import { meteredMcmcExponentialMechanism } from './mcmc-exponential-mechanism';
import { meteredOutputPerturbation } from './output-perturbation';
import { recordingStep } from './testing';

const r = (num: number, den = 1) => Rational.of(num, den);
const EPSILON_ZERO_DELTA = (epsilon: Rational) => ({ notion: 'approx-dp', epsilon, delta: Rational.ZERO });

describe('meteredLaplaceOnGrid', () => {
  // A mean of 300 values in [0, 30]: Δ = 1/10, g = Δ/100 = 1/1000; the rounded k moves by <= 101.
  const MEAN: Extract<QueryKind, { kind: 'on-grid' }> = {
    kind: 'on-grid',
    of: { kind: 'clipped-mean', lower: r(0), upper: r(30), rows: 300 },
    gridSteps: 100,
  };
  const SUMS: Extract<QueryKind, { kind: 'on-grid' }> = {
    kind: 'on-grid',
    of: { kind: 'partition-clipped-sums', lower: r(-2), upper: r(2) },
    gridSteps: 100,
  };

  it('rounds to the grid and draws what the exact sampler draws, charging ε = (G + c)/t', () => {
    const values = [12.3456, 0.0004, 29.9996];
    const scale = r(202);
    const step = recordingStep('approx-dp');
    const noisy = meteredLaplaceOnGrid(step, MEAN, values, scale, new SeededRng('grid'));
    const sample = makeDiscreteLaplaceSampler(scale);
    const rng = new SeededRng('grid');
    expect(Array.from(noisy)).toEqual(values.map((v) => (Math.round(v / 0.001) + sample(rng)) * 0.001));
    // L1 of k: 100 + 1 = 101; ε = 101/202 = 1/2.
    expect(step.charges).toEqual([EPSILON_ZERO_DELTA(r(1, 2))]);
    // Cell sums: two cells change under replace-one (ε = 102/t), one under add/remove (101/t).
    const sums = recordingStep('approx-dp');
    meteredLaplaceOnGrid(sums, SUMS, [1, -1], r(51), new SeededRng(1));
    expect(sums.charges).toEqual([EPSILON_ZERO_DELTA(r(2))]);
    const addRemove = recordingStep('approx-dp', 'add-remove');
    meteredLaplaceOnGrid(addRemove, SUMS, [1, -1], r(101), new SeededRng(1));
    // Add/remove: Δ = 2, g = 1/50, L1 = 101: ε = 1.
    expect(addRemove.charges).toEqual([EPSILON_ZERO_DELTA(r(1))]);
  });

  it('refuses half the planned scale before drawing, and settles at the planned one', () => {
    const accountant = new Accountant({ epsilon: r(1), delta: Rational.ZERO }, new PrivacyMeter());
    const step = accountant.reserve('a mean on the grid', r(1, 2));
    const rng = new SeededRng('untouched');
    expect(() => meteredLaplaceOnGrid(step, MEAN, [3], r(101), rng)).toThrow(MeterMismatchError);
    expect(rng.nextUint32()).toBe(new SeededRng('untouched').nextUint32());
    meteredLaplaceOnGrid(step, MEAN, [3], r(202), rng);
    expect(() => accountant.meter.settle()).not.toThrow();
  });
});

describe('meteredOutputPerturbation', () => {
  const QUERY: L2QueryKind = {
    kind: 'regularized-logistic-coefficients',
    rows: 200,
    lambda: 0.1,
    classes: 3,
    gapPerSensitivity: 1000,
  };

  it('adds a Gamma(D, Δ₂/ε) norm times a uniform direction — the same draws as by hand — and charges ε', () => {
    const estimate = Float64Array.of(0.5, -0.25, 1, 0);
    const epsilon = r(1, 3);
    const step = recordingStep('approx-dp');
    const noisy = meteredOutputPerturbation(step, QUERY, estimate, epsilon, new SeededRng('beta'));
    // By hand: Δ₂ = (2√2/(200·0.1) + 2·gap)·(1 + 1e−12) = the mechanism's double, scale Δ₂/ε.
    const exact = (2 * Math.SQRT2) / (200 * 0.1);
    const scale = ((exact + (2 * exact) / 1000) * (1 + 1e-12)) / epsilon.toNumberDown();
    const rng = new SeededRng('beta');
    const norm = sampleGamma(rng, 4, scale);
    const normal = makeNormalSampler(rng);
    const direction = Array.from({ length: 4 }, () => normal(0, 1));
    const length = Math.sqrt(direction.reduce((s, x) => s + x * x, 0));
    expect(Array.from(noisy)).toEqual(Array.from(estimate, (b, c) => b + (direction[c]! / length) * norm));
    expect(step.charges).toEqual([EPSILON_ZERO_DELTA(epsilon)]);
    const zcdp = recordingStep('zcdp');
    meteredOutputPerturbation(zcdp, QUERY, estimate, epsilon, new SeededRng('beta'));
    expect(zcdp.charges).toEqual([{ notion: 'zcdp', rho: r(1, 18) }]);
  });

  it('charges the ε it is given, so a doubled ε passes the plan and nothing is drawn', () => {
    const accountant = new Accountant({ epsilon: r(1), delta: Rational.ZERO }, new PrivacyMeter());
    const step = accountant.reserve('coefficients', r(1, 4));
    const rng = new SeededRng('untouched');
    expect(() => meteredOutputPerturbation(step, QUERY, Float64Array.of(1), r(1, 2), rng)).toThrow(
      MeterMismatchError,
    );
    expect(rng.nextUint32()).toBe(new SeededRng('untouched').nextUint32());
  });
});

describe('meteredMcmcExponentialMechanism', () => {
  const PROVEN = { kind: 'pmse-score', rows: 40, partitions: 'fixed-before-data' } as const;

  it('charges ε to each draw’s step before the chain, and hands it the weight −ε·u/(2Δu)', () => {
    const steps = [recordingStep('approx-dp'), recordingStep('approx-dp')];
    const seen: number[] = [];
    const result = meteredMcmcExponentialMechanism(steps, 'replace-one', PROVEN, r(1, 3), (logWeight) => {
      expect(steps.map((s) => s.charges.length)).toEqual([1, 1]);
      seen.push(logWeight(0.02), logWeight(0));
      return { draws: [[1], [2]] };
    });
    expect(result.draws).toEqual([[1], [2]]);
    // Δu = 1/80: −(1/3)·0.02·80/2, with ε rounded down to a double as the chain always used it.
    expect(seen).toEqual([(-(1 / 3) * 0.02) / (2 * (1 / 80)), -0]);
    expect(steps.map((s) => s.charges)).toEqual([
      [EPSILON_ZERO_DELTA(r(1, 3))],
      [EPSILON_ZERO_DELTA(r(1, 3))],
    ]);
    const greedy = { kind: 'pmse-score', rows: 40, partitions: 'greedy-tree' } as const;
    meteredMcmcExponentialMechanism(
      [recordingStep('approx-dp')],
      'replace-one',
      greedy,
      r(1),
      (logWeight) => {
        seen.push(logWeight(0.5));
        return { draws: [[0]] };
      },
    );
    expect(seen[2]).toBe(-0.5 * 20);
  });

  it('refuses a chain that released another number of draws than it was charged for', () => {
    expect(() =>
      meteredMcmcExponentialMechanism(
        [recordingStep('approx-dp'), recordingStep('approx-dp')],
        'replace-one',
        PROVEN,
        r(1),
        () => ({
          draws: [[0]],
        }),
      ),
    ).toThrow(MeterMismatchError);
    // A chain run for its diagnostics only releases nothing and is charged nothing.
    expect(
      meteredMcmcExponentialMechanism([], 'replace-one', PROVEN, r(1), () => ({ draws: [] })).draws,
    ).toEqual([]);
    expect(() =>
      meteredMcmcExponentialMechanism([], 'replace-one', PROVEN, r(1), () => ({ draws: [[0]] })),
    ).toThrow(MeterMismatchError);
    expect(() =>
      meteredMcmcExponentialMechanism(
        [recordingStep('approx-dp', 'add-remove')],
        'replace-one',
        PROVEN,
        r(1),
        () => ({
          draws: [[0]],
        }),
      ),
    ).toThrow('a step is not');
  });

  it('refuses a doubled ε before the chain runs', () => {
    const accountant = new Accountant({ epsilon: r(1), delta: Rational.ZERO }, new PrivacyMeter());
    const step = accountant.reserve('release 1 of 1', r(1, 2));
    let ran = false;
    expect(() =>
      meteredMcmcExponentialMechanism([step], 'replace-one', PROVEN, r(1), () => {
        ran = true;
        return { draws: [[0]] };
      }),
    ).toThrow(MeterMismatchError);
    expect(ran).toBe(false);
  });
});
