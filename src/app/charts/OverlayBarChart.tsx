import { memo } from 'react';
import { REAL_COLOUR, SYNTHETIC_OUTLINE, SyntheticHatch, useHatchId } from './series-style';

export { REAL_COLOUR, SYNTHETIC_COLOUR } from './series-style';

export interface OverlayBar {
  label: string;
  real: number;
  synthetic: number;
}

const WIDTH = 320;
const HEIGHT = 170;
const MARGIN = { top: 8, right: 6, bottom: 34, left: 34 };

/**
 * Grouped bars of real (grey, solid) and synthetic (orange, hatched) shares per cell, drawn as plain SVG.
 * A hand-written chart instead of a charting library here: the Results step mounts one per
 * column at the end of a run, and each library chart cost 50–200 ms of main-thread time on a
 * 2-core machine, against a 50 ms budget; this one renders in a few milliseconds.
 */
export const OverlayBarChart = memo(function OverlayBarChart({ bars }: { bars: OverlayBar[] }) {
  const plotWidth = WIDTH - MARGIN.left - MARGIN.right;
  const plotHeight = HEIGHT - MARGIN.top - MARGIN.bottom;
  const top = niceCeiling(Math.max(0.01, ...bars.map((bar) => Math.max(bar.real, bar.synthetic))));
  const groupWidth = plotWidth / Math.max(1, bars.length);
  const barWidth = Math.max(1, groupWidth * 0.38);
  const y = (share: number) => MARGIN.top + plotHeight * (1 - share / top);
  const ticks = [0, top / 2, top];
  const labelEvery = Math.max(1, Math.ceil(bars.length / 5));
  const hatchId = useHatchId();
  return (
    <svg className="overlay-bars" viewBox={`0 0 ${WIDTH} ${HEIGHT}`} aria-hidden="true" focusable="false">
      {ticks.map((tick) => (
        <g key={tick}>
          <line x1={MARGIN.left} x2={WIDTH - MARGIN.right} y1={y(tick)} y2={y(tick)} className="grid-line" />
          <text x={MARGIN.left - 4} y={y(tick) + 3} textAnchor="end" className="axis-text">
            {formatShare(tick)}
          </text>
        </g>
      ))}
      {bars.map((bar, i) => {
        const x = MARGIN.left + i * groupWidth + groupWidth * 0.1;
        return (
          <g key={`${i}-${bar.label}`} className="overlay-bar-group">
            <rect x={x} y={y(bar.real)} width={barWidth} height={y(0) - y(bar.real)} fill={REAL_COLOUR}>
              <title>{`${bar.label}: real ${formatShare(bar.real, 1)}`}</title>
            </rect>
            <rect
              x={x + barWidth}
              y={y(bar.synthetic)}
              width={barWidth}
              height={y(0) - y(bar.synthetic)}
              fill={`url(#${hatchId})`}
              stroke={SYNTHETIC_OUTLINE}
              strokeWidth={0.8}
            >
              <title>{`${bar.label}: synthetic ${formatShare(bar.synthetic, 1)}`}</title>
            </rect>
            {i % labelEvery === 0 && (
              <text
                x={x + barWidth}
                y={HEIGHT - MARGIN.bottom + 12}
                textAnchor="middle"
                className="axis-text"
              >
                {shorten(bar.label)}
              </text>
            )}
          </g>
        );
      })}
      <line x1={MARGIN.left} x2={WIDTH - MARGIN.right} y1={y(0)} y2={y(0)} className="axis-line" />
      {/* After the bars, so that the first rect of the chart is a bar. */}
      <SyntheticHatch id={hatchId} />
    </svg>
  );
});

/** The smallest of 1, 2, 2.5, 5 × 10^k that is ≥ value: a round top for the share axis. */
export function niceCeiling(value: number): number {
  const power = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 2.5, 5, 10]) if (step * power >= value - 1e-12) return step * power;
  return 10 * power;
}

function formatShare(share: number, digits = 0): string {
  return `${(share * 100).toFixed(digits)}%`;
}

/** Axis text: a numeric bin "lo–hi" is shown by its lower edge (the full range is in the bar's title). */
function shorten(label: string): string {
  const lowerEdge = /^([−-]?[\d.]+) – [−-]?[\d.]+$/.exec(label)?.[1];
  const text = lowerEdge ?? label;
  return text.length > 11 ? `${text.slice(0, 10)}…` : text;
}
