import {
  CartesianGrid,
  Line,
  LineChart,
  ReferenceLine,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';

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
        <CartesianGrid strokeDasharray="3 3" />
        <XAxis dataKey="iteration" type="number" domain={['dataMin', 'dataMax']} tick={{ fontSize: 10 }} />
        <YAxis tick={{ fontSize: 10 }} tickFormatter={(v: number) => v.toPrecision(2)} />
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
