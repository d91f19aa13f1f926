export interface CoefficientInterval {
  estimate: number | null;
  lower: number | null;
  upper: number | null;
}

/** One row of dots and whiskers per term: the real fit, each release, or the combined estimate. */
export interface CoefficientSeries {
  label: string;
  /** The legend entry; series sharing one (e.g. "each release") are listed once. */
  legend: string;
  colour: string;
  /** One interval per term, in the order of `terms`. */
  intervals: CoefficientInterval[];
}

interface CoefficientPlotProps {
  terms: string[];
  series: CoefficientSeries[];
}

/** Colour of single releases when a combined estimate is drawn too: a paler synthetic orange. */
export const RELEASE_COLOUR = '#efb77a';
export { REAL_COLOUR, SYNTHETIC_COLOUR } from './OverlayBarChart';

const SERIES_GAP = 8;
const LABEL_WIDTH = 130;
const WIDTH = 520;

/**
 * Dot-and-whisker plot of regression coefficients: for each term the estimate and confidence
 * interval of every series (real data, each synthetic release, the combined estimate) stacked on
 * one shared axis, with a line at zero.
 */
export function CoefficientPlot({ terms, series }: CoefficientPlotProps) {
  const finite = series
    .flatMap((s) => s.intervals)
    .flatMap((interval) => [interval.lower, interval.upper, interval.estimate])
    .filter((value): value is number => value !== null && Number.isFinite(value));
  if (finite.length === 0) return <p className="hint">No coefficient could be estimated.</p>;
  let lo = Math.min(0, ...finite);
  let hi = Math.max(0, ...finite);
  if (hi === lo) hi = lo + 1;
  const pad = (hi - lo) * 0.05;
  lo -= pad;
  hi += pad;
  const plotWidth = WIDTH - LABEL_WIDTH - 10;
  const x = (value: number) => LABEL_WIDTH + ((value - lo) / (hi - lo)) * plotWidth;
  const rowHeight = Math.max(26, series.length * SERIES_GAP + 10);
  const height = terms.length * rowHeight + 30;
  const interval = (row: number, index: number, s: CoefficientSeries) => {
    const value = s.intervals[row];
    if (!value || value.estimate === null || !Number.isFinite(value.estimate)) return null;
    const y = row * rowHeight + rowHeight / 2 + (index - (series.length - 1) / 2) * SERIES_GAP;
    return (
      <g key={s.label}>
        {value.lower !== null && value.upper !== null && (
          <line x1={x(value.lower)} x2={x(value.upper)} y1={y} y2={y} stroke={s.colour} strokeWidth={2} />
        )}
        <circle cx={x(value.estimate)} cy={y} r={3.5} fill={s.colour}>
          <title>{`${terms[row]} (${s.label}): ${value.estimate.toPrecision(4)} [${value.lower?.toPrecision(4) ?? '—'}, ${value.upper?.toPrecision(4) ?? '—'}]`}</title>
        </circle>
      </g>
    );
  };
  return (
    <figure className="coefficient-figure">
      <svg
        className="coefficient-plot"
        viewBox={`0 0 ${WIDTH} ${height}`}
        role="img"
        aria-label={`Coefficients with intervals: ${series.map((s) => s.label).join(', ')}`}
      >
        <line x1={x(0)} x2={x(0)} y1={0} y2={height - 24} className="zero-line" />
        {terms.map((term, row) => (
          <g key={term}>
            <text
              x={LABEL_WIDTH - 6}
              y={row * rowHeight + rowHeight / 2 + 4}
              textAnchor="end"
              className="axis-text"
            >
              {term.length > 20 ? `${term.slice(0, 19)}…` : term}
            </text>
            {series.map((s, index) => interval(row, index, s))}
          </g>
        ))}
        <text x={x(lo)} y={height - 8} className="axis-text">
          {lo.toPrecision(3)}
        </text>
        <text x={x(hi)} y={height - 8} textAnchor="end" className="axis-text">
          {hi.toPrecision(3)}
        </text>
      </svg>
      <figcaption className="chart-legend">
        {series
          .filter((s, i, all) => all.findIndex((t) => t.legend === s.legend) === i)
          .map((s) => (
            <span key={s.legend}>
              <span className="legend-swatch" style={{ background: s.colour }} aria-hidden="true" />
              {s.legend}
            </span>
          ))}
      </figcaption>
    </figure>
  );
}
