import { Line, LineChart, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';

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
          tick={{ fontSize: 10 }}
          interval={0}
        />
        <YAxis tick={{ fontSize: 10 }} tickFormatter={(v: number) => v.toPrecision(2)} interval={0} />
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
