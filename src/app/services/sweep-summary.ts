import type { SweepPointResult } from '../../worker/protocol';
import type { SweepMetric } from '../state/prefs-migration';
import { mean } from '../../core/stats/mean';

const SWEEP_METRIC_VALUE: Record<SweepMetric, (point: SweepPointResult) => number> = {
  'one-way': (point) => point.tvdOneWay,
  'two-way': (point) => point.tvdTwoWay,
  pmse: (point) => point.pmse,
};

/** One ε of a sweep: mean and range of the metric over the repeats done so far. */
export interface SweepSummaryPoint {
  epsilon: number;
  mean: number;
  min: number;
  max: number;
  repeats: number;
}

/**
 * Groups sweep results by ε (ascending) and summarises the chosen metric over repeats:
 * arithmetic mean, minimum and maximum. Results with a NaN metric are skipped.
 */
export function summarizeSweep(points: SweepPointResult[], metric: SweepMetric): SweepSummaryPoint[] {
  const byEpsilon = new Map<number, number[]>();
  for (const point of points) {
    const value = SWEEP_METRIC_VALUE[metric](point);
    if (Number.isNaN(value)) continue;
    const values = byEpsilon.get(point.epsilon) ?? [];
    values.push(value);
    byEpsilon.set(point.epsilon, values);
  }
  return [...byEpsilon.entries()]
    .sort(([a], [b]) => a - b)
    .map(([epsilon, values]) => ({
      epsilon,
      mean: mean(values),
      min: Math.min(...values),
      max: Math.max(...values),
      repeats: values.length,
    }));
}
