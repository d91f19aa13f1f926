import { ChartNumbers } from '../../charts/ChartNumbers';
import { plainTick } from '../../charts/plain-tick';
import { SYNTHETIC_COLOUR } from '../../charts/series-style';
import {
  Area,
  ComposedChart,
  Line,
  ReferenceLine,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import type { SweepSummaryPoint } from '../../services/sweep-summary';

/** Fixed decimals for TVD-sized values; significant digits for small ones such as pMSE. */
function formatMetric(value: number, digits: number): string {
  return value !== 0 && Math.abs(value) < 0.1 ? value.toPrecision(digits) : value.toFixed(digits);
}

// Plain ticks: Recharts' own measure every word of every label in the DOM (plain-tick.tsx).
const EPSILON_TICK = plainTick((value) => String(value));
const METRIC_TICK = plainTick((value) => formatMetric(value, 2));

interface SweepChartProps {
  points: SweepSummaryPoint[];
  /** Marked with a line when it is a positive number; omitted while the ε field is empty or invalid. */
  currentEpsilon: number | undefined;
  metricLabel: string;
  onPickEpsilon(epsilon: number): void;
}

interface DotProps {
  cx?: number;
  cy?: number;
  index?: number;
  payload?: SweepSummaryPoint;
}

/**
 * Mean metric (line) and its min–max band over repeats (shaded) against ε on a log axis, with the
 * current ε marked. Every point is a button: clicking it (or Enter/Space) sets ε.
 */
export default function SweepChart({ points, currentEpsilon, metricLabel, onPickEpsilon }: SweepChartProps) {
  const data = points.map((point) => ({ ...point, band: [point.min, point.max] as [number, number] }));
  const epsilons = points.map((point) => point.epsilon);
  const marked = currentEpsilon === undefined ? [] : [currentEpsilon];
  const domain: [number, number] = [Math.min(...epsilons, ...marked), Math.max(...epsilons, ...marked)];
  const renderDot = ({ cx, cy, index, payload }: DotProps) => {
    if (cx === undefined || cy === undefined || payload === undefined) return <g key={`dot-${index}`} />;
    const pick = () => onPickEpsilon(payload.epsilon);
    return (
      <g key={`dot-${index}`}>
        <circle
          cx={cx}
          cy={cy}
          r={6}
          className="sweep-point"
          data-testid="sweep-point"
          data-epsilon={payload.epsilon}
          role="button"
          tabIndex={0}
          aria-label={`Use ε = ${payload.epsilon} (mean ${metricLabel} ${formatMetric(payload.mean, 3)})`}
          onClick={pick}
          onKeyDown={(event) => {
            if (event.key === 'Enter' || event.key === ' ') {
              event.preventDefault();
              pick();
            }
          }}
        />
      </g>
    );
  };
  return (
    <div className="sweep-chart" data-testid="sweep-chart" data-chart="sweep">
      <ResponsiveContainer width="100%" height={300}>
        <ComposedChart data={data} margin={{ top: 24, right: 24, bottom: 24, left: 8 }}>
          {/* No CartesianGrid: its default line placement measures every tick label in the DOM on each
              update, a long main-thread task while sweep points arrive (see TraceChart). */}
          <XAxis
            dataKey="epsilon"
            type="number"
            scale="log"
            domain={domain}
            ticks={epsilons}
            interval={0}
            tick={EPSILON_TICK}
            label={{ value: 'ε (log scale)', position: 'insideBottom', offset: -12 }}
          />
          <YAxis
            interval={0}
            tick={METRIC_TICK}
            label={{ value: metricLabel, angle: -90, position: 'insideLeft' }}
          />
          <Tooltip
            formatter={(value, name) =>
              Array.isArray(value)
                ? [`${formatMetric(Number(value[0]), 3)} – ${formatMetric(Number(value[1]), 3)}`, 'min–max']
                : [formatMetric(Number(value), 3), String(name)]
            }
            labelFormatter={(label) => `ε = ${String(label)}`}
          />
          <Area
            dataKey="band"
            stroke="none"
            fill={SYNTHETIC_COLOUR}
            fillOpacity={0.2}
            isAnimationActive={false}
            name="min–max"
          />
          <Line
            dataKey="mean"
            stroke={SYNTHETIC_COLOUR}
            strokeWidth={2}
            dot={renderDot}
            activeDot={false}
            isAnimationActive={false}
            name="mean"
          />
          {currentEpsilon !== undefined && (
            <ReferenceLine
              x={currentEpsilon}
              stroke="#26547c"
              strokeDasharray="4 4"
              label={{ value: `current ε = ${currentEpsilon}`, position: 'top' }}
            />
          )}
        </ComposedChart>
      </ResponsiveContainer>
      <ChartNumbers
        caption={`Mean ${metricLabel} and its range over the repeats, per ε`}
        headers={['ε', `Mean ${metricLabel}`, 'Smallest', 'Largest']}
        rows={points.map((point) => [
          point.epsilon,
          formatMetric(point.mean, 3),
          formatMetric(point.min, 3),
          formatMetric(point.max, 3),
        ])}
      />
    </div>
  );
}
