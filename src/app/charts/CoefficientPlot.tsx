import { REAL_COLOUR, SYNTHETIC_COLOUR } from './OverlayBarChart';

export interface CoefficientInterval {
  estimate: number | null;
  lower: number | null;
  upper: number | null;
}

interface CoefficientPlotProps {
  terms: string[];
  real: CoefficientInterval[];
  synthetic: CoefficientInterval[];
  syntheticLabel: string;
}

const ROW_HEIGHT = 26;
const LABEL_WIDTH = 130;
const WIDTH = 520;

/**
 * Dot-and-whisker plot of regression coefficients: each term's estimate and confidence interval
 * fitted on the real data (grey) and on the synthetic data (orange), on one shared axis.
 */
export function CoefficientPlot({ terms, real, synthetic, syntheticLabel }: CoefficientPlotProps) {
  const all = [...real, ...synthetic].flatMap((interval) => [
    interval.lower,
    interval.upper,
    interval.estimate,
  ]);
  const finite = all.filter((value): value is number => value !== null && Number.isFinite(value));
  if (finite.length === 0) return <p className="hint">No coefficient could be estimated.</p>;
  let lo = Math.min(0, ...finite);
  let hi = Math.max(0, ...finite);
  if (hi === lo) hi = lo + 1;
  const pad = (hi - lo) * 0.05;
  lo -= pad;
  hi += pad;
  const plotWidth = WIDTH - LABEL_WIDTH - 10;
  const x = (value: number) => LABEL_WIDTH + ((value - lo) / (hi - lo)) * plotWidth;
  const height = terms.length * ROW_HEIGHT + 30;
  const interval = (
    row: number,
    offset: number,
    value: CoefficientInterval,
    colour: string,
    name: string,
  ) => {
    if (value.estimate === null) return null;
    const y = row * ROW_HEIGHT + 14 + offset;
    return (
      <g>
        {value.lower !== null && value.upper !== null && (
          <line x1={x(value.lower)} x2={x(value.upper)} y1={y} y2={y} stroke={colour} strokeWidth={2} />
        )}
        <circle cx={x(value.estimate)} cy={y} r={4} fill={colour}>
          <title>{`${terms[row]} (${name}): ${value.estimate.toPrecision(4)} [${value.lower?.toPrecision(4) ?? '—'}, ${value.upper?.toPrecision(4) ?? '—'}]`}</title>
        </circle>
      </g>
    );
  };
  return (
    <svg
      className="coefficient-plot"
      viewBox={`0 0 ${WIDTH} ${height}`}
      role="img"
      aria-label={`Coefficients, real vs ${syntheticLabel}`}
    >
      <line x1={x(0)} x2={x(0)} y1={0} y2={height - 24} className="zero-line" />
      {terms.map((term, row) => (
        <g key={term}>
          <text x={LABEL_WIDTH - 6} y={row * ROW_HEIGHT + 18} textAnchor="end" className="axis-text">
            {term.length > 20 ? `${term.slice(0, 19)}…` : term}
          </text>
          {interval(row, -4, real[row]!, REAL_COLOUR, 'real')}
          {interval(row, 4, synthetic[row]!, SYNTHETIC_COLOUR, syntheticLabel)}
        </g>
      ))}
      <text x={x(lo)} y={height - 8} className="axis-text">
        {lo.toPrecision(3)}
      </text>
      <text x={x(hi)} y={height - 8} textAnchor="end" className="axis-text">
        {hi.toPrecision(3)}
      </text>
    </svg>
  );
}
