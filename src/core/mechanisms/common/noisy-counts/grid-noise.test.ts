import { describe, expect, it } from 'vitest';
import { recordingStep } from '../../../privacy/metered/testing';
import type { RealStatistic } from '../../../privacy/query-sensitivity';
import { Rational } from '../../../rng/rational';
import { SeededRng } from '../../../rng/seeded-rng';
import {
  GRID_STEPS_PER_SENSITIVITY,
  noisyCount,
  noisyCounts,
  noisyOnGrid,
  noisySymmetricOnGrid,
  noisyVectorOnGrid,
  onGrid,
} from './grid-noise';

// Each primitive charges its step exactly the ε it is given (the scale it draws at is Δ₁/ε, with Δ₁
// from the query table: G + 1 grid steps for one real statistic, G + 2 for a vector over cells under
// replace-one, 1 for a count, 2 for partition counts). At ε = 10⁶ the discrete Laplace noise of scale
// (G + 1)/ε is 0 except with probability about 2·e^−10⁴, so the values released are the statistics
// rounded to the grid g = Δ/G, exactly.

const huge = Rational.of(1_000_000n);
const mean100: RealStatistic = { kind: 'clipped-mean', lower: Rational.ZERO, upper: Rational.ONE, rows: 100 };
const charged = (step: ReturnType<typeof recordingStep>) =>
  step.charges.map((cost) => (cost.notion === 'approx-dp' ? `${cost.epsilon}, ${cost.delta}` : 'zcdp'));

describe('grid noise of MODIPS statistics', () => {
  it('asks for the on-grid query at G = 100 grid steps per sensitivity', () => {
    expect(GRID_STEPS_PER_SENSITIVITY).toBe(100);
    expect(onGrid(mean100)).toEqual({ kind: 'on-grid', of: mean100, gridSteps: 100 });
  });

  it('one statistic: rounded to g = Δ/G = 1e−4, charged ε once', () => {
    const step = recordingStep('approx-dp');
    expect(noisyOnGrid(step, mean100, 0.123456, huge, new SeededRng(1))).toBeCloseTo(0.1235, 12);
    expect(charged(step)).toEqual(['1000000, 0']);
    const quarter = recordingStep('approx-dp');
    noisyOnGrid(quarter, mean100, 0.5, Rational.of(1n, 4n), new SeededRng(1));
    expect(charged(quarter)).toEqual(['1/4, 0']);
  });

  it('a vector over cells: every entry rounded, charged ε once for the whole vector', () => {
    const step = recordingStep('approx-dp');
    const sums: RealStatistic = {
      kind: 'partition-clipped-sums',
      lower: Rational.of(-1n),
      upper: Rational.ONE,
    };
    // L1 sensitivity of the sums of values in [−1, 1]: 2, so g = 2/100 = 0.02.
    const noisy = noisyVectorOnGrid(step, sums, [0.031, -1.249, 7], huge, new SeededRng(2));
    expect(Array.from(noisy, (v) => Math.round(v * 1000) / 1000)).toEqual([0.04, -1.24, 7]);
    expect(charged(step)).toEqual(['1000000, 0']);
  });

  it('a symmetric matrix: each entry j <= l drawn once at its own share, mirrored below the diagonal', () => {
    const shares = [
      [recordingStep('approx-dp'), recordingStep('approx-dp')],
      [recordingStep('approx-dp'), recordingStep('approx-dp')],
    ];
    shares[1]![0] = shares[0]![1]!;
    const epsilons = [
      [huge, huge.mul(Rational.of(2n))],
      [huge.mul(Rational.of(2n)), huge.mul(Rational.of(3n))],
    ];
    const entry: RealStatistic = {
      kind: 'covariance-entry',
      widths: [Rational.ONE, Rational.ONE],
      rows: 10,
    };
    // Sensitivity w_j·w_l/n = 1/10: g = 1e−3.
    const noisy = noisySymmetricOnGrid(
      shares.map((row, j) => row.map((step, l) => ({ step, epsilon: epsilons[j]![l]! }))),
      [
        [entry, entry],
        [entry, entry],
      ],
      [
        [0.01234, 0.5],
        [0.5, 0.98765],
      ],
      new SeededRng(3),
    );
    expect(noisy.map((row) => row.map((v) => Math.round(v * 1e6) / 1e6))).toEqual([
      [0.012, 0.5],
      [0.5, 0.988],
    ]);
    expect(noisy[0]![1]).toBe(noisy[1]![0]);
    expect(charged(shares[0]![0]!)).toEqual(['1000000, 0']);
    expect(charged(shares[0]![1]!)).toEqual(['2000000, 0']);
    expect(charged(shares[1]![1]!)).toEqual(['3000000, 0']);
  });

  it('counts: a single count costs ε at sensitivity 1, partition counts ε at sensitivity 2', () => {
    const one = recordingStep('approx-dp');
    expect(noisyCount(one, 17, huge, new SeededRng(4))).toBe(17);
    expect(charged(one)).toEqual(['1000000, 0']);
    const half = recordingStep('approx-dp');
    noisyCount(half, 3, Rational.of(1n, 2n), new SeededRng(4));
    expect(charged(half)).toEqual(['1/2, 0']);
    const cells = recordingStep('approx-dp');
    const noisy = noisyCounts(
      cells,
      { kind: 'partition-counts' },
      Float64Array.of(4, 0, 9),
      huge,
      new SeededRng(5),
    );
    expect(Array.from(noisy)).toEqual([4, 0, 9]);
    expect(charged(cells)).toEqual(['1000000, 0']);
  });
});
