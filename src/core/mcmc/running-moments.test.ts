import { describe, expect, it } from 'vitest';
import {
  makeRunningCovariance,
  makeRunningMoments,
  summarizeRunningMoments,
  updateRunningCovariance,
  updateRunningMoments,
  writeSampleCovariance,
} from './running-moments';

describe('running moments (Welford 1962)', () => {
  it('gives the mean and unbiased variance of 2, 4, 4, 4, 5, 5, 7, 9 (mean 5, variance 32/7)', () => {
    const moments = makeRunningMoments(1);
    for (const x of [2, 4, 4, 4, 5, 5, 7, 9]) updateRunningMoments(moments, [x]);
    const summary = summarizeRunningMoments(moments);
    expect(summary.count).toBe(8);
    expect(summary.mean[0]).toBe(5);
    expect(summary.variance[0]).toBeCloseTo(32 / 7, 14);
  });

  it('stays accurate for values with a large common offset (where Σx² − n·mean² fails)', () => {
    const moments = makeRunningMoments(1);
    for (const x of [1e9 + 4, 1e9 + 7, 1e9 + 13, 1e9 + 16]) updateRunningMoments(moments, [x]);
    expect(summarizeRunningMoments(moments).variance[0]).toBeCloseTo(30, 9);
  });

  it('tracks a covariance matrix: (x, 2x + 1) has covariance [v, 2v; 2v, 4v]', () => {
    const state = makeRunningCovariance(2);
    const xs = [1, 2, 4, 8];
    for (const x of xs) updateRunningCovariance(state, [x, 2 * x + 1]);
    const out = new Float64Array(4);
    writeSampleCovariance(state, out);
    const mean = 15 / 4;
    const variance = xs.reduce((sum, x) => sum + (x - mean) ** 2, 0) / 3;
    expect(out[0]).toBeCloseTo(variance, 12);
    expect(out[1]).toBeCloseTo(2 * variance, 12);
    expect(out[2]).toBeCloseTo(2 * variance, 12);
    expect(out[3]).toBeCloseTo(4 * variance, 12);
  });
});
