import { unprovenBoundPhrase } from '../../core/privacy/claim-bound';
import type { PrivacyClaim } from '../../core/privacy/types';
import type { CompareEntry, ComparePoint } from '../state/compare-store';
import { mean } from '../../core/stats/mean';

/** What the Compare table shows per mechanism; for every one of them, lower is better. */
export const COMPARE_METRICS = ['tvdOneWay', 'tvdTwoWay', 'pmse', 'runMillis'] as const;
export type CompareMetric = (typeof COMPARE_METRICS)[number];

/** Mean and range of one metric over the repeats done so far. */
export interface MetricSummary {
  mean: number;
  min: number;
  max: number;
  count: number;
}

/** One row of the Compare table. */
export interface CompareRow {
  entry: CompareEntry;
  /** Finished runs of this mechanism. */
  runs: number;
  /** null while no finished run has a value for the metric. */
  metrics: Record<CompareMetric, MetricSummary | null>;
}

/**
 * One row per compared mechanism, in the entries' order: arithmetic mean, minimum and maximum of
 * each metric over that mechanism's finished runs. NaN values (a metric that could not be computed)
 * are skipped. Example: runs with TVD 1-way 0.1 and 0.3 → { mean: 0.2, min: 0.1, max: 0.3, count: 2 }.
 */
export function summarizeComparison(entries: CompareEntry[], points: ComparePoint[]): CompareRow[] {
  return entries.map((entry) => {
    const own = points.filter((point) => point.mechanismId === entry.mechanismId);
    const metrics = Object.fromEntries(
      COMPARE_METRICS.map((metric) => [metric, summarizeValues(own.map((point) => point[metric]))]),
    ) as Record<CompareMetric, MetricSummary | null>;
    return { entry, runs: own.length, metrics };
  });
}

function summarizeValues(values: number[]): MetricSummary | null {
  const finite = values.filter((value) => Number.isFinite(value));
  if (finite.length === 0) return null;
  return {
    mean: mean(finite),
    min: Math.min(...finite),
    max: Math.max(...finite),
    count: finite.length,
  };
}

/**
 * The mechanisms with the lowest mean of `metric` (all of them on a tie). Empty unless at least two
 * rows have a value: a best of one is no comparison.
 */
export function bestMechanismIds(rows: CompareRow[], metric: CompareMetric): Set<string> {
  const scored = rows.flatMap((row) => {
    const summary = row.metrics[metric];
    return summary === null ? [] : [{ id: row.entry.mechanismId, mean: summary.mean }];
  });
  if (scored.length < 2) return new Set();
  const lowest = Math.min(...scored.map((item) => item.mean));
  return new Set(scored.filter((item) => item.mean === lowest).map((item) => item.id));
}

const SHORT_NOTION: Record<PrivacyClaim['notion'], string> = {
  'pure-dp': 'pure ε-DP',
  'approx-dp': '(ε, δ)-DP',
  gdp: 'μ-GDP',
};

/** The claim in one line. Example: "pure ε-DP, ε = 1, δ = 0" (+ " — not a proven bound (why)" when unproven). */
export function claimInOneLine(claim: PrivacyClaim): string {
  const mu = claim.mu === undefined ? '' : `, μ = ${claim.mu}`;
  const unproven = unprovenBoundPhrase(claim);
  const bound = unproven === null ? '' : ` — ${unproven}`;
  return `${SHORT_NOTION[claim.notion]}, ε = ${claim.epsilon}, δ = ${claim.delta}${mu}${bound}`;
}

/** "no assumptions beyond the schema" or "rests on 3 assumptions". */
export function assumptionCount(claim: PrivacyClaim): string {
  const count = claim.assumptions.length;
  if (count === 0) return 'no stated assumptions';
  return `rests on ${count} assumption${count === 1 ? '' : 's'}`;
}

/** A metric value as the table shows it: TVD to 3 decimals, pMSE to 3 significant digits, time in ms or s. */
export function formatCompareValue(metric: CompareMetric, value: number): string {
  if (!Number.isFinite(value)) return '—';
  if (metric === 'runMillis')
    return value < 1000 ? `${Math.round(value)} ms` : `${(value / 1000).toFixed(1)} s`;
  if (metric === 'pmse') return value === 0 ? '0' : value.toPrecision(3);
  return value.toFixed(3);
}
