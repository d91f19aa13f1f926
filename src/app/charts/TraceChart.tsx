import { Line, LineChart, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { plainTick } from './plain-tick';

const ITERATION_TICK = plainTick((v) => String(v), 10);
const VALUE_TICK = plainTick((v) => v.toPrecision(2), 10);

interface TraceChartProps {
  /** One object per iteration: { iteration, [series name]: value }. */
  points: Record<string, number>[];
  seriesNames: string[];
  colours: string[];
  /** Iteration where burn-in ends, marked with a dashed line. */
  burnIn: number | undefined;
}

/** MCMC traces: one line per chain against the iteration, with the end of burn-in marked. */
export default function TraceChart({ points, seriesNames, colours, burnIn }: TraceChartProps) {
  return (
    <ResponsiveContainer width="100%" height={220}>
      <LineChart data={points} margin={{ top: 8, right: 16, bottom: 16, left: 8 }}>
        {/* No CartesianGrid: its default line placement measures every tick label in the DOM, which
            forced layout of the whole results page and took about 240 ms when this chart mounted. */}
        {/* interval={0}: keep the axis' few generated ticks as they are; the default ('preserveEnd')
            measures every tick label in the DOM, which took most of the 250 ms this chart cost to mount. */}
        <XAxis
          dataKey="iteration"
          type="number"
          domain={['dataMin', 'dataMax']}
          tick={ITERATION_TICK}
          interval={0}
        />
        {/* Plain ticks: Recharts' own measure every word of every label in the DOM (plain-tick.tsx). */}
        <YAxis tick={VALUE_TICK} interval={0} />
        <Tooltip />
        {burnIn !== undefined && burnIn > 0 && (
          <ReferenceLine
            x={burnIn}
            stroke="#9aa5b1"
            strokeDasharray="4 4"
            label={{ value: 'end of burn-in', position: 'insideTopRight', fontSize: 10 }}
          />
        )}
        {seriesNames.map((name, i) => (
          <Line key={name} dataKey={name} stroke={colours[i]} dot={false} isAnimationActive={false} />
        ))}
      </LineChart>
    </ResponsiveContainer>
  );
}
