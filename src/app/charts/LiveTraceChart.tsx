import { memo } from 'react';

export interface LiveTraceSeries {
  label: string;
  colour: string;
  x: number[];
  y: number[];
}

interface LiveTraceChartProps {
  series: LiveTraceSeries[];
  /** The x range drawn (e.g. 0 … total iterations), fixed so the chart does not rescale as points arrive. */
  xMax: number;
  /** A dashed vertical marker, e.g. the end of burn-in. */
  marker?: { x: number; label: string };
  yLabel: string;
  ariaLabel: string;
}

const WIDTH = 520;
const HEIGHT = 150;
const MARGIN = { top: 8, right: 8, bottom: 20, left: 48 };

/**
 * Line chart of live traces, drawn as plain SVG polylines: it is redrawn at every progress tick
 * while a run goes on, so it must cost well under a millisecond (a charting library's chart costs
 * tens of milliseconds of main-thread time each time). The y axis spans the values seen so far.
 */
export const LiveTraceChart = memo(function LiveTraceChart({
  series,
  xMax,
  marker,
  yLabel,
  ariaLabel,
}: LiveTraceChartProps) {
  const values = series.flatMap((s) => s.y).filter(Number.isFinite);
  let lo = values.length > 0 ? Math.min(...values) : 0;
  let hi = values.length > 0 ? Math.max(...values) : 1;
  if (hi === lo) {
    lo -= 0.5 * Math.abs(lo) || 0.5;
    hi += 0.5 * Math.abs(hi) || 0.5;
  }
  const plotWidth = WIDTH - MARGIN.left - MARGIN.right;
  const plotHeight = HEIGHT - MARGIN.top - MARGIN.bottom;
  const x = (value: number) => MARGIN.left + (Math.min(value, xMax) / Math.max(1, xMax)) * plotWidth;
  const y = (value: number) => MARGIN.top + plotHeight * (1 - (value - lo) / (hi - lo));
  // The text alternative gives the latest point of every series, the numbers a reader needs now.
  const latest = series
    .map((s) =>
      s.x.length === 0
        ? `${s.label}: no point yet`
        : `${s.label}: ${yLabel} ${s.y.at(-1)!.toPrecision(3)} at iteration ${s.x.at(-1)}`,
    )
    .join('; ');
  return (
    <svg
      className="live-trace"
      viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
      role="img"
      aria-label={`${ariaLabel}. Latest: ${latest}`}
      data-chart="live-trace"
    >
      <text x={4} y={MARGIN.top + plotHeight / 2 + 3} className="axis-text">
        {yLabel}
      </text>
      {[lo, hi].map((tick) => (
        <text key={tick} x={MARGIN.left - 4} y={y(tick) + 3} textAnchor="end" className="axis-text">
          {tick.toPrecision(2)}
        </text>
      ))}
      <line x1={MARGIN.left} x2={WIDTH - MARGIN.right} y1={y(lo)} y2={y(lo)} className="axis-line" />
      {marker && (
        <g>
          <line x1={x(marker.x)} x2={x(marker.x)} y1={MARGIN.top} y2={y(lo)} className="marker-line" />
          <text x={x(marker.x) + 3} y={HEIGHT - 6} className="axis-text">
            {marker.label}
          </text>
        </g>
      )}
      {series.map((s) => (
        <polyline
          key={s.label}
          fill="none"
          stroke={s.colour}
          strokeWidth={1.5}
          points={s.x
            .map((xi, i) => (Number.isFinite(s.y[i]) ? `${x(xi).toFixed(1)},${y(s.y[i]!).toFixed(1)}` : ''))
            .filter(Boolean)
            .join(' ')}
        />
      ))}
    </svg>
  );
});
