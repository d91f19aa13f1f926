import {
  Area,
  CartesianGrid,
  ComposedChart,
  Line,
  ReferenceLine,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import type { SweepSummaryPoint } from '../../services/sweep-summary';

interface SweepChartProps {
  points: SweepSummaryPoint[];
  currentEpsilon: number;
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
 * Mean TVD (line) and its min–max band over repeats (shaded) against ε on a log axis, with the
 * current ε marked. Every point is a button: clicking it (or Enter/Space) sets ε.
 */
export default function SweepChart({ points, currentEpsilon, metricLabel, onPickEpsilon }: SweepChartProps) {
  const data = points.map((point) => ({ ...point, band: [point.min, point.max] as [number, number] }));
  const epsilons = points.map((point) => point.epsilon);
  const domain: [number, number] = [
    Math.min(...epsilons, currentEpsilon),
    Math.max(...epsilons, currentEpsilon),
  ];
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
          aria-label={`Use ε = ${payload.epsilon} (mean ${metricLabel} ${payload.mean.toFixed(3)})`}
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
    <div className="sweep-chart" data-testid="sweep-chart">
      <ResponsiveContainer width="100%" height={300}>
        <ComposedChart data={data} margin={{ top: 24, right: 24, bottom: 24, left: 8 }}>
          <CartesianGrid strokeDasharray="3 3" />
          <XAxis
            dataKey="epsilon"
            type="number"
            scale="log"
            domain={domain}
            ticks={epsilons}
            tickFormatter={(value: number) => String(value)}
            label={{ value: 'ε (log scale)', position: 'insideBottom', offset: -12 }}
          />
          <YAxis
            tickFormatter={(value: number) => value.toFixed(2)}
            label={{ value: metricLabel, angle: -90, position: 'insideLeft' }}
          />
          <Tooltip
            formatter={(value, name) =>
              Array.isArray(value)
                ? [`${Number(value[0]).toFixed(3)} – ${Number(value[1]).toFixed(3)}`, 'min–max']
                : [Number(value).toFixed(3), String(name)]
            }
            labelFormatter={(label) => `ε = ${String(label)}`}
          />
          <Area
            dataKey="band"
            stroke="none"
            fill="#d9822b"
            fillOpacity={0.2}
            isAnimationActive={false}
            name="min–max"
          />
          <Line
            dataKey="mean"
            stroke="#d9822b"
            strokeWidth={2}
            dot={renderDot}
            activeDot={false}
            isAnimationActive={false}
            name="mean"
          />
          <ReferenceLine
            x={currentEpsilon}
            stroke="#26547c"
            strokeDasharray="4 4"
            label={{ value: `current ε = ${currentEpsilon}`, position: 'top' }}
          />
        </ComposedChart>
      </ResponsiveContainer>
    </div>
  );
}
