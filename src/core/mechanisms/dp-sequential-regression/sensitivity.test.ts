import { describe, expect, it } from 'vitest';
import { SeededRng } from '../../rng/seeded-rng';
import { fitRegularizedLogistic, regularizedGradient, type LogisticProblem } from './regularized-logistic';
import {
  iterationsForGap,
  lossGradientBound,
  minimiserSensitivity,
  perturbationSettings,
} from './sensitivity';

/** ‖∇ℓ(β; x, y)‖ of one row, from the mean-loss gradient of a one-row problem with λ = 0. */
function rowGradientNorm(beta: Float64Array, x: number[], y: number, classes: number): number {
  const problem: LogisticProblem = {
    n: 1,
    d: x.length,
    classes,
    x: Float64Array.from(x),
    y: Uint32Array.of(y),
  };
  const gradient = new Float64Array(beta.length);
  regularizedGradient(problem, 0, beta, gradient);
  return Math.hypot(...gradient);
}

function distance(a: Float64Array, b: Float64Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += (a[i]! - b[i]!) ** 2;
  return Math.sqrt(s);
}

describe('per-row gradient bound G', () => {
  it('G = 1 bounds the binary loss; for three classes the gradient passes 1 and stays below √2', () => {
    const rng = new SeededRng(5);
    let largestBinary = 0;
    let largestThree = 0;
    for (let trial = 0; trial < 20_000; trial++) {
      const scale = 20 * rng.nextFloat();
      const x = [rng.nextFloat() * 2 - 1, rng.nextFloat() * 2 - 1];
      const norm = Math.hypot(...x);
      const unit = x.map((v) => v / Math.max(1, norm));
      const binary = Float64Array.from({ length: 2 }, () => (rng.nextFloat() * 2 - 1) * scale);
      const three = Float64Array.from({ length: 4 }, () => (rng.nextFloat() * 2 - 1) * scale);
      largestBinary = Math.max(largestBinary, rowGradientNorm(binary, unit, trial % 2, 2));
      largestThree = Math.max(largestThree, rowGradientNorm(three, unit, trial % 3, 3));
    }
    expect(largestBinary).toBeLessThanOrEqual(lossGradientBound(2));
    expect(largestThree).toBeLessThanOrEqual(lossGradientBound(3));
    // The binary constant would be wrong for a multinomial response.
    expect(largestThree).toBeGreaterThan(1.3);
  });

  it('the worst case of the proof: y = 1, p_1 → 0, p_2 → 1 at ‖x‖ = 1 gives a gradient of norm → √2', () => {
    // β_1 = 0, β_2 = 30 on the single predictor x = 1: p ≈ (e^−30, e^−30, 1).
    expect(rowGradientNorm(Float64Array.of(0, 30), [1], 1, 3)).toBeCloseTo(Math.SQRT2, 10);
  });
});

describe('minimiser sensitivity 2G/(nλ) under replace-one, by brute force', () => {
  // Every neighbouring pair of 3-row tables over 4 predictor points of norm <= 1 (the intercept
  // column included) and every response, the missing one (y = K, no loss) included: the fitted
  // minimisers never move by more than 2G/(nλ).
  const points = [
    [Math.SQRT1_2, Math.SQRT1_2],
    [Math.SQRT1_2, -Math.SQRT1_2],
    [1, 0],
    [0.6, 0],
  ];
  for (const [classes, lambda] of [
    [2, 0.05],
    [3, 0.05],
    [3, 0.01],
  ] as const) {
    it(`K = ${classes}, λ = ${lambda}`, () => {
      const n = 3;
      const iterations = iterationsForGap(lambda, classes, 1e-10);
      // y = 0, …, K − 1 and y = K, a missing response.
      const rows = points.flatMap((x) => Array.from({ length: classes + 1 }, (_, y) => ({ x, y })));
      const fit = (table: { x: number[]; y: number }[]) =>
        fitRegularizedLogistic(
          {
            n,
            d: 2,
            classes,
            x: Float64Array.from(table.flatMap((r) => r.x)),
            y: Uint32Array.from(table.map((r) => r.y)),
          },
          lambda,
          iterations,
        );
      let largest = 0;
      for (const a of rows)
        for (const b of rows) {
          const fits = rows.map((c) => fit([a, b, c]));
          for (let i = 0; i < fits.length; i++)
            for (let j = i + 1; j < fits.length; j++)
              largest = Math.max(largest, distance(fits[i]!, fits[j]!));
        }
      // Both fits within 1e−10 of their minimisers: the slack below covers them.
      expect(largest).toBeLessThanOrEqual(minimiserSensitivity(n, lambda, classes) + 2e-10);
      expect(largest).toBeGreaterThan(0);
    });
  }
});

describe('iterationsForGap', () => {
  it('λ = 0.1, K = 3, gap 2.8e−5: T = ⌈log(gap²·λ/(4 log 3)) / log(1 − √(0.1/0.6))⌉ = 48', () => {
    // log(7.84e−10·0.1/4.394) = −24.75; log(1 − 0.40825) = −0.52467; 24.75/0.52467 = 47.2 → 48.
    expect(iterationsForGap(0.1, 3, 2.8e-5)).toBe(48);
  });

  it('after T steps the fit is within the gap of the minimiser, checked by ‖∇J‖/λ on random problems', () => {
    const rng = new SeededRng(9);
    for (const classes of [2, 3, 5]) {
      const n = 200;
      const d = 4;
      const x = new Float64Array(n * d);
      const y = new Uint32Array(n);
      for (let i = 0; i < n; i++) {
        x[i * d] = 0.5;
        for (let j = 1; j < d; j++) x[i * d + j] = (rng.nextFloat() * 2 - 1) * 0.5;
        y[i] = Math.floor(rng.nextFloat() * (classes + 1)); // y = K: missing response, no loss
      }
      const problem: LogisticProblem = { n, d, classes, x, y };
      for (const lambda of [0.001, 0.01, 1]) {
        const settings = perturbationSettings(n, lambda, classes);
        const beta = fitRegularizedLogistic(problem, lambda, settings.iterations);
        const gradient = new Float64Array(beta.length);
        regularizedGradient(problem, lambda, beta, gradient);
        // Strong convexity: ‖β − β̂‖ <= ‖∇J(β)‖/λ.
        expect(Math.hypot(...gradient) / lambda).toBeLessThan(settings.gap);
      }
    }
  });

  it('the perturbation sensitivity is 2G/(nλ)·(1 + 2/1000), rounded up', () => {
    const settings = perturbationSettings(1000, 0.01, 3);
    expect(settings.minimiserSensitivity).toBeCloseTo((2 * Math.SQRT2) / 10, 15);
    expect(settings.sensitivity).toBeGreaterThan(settings.minimiserSensitivity * 1.002);
    expect(settings.sensitivity).toBeLessThan(settings.minimiserSensitivity * 1.002 * (1 + 1e-11));
  });
});
