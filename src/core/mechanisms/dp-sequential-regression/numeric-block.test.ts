import { describe, expect, it } from 'vitest';
import { parseBudget } from '../../privacy/budget';
import { SeededRng } from '../../rng/seeded-rng';
import {
  drawNumericBlock,
  numericBlockSensitivities,
  numericBlockStatistics,
  repairNumericBlock,
  sanitizeNumericBlock,
} from './numeric-block';
import { recordingStep } from '../../privacy/metered/testing';

type Point = [number, number];

function statisticsOf(rows: Point[], bounds: [number, number][]) {
  return numericBlockStatistics(
    bounds.map(([lo, hi], j) => ({
      values: Float64Array.from(rows, (row) => row[j]!),
      missing: new Uint8Array(rows.length),
      lo,
      hi,
    })),
    rows.length,
  );
}

describe('numeric block statistics', () => {
  it('centred means and the n − 1 covariance of a small table', () => {
    // z₁ = 1, 2, 6 in [0, 10] (mean 3), z₂ = 0, 2, 1 in [0, 4] (mean 1):
    // S₁₁ = (4 + 1 + 9)/2 = 7, S₂₂ = (1 + 1 + 0)/2 = 1, S₁₂ = ((−2)(−1) + (−1)(1) + 3·0)/2 = 0.5.
    const s = statisticsOf(
      [
        [1, 0],
        [2, 2],
        [6, 1],
      ],
      [
        [0, 10],
        [0, 4],
      ],
    );
    expect(s.centredMeans[0]).toBeCloseTo(3 - 5, 12);
    expect(s.centredMeans[1]).toBeCloseTo(1 - 2, 12);
    expect(s.covariance[0]![0]).toBeCloseTo(7, 12);
    expect(s.covariance[1]![1]).toBeCloseTo(1, 12);
    expect(s.covariance[0]![1]).toBeCloseTo(0.5, 12);
  });

  it('replace-one sensitivities w/n and w_a·w_b/n hold and are reached, by brute force on 3-row tables', () => {
    // Every table of 3 rows over the grid {0, ½, 1} × {0, 1, 2} (bounds [0, 1] × [0, 2]) and every
    // replacement of its last row (the statistics are symmetric in the rows).
    const bounds: [number, number][] = [
      [0, 1],
      [0, 2],
    ];
    const grid: Point[] = [];
    for (const a of [0, 0.5, 1]) for (const b of [0, 1, 2]) grid.push([a, b]);
    const n = 3;
    const largest = { mean: [0, 0], covariance: [0, 0, 0] };
    for (const r0 of grid)
      for (const r1 of grid) {
        const stats = grid.map((last) => statisticsOf([r0, r1, last], bounds));
        for (const s of stats)
          for (const t of stats) {
            for (const j of [0, 1])
              largest.mean[j] = Math.max(largest.mean[j]!, Math.abs(s.centredMeans[j]! - t.centredMeans[j]!));
            const pairs: [number, number][] = [
              [0, 0],
              [0, 1],
              [1, 1],
            ];
            pairs.forEach(([a, b], k) => {
              largest.covariance[k] = Math.max(
                largest.covariance[k]!,
                Math.abs(s.covariance[a]![b]! - t.covariance[a]![b]!),
              );
            });
          }
      }
    const sensitivity = numericBlockSensitivities(n, bounds);
    const claimed = [
      sensitivity.covariance[0]![0]!.toNumber(),
      sensitivity.covariance[0]![1]!.toNumber(),
      sensitivity.covariance[1]![1]!.toNumber(),
    ];
    expect(claimed).toEqual([1 / 3, 2 / 3, 4 / 3]);
    for (const j of [0, 1]) expect(largest.mean[j]).toBeCloseTo(sensitivity.means[j]!.toNumber(), 12);
    // Reached (to rounding): the other two rows at a corner, the replaced row moving to the opposite corner.
    largest.covariance.forEach((value, k) => expect(value).toBeCloseTo(claimed[k]!, 12));
  });
});

describe('numeric block draws', () => {
  it('a large ε keeps the means, variances and correlation within sampling error', () => {
    const n = 20_000;
    const rng = new SeededRng(11);
    const rows: Point[] = [];
    for (let i = 0; i < n; i++) {
      const a = rng.nextFloat() * 10;
      rows.push([a, a / 2 + rng.nextFloat() * 5]);
    }
    const bounds: [number, number][] = [
      [0, 10],
      [0, 10],
    ];
    const exact = statisticsOf(rows, bounds);
    const budget = parseBudget('1000').epsilon;
    const share = () => ({ epsilon: budget, step: recordingStep('approx-dp') });
    const noisy = sanitizeNumericBlock(rng, exact, n, bounds, {
      means: [share(), share()],
      covariance: [
        [share(), share()],
        [share(), share()],
      ],
      missing: [share(), share()],
    });
    const repaired = repairNumericBlock(noisy, n, bounds);
    const [z1, z2] = drawNumericBlock(rng, repaired, n, bounds, [false, true]) as [
      Float64Array,
      Float64Array,
    ];
    const mean = (v: Float64Array) => v.reduce((s, x) => s + x, 0) / v.length;
    // Uniform(0, 10): mean 5, SD 2.9; z₂ = z₁/2 + U(0, 5): mean 5, variance 25/12 + 25/12, corr 1/√2.
    // With n = 20,000 the SD of a mean is about 0.02 (plus the posterior draw of μ*, the same size);
    // 0.15 is over 5 SD. Clamping a normal into [0, 10] moves the mean of z₁ by under 0.01.
    expect(Math.abs(mean(z1) - 5)).toBeLessThan(0.15);
    expect(Math.abs(mean(z2) - 5)).toBeLessThan(0.15);
    for (const v of z2) expect(Number.isInteger(v) && v >= 0 && v <= 10).toBe(true);
    let sxy = 0;
    let sxx = 0;
    let syy = 0;
    const [m1, m2] = [mean(z1), mean(z2)];
    for (let i = 0; i < n; i++) {
      sxy += (z1[i]! - m1) * (z2[i]! - m2);
      sxx += (z1[i]! - m1) ** 2;
      syy += (z2[i]! - m2) ** 2;
    }
    // Correlation 0.707 before clamping and rounding, which pull it down a little; SE about 0.004.
    expect(sxy / Math.sqrt(sxx * syy)).toBeGreaterThan(0.62);
    expect(sxy / Math.sqrt(sxx * syy)).toBeLessThan(0.73);
  });
});
