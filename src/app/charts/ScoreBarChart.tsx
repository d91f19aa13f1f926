import { memo } from 'react';
import { SYNTHETIC_OUTLINE, SyntheticHatch, useHatchId } from './series-style';

/** One bar of a score chart: a value in [0, 1] (null = not computed) drawn in `colour`. */
export interface ScoreBar {
  label: string;
  value: number | null;
  colour: string;
  /** Synthetic data: hatched and outlined, so that it is not told from real data by colour alone. */
  synthetic?: boolean;
}

export interface ScoreBarGroup {
  label: string;
  bars: ScoreBar[];
}

interface ScoreBarChartProps {
  groups: ScoreBarGroup[];
  /** A vertical reference line, e.g. 0.5 for a coin flip. */
  reference?: { value: number; label: string };
  ariaLabel: string;
}

const WIDTH = 520;
const LABEL_WIDTH = 150;
const BAR_HEIGHT = 10;
const GROUP_GAP = 10;

/**
 * Horizontal bars of scores on a fixed 0–1 axis (accuracy, AUC, agreement), grouped by model or
 * release. Plain SVG like OverlayBarChart: a few elements, drawn in well under a millisecond.
 */
export const ScoreBarChart = memo(function ScoreBarChart({
  groups,
  reference,
  ariaLabel,
}: ScoreBarChartProps) {
  const plotWidth = WIDTH - LABEL_WIDTH - 40;
  const x = (value: number) => LABEL_WIDTH + Math.min(1, Math.max(0, value)) * plotWidth;
  let y = 4;
  const rows = groups.map((group) => {
    const top = y;
    y += group.bars.length * BAR_HEIGHT + GROUP_GAP;
    return { group, top };
  });
  const height = y + 22;
  const hatchId = useHatchId();
  // The text alternative carries every number drawn.
  const numbers = groups
    .map(
      (group) =>
        `${group.label}: ${group.bars.map((bar) => `${bar.label} ${bar.value === null ? 'not computed' : bar.value.toFixed(3)}`).join(', ')}`,
    )
    .join('; ');
  return (
    <svg
      className="score-bars"
      viewBox={`0 0 ${WIDTH} ${height}`}
      role="img"
      aria-label={`${ariaLabel}. ${numbers}`}
      data-chart="scores"
    >
      {[0, 0.25, 0.5, 0.75, 1].map((tick) => (
        <g key={tick}>
          <line x1={x(tick)} x2={x(tick)} y1={0} y2={height - 20} className="grid-line" />
          <text x={x(tick)} y={height - 6} textAnchor="middle" className="axis-text">
            {tick}
          </text>
        </g>
      ))}
      {rows.map(({ group, top }) => (
        <g key={group.label}>
          <text
            x={LABEL_WIDTH - 6}
            y={top + (group.bars.length * BAR_HEIGHT) / 2 + 4}
            textAnchor="end"
            className="axis-text"
          >
            {group.label}
          </text>
          {group.bars.map((bar, i) =>
            bar.value === null || !Number.isFinite(bar.value) ? null : (
              <g key={bar.label}>
                <rect
                  x={x(0)}
                  y={top + i * BAR_HEIGHT}
                  width={x(bar.value) - x(0)}
                  height={BAR_HEIGHT - 2}
                  fill={bar.synthetic ? `url(#${hatchId})` : bar.colour}
                  stroke={bar.synthetic ? SYNTHETIC_OUTLINE : 'none'}
                  strokeWidth={0.8}
                >
                  <title>{`${group.label}, ${bar.label}: ${bar.value.toFixed(3)}`}</title>
                </rect>
                <text x={x(bar.value) + 3} y={top + i * BAR_HEIGHT + BAR_HEIGHT - 3} className="axis-text">
                  {bar.value.toFixed(2)}
                </text>
              </g>
            ),
          )}
        </g>
      ))}
      {reference && (
        <g>
          <line
            x1={x(reference.value)}
            x2={x(reference.value)}
            y1={0}
            y2={height - 20}
            className="reference-line"
          />
          <title>{reference.label}</title>
        </g>
      )}
      {/* After the bars, so that the first rect of the chart is a bar. */}
      <SyntheticHatch id={hatchId} />
    </svg>
  );
});
