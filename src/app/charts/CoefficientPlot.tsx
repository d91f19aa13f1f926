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
  /** The marker: real data a circle, single releases squares, a combined estimate a diamond. */
  shape: MarkerShape;
  /** One interval per term, in the order of `terms`. */
  intervals: CoefficientInterval[];
}

interface CoefficientPlotProps {
  terms: string[];
  series: CoefficientSeries[];
}

export type MarkerShape = 'circle' | 'square' | 'diamond';

import { SYNTHETIC_OUTLINE } from './series-style';

export { REAL_COLOUR, RELEASE_COLOUR, SYNTHETIC_COLOUR } from './series-style';

/** One marker centred on (x, y), outlined so that pale colours stand out from the white card. */
function Marker({
  shape,
  x,
  y,
  colour,
  children,
}: {
  shape: MarkerShape;
  x: number;
  y: number;
  colour: string;
  children?: React.ReactNode;
}) {
  const common = {
    fill: colour,
    stroke: SYNTHETIC_OUTLINE,
    strokeWidth: shape === 'circle' ? 0 : 0.8,
    className: 'coefficient-marker',
  };
  if (shape === 'circle')
    return (
      <circle cx={x} cy={y} r={3.5} {...common}>
        {children}
      </circle>
    );
  if (shape === 'square')
    return (
      <rect x={x - 3.2} y={y - 3.2} width={6.4} height={6.4} {...common}>
        {children}
      </rect>
    );
  return (
    <path d={`M${x} ${y - 4.5}L${x + 4.5} ${y}L${x} ${y + 4.5}L${x - 4.5} ${y}Z`} {...common}>
      {children}
    </path>
  );
}

/** The same marker, alone in a small SVG, for the legend. */
function LegendMarker({ shape, colour }: { shape: MarkerShape; colour: string }) {
  return (
    <svg
      className="legend-marker"
      viewBox="0 0 12 12"
      width="12"
      height="12"
      aria-hidden="true"
      focusable="false"
    >
      <Marker shape={shape} x={6} y={6} colour={colour} />
    </svg>
  );
}

/** The text alternative of the plot: every estimate and interval, series by series. */
function describeCoefficients(terms: string[], series: CoefficientSeries[]): string {
  const number = (value: number | null) =>
    value === null || !Number.isFinite(value) ? '—' : value.toPrecision(3);
  const parts = series.map(
    (s) =>
      `${s.label}: ${terms
        .map((term, t) => {
          const value = s.intervals[t];
          return `${term} ${number(value?.estimate ?? null)} [${number(value?.lower ?? null)}, ${number(value?.upper ?? null)}]`;
        })
        .join(', ')}`,
  );
  return `Coefficients with intervals. ${parts.join('; ')}`;
}

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
        <Marker shape={s.shape} x={x(value.estimate)} y={y} colour={s.colour}>
          <title>{`${terms[row]} (${s.label}): ${value.estimate.toPrecision(4)} [${value.lower?.toPrecision(4) ?? '—'}, ${value.upper?.toPrecision(4) ?? '—'}]`}</title>
        </Marker>
      </g>
    );
  };
  return (
    <figure className="coefficient-figure" data-chart="coefficients">
      <svg
        className="coefficient-plot"
        viewBox={`0 0 ${WIDTH} ${height}`}
        role="img"
        aria-label={describeCoefficients(terms, series)}
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
            <span key={s.legend} className="legend-item">
              <LegendMarker shape={s.shape} colour={s.colour} />
              {s.legend}
            </span>
          ))}
      </figcaption>
    </figure>
  );
}
