import { memo } from 'react';
import { niceCeiling } from '../../charts/OverlayBarChart';
import { formatCompareValue, type CompareMetric, type CompareRow } from '../../services/compare-summary';
import { COMPARE_METRIC_LABELS } from './CompareTable';

/** The metrics drawn: utility only (run time is in the table). */
const CHART_METRICS: CompareMetric[] = ['tvdOneWay', 'tvdTwoWay', 'pmse'];

const WIDTH = 300;
const ROW_HEIGHT = 34;
const LEFT = 4;
const RIGHT = 56;

/**
 * One small bar chart per metric: a bar per mechanism at its mean, a line over the range of the
 * repeats. Plain SVG (see OverlayBarChart for why); its text alternative lists the means and ranges
 * (the table has them too).
 */
export const CompareChart = memo(function CompareChart({ rows }: { rows: CompareRow[] }) {
  return (
    <div className="compare-charts" data-testid="compare-chart">
      {CHART_METRICS.map((metric) => (
        <MetricBars key={metric} metric={metric} rows={rows} />
      ))}
    </div>
  );
});

function MetricBars({ metric, rows }: { metric: CompareMetric; rows: CompareRow[] }) {
  const top = niceCeiling(Math.max(1e-6, ...rows.map((row) => row.metrics[metric]?.max ?? 0)));
  const plotWidth = WIDTH - LEFT - RIGHT;
  const x = (value: number) => LEFT + (plotWidth * value) / top;
  const height = rows.length * ROW_HEIGHT + 4;
  return (
    <figure className="compare-chart" data-chart="compare">
      <figcaption>{COMPARE_METRIC_LABELS[metric]}</figcaption>
      <svg
        viewBox={`0 0 ${WIDTH} ${height}`}
        role="img"
        aria-label={`${COMPARE_METRIC_LABELS[metric]}: ${rows
          .map((row) => {
            const summary = row.metrics[metric];
            return summary === null
              ? `${row.entry.label} not computed`
              : `${row.entry.label} mean ${formatCompareValue(metric, summary.mean)}, range ${formatCompareValue(metric, summary.min)} to ${formatCompareValue(metric, summary.max)}`;
          })
          .join('; ')}`}
      >
        {rows.map((row, i) => {
          const summary = row.metrics[metric];
          const y = i * ROW_HEIGHT;
          return (
            <g key={row.entry.mechanismId}>
              <text x={LEFT} y={y + 11} className="axis-text">
                {row.entry.label}
              </text>
              {summary !== null && (
                <>
                  <rect
                    x={LEFT}
                    y={y + 15}
                    width={x(summary.mean) - LEFT}
                    height={12}
                    className="compare-bar"
                  />
                  <line
                    x1={x(summary.min)}
                    x2={x(summary.max)}
                    y1={y + 21}
                    y2={y + 21}
                    className="compare-range"
                  />
                  <text x={WIDTH - RIGHT + 4} y={y + 25} className="axis-text">
                    {formatCompareValue(metric, summary.mean)}
                  </text>
                </>
              )}
            </g>
          );
        })}
      </svg>
    </figure>
  );
}
