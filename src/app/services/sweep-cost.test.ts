import { afterEach, describe, expect, it } from 'vitest';
import { getMechanismMeta } from '../../core/mechanisms/catalogue';
import { resolveParams } from '../../core/mechanisms/params';
import type { Schema } from '../../core/table/types';
import {
  aboutDuration,
  noteMeasuredRun,
  orderCheapestFirst,
  repeatsThatFit,
  resetMeasuredSpeeds,
  runSeconds,
  scheduleSeconds,
  speedFactor,
} from './sweep-cost';
import { planSweep } from './sweep-plan';

afterEach(resetMeasuredSpeeds);

/** 14 categorical columns of 4 to 9 categories, as kernlab's income (the shape only). */
const incomeLike: Schema = {
  version: 1,
  missing: [''],
  columns: Array.from({ length: 14 }, (_, j) => ({
    name: `c${j}`,
    type: 'categorical' as const,
    categories: Array.from({ length: 4 + (j % 6) }, (_, k) => `v${k}`),
    source: 'declared' as const,
  })),
};

describe('scheduleSeconds', () => {
  it('places each run on the worker that frees first, in the given order', () => {
    // Two workers: 1 → w0, 2 → w1, 3 → w0 (free at 1, ends 4), 1 → w1 (free at 2, ends 3).
    expect(scheduleSeconds([1, 2, 3, 1], 2)).toBe(4);
    expect(scheduleSeconds([5, 1, 1, 1], 2)).toBe(5);
    expect(scheduleSeconds([1, 1, 1], 1)).toBe(3);
    expect(scheduleSeconds([], 2)).toBe(0);
  });
});

describe('repeatsThatFit', () => {
  it('takes the most repeats whose sweep stays within the budget, at least 1', () => {
    expect(repeatsThatFit((r) => 10 * r, 10, 60)).toBe(6);
    expect(repeatsThatFit((r) => 100 * r, 10, 60)).toBe(1);
    expect(repeatsThatFit(() => 1, 10, 60)).toBe(10);
  });
});

describe('speedFactor', () => {
  it('is 1 before any measured run, then the median of actual/predicted, per mechanism', () => {
    expect(speedFactor('aim')).toBe(1);
    noteMeasuredRun('aim', 2, 4);
    noteMeasuredRun('aim', 2, 1);
    noteMeasuredRun('aim', 1, 3);
    expect(speedFactor('aim')).toBe(2); // ratios 2, 0.5, 3: median 2
    expect(speedFactor('mst')).toBe(1);
    noteMeasuredRun('mst', 0, 3); // no prediction: ignored
    expect(speedFactor('mst')).toBe(1);
  });
});

describe('orderCheapestFirst and aboutDuration', () => {
  it('orders runs by estimated seconds, then by ε', () => {
    const runs = [
      { epsilon: 10, repeats: [0] },
      { epsilon: 0.1, repeats: [0] },
      { epsilon: 1, repeats: [0] },
    ];
    expect(orderCheapestFirst(runs, (run) => run.epsilon).map((run) => run.epsilon)).toEqual([0.1, 1, 10]);
    expect(orderCheapestFirst(runs, () => 1).map((run) => run.epsilon)).toEqual([0.1, 1, 10]);
  });

  it('rounds durations for reading', () => {
    expect(aboutDuration(0.3)).toBe('about 1 s');
    expect(aboutDuration(12.4)).toBe('about 12 s');
    expect(aboutDuration(41)).toBe('about 40 s');
    expect(aboutDuration(400)).toBe('about 7 min');
  });
});

describe('planSweep', () => {
  const aim = getMechanismMeta('aim')!;
  const aimParams = resolveParams(aim, {});
  const inputs = {
    mechanism: aim,
    params: aimParams,
    schema: incomeLike,
    n: 8993,
    minEpsilon: 0.1,
    maxEpsilon: 10,
    pointCount: 8,
    workers: 2,
  };

  it('runs AIM cheapest first, the smallest ε first, and estimates the schedule of those runs', () => {
    const plan = planSweep({ ...inputs, repeats: 2 });
    expect(plan.runs).toHaveLength(16);
    const epsilons = plan.runs.map((run) => run.epsilon);
    expect(epsilons).toEqual([...epsilons].sort((a, b) => a - b));
    expect(plan.seconds).toBeCloseTo(
      scheduleSeconds(
        plan.runs.map((run) => run.seconds),
        2,
      ),
      9,
    );
    const oneRun = runSeconds('aim', {
      n: 8993,
      levels: incomeLike.columns.map((c) => (c.type === 'categorical' ? (c.categories?.length ?? 0) : 0) + 1),
      epsilon: 10,
      releases: 1,
      params: aimParams,
    });
    expect(plan.runs.at(-1)!.seconds).toBeCloseTo(oneRun, 9);
  });

  it('fits the repeats to a minute, and a measured slower machine fits fewer', () => {
    const fast = planSweep({ ...inputs, repeats: 'fit-minute' });
    expect(fast.seconds).toBeLessThanOrEqual(60);
    const more = planSweep({ ...inputs, repeats: fast.repeats + 1 });
    expect(fast.repeats === 10 || more.seconds > 60).toBe(true);
    noteMeasuredRun('aim', 1, 8);
    const slow = planSweep({ ...inputs, repeats: 'fit-minute' });
    expect(slow.repeats).toBeLessThan(Math.max(2, fast.repeats + 1));
    expect(slow.repeats).toBeLessThanOrEqual(fast.repeats);
  });

  it('plans only the pending points, in runs of the repeats one run may give', () => {
    const pmse = getMechanismMeta('pmse-mechanism')!;
    const params = resolveParams(pmse, {});
    const plan = planSweep(
      {
        ...inputs,
        mechanism: pmse,
        params,
        schema: {
          version: 1,
          missing: [],
          columns: ['X1', 'X2'].map((name) => ({
            name,
            type: 'numeric' as const,
            bounds: [-11, 15] as [number, number],
            source: 'declared' as const,
          })),
        },
        n: 5000,
        repeats: 5,
      },
      (epsilon) => epsilon !== 0.1,
    );
    expect(plan.runs).toHaveLength(7);
    expect(plan.runs.every((run) => run.repeats.length === 5)).toBe(true);
    expect(plan.runs.map((run) => run.epsilon)).not.toContain(0.1);
  });
});
