import type { ColumnProfile } from '../../../worker/protocol';
import { formatCount, formatDecimal } from '../../components/number-format';

/** One card per column: type, missing share, distinct values, range or top categories, histogram. */
export function ColumnCards({ profiles }: { profiles: ColumnProfile[] }) {
  return (
    <ul className="column-cards" aria-label="Column summaries">
      {profiles.map((profile) => (
        <li key={profile.name} className="column-card" data-testid="column-card">
          <h4 title={profile.name}>{profile.name}</h4>
          <p className="column-card-kind">{profile.kind}</p>
          <dl>
            <dt>Missing</dt>
            <dd>{formatPercent(profile.missingRate)}</dd>
            <dt>Distinct</dt>
            <dd>{formatCount(profile.distinct)}</dd>
            {profile.kind === 'numeric' && profile.min !== undefined && profile.max !== undefined && (
              <>
                <dt>Range</dt>
                <dd>
                  {formatNumber(profile.min)} – {formatNumber(profile.max)}
                </dd>
              </>
            )}
            {profile.kind === 'categorical' && profile.topCategories && profile.topCategories.length > 0 && (
              <>
                <dt>Top</dt>
                <dd>
                  {profile.topCategories
                    .slice(0, 3)
                    .map((top) => top.value)
                    .join(', ')}
                </dd>
              </>
            )}
          </dl>
          <MiniHistogram bars={profile.histogram} columnName={profile.name} />
        </li>
      ))}
    </ul>
  );
}

/** A small bar chart of counts; the bars carry their label and count as a tooltip. */
function MiniHistogram({
  bars,
  columnName,
}: {
  bars: { label: string; count: number }[];
  columnName: string;
}) {
  if (bars.length === 0) return null;
  const max = Math.max(1, ...bars.map((bar) => bar.count));
  const width = 160;
  const height = 40;
  const barWidth = width / bars.length;
  return (
    <svg
      className="mini-histogram"
      data-chart="column-histogram"
      viewBox={`0 0 ${width} ${height}`}
      role="img"
      aria-label={`Histogram of ${columnName}: ${bars.map((bar) => `${bar.label} ${bar.count}`).join('; ')}`}
    >
      {bars.map((bar, i) => {
        const barHeight = (bar.count / max) * (height - 2);
        return (
          <rect
            key={i}
            x={i * barWidth + 0.5}
            y={height - barHeight}
            width={Math.max(1, barWidth - 1)}
            height={barHeight}
          >
            <title>{`${bar.label}: ${bar.count}`}</title>
          </rect>
        );
      })}
    </svg>
  );
}

export function formatPercent(share: number): string {
  if (share === 0) return '0%';
  if (share < 0.001) return '<0.1%';
  return `${(share * 100).toFixed(share < 0.1 ? 1 : 0)}%`;
}

export function formatNumber(value: number): string {
  if (Number.isInteger(value)) return formatCount(value);
  return formatDecimal(Number(value.toPrecision(4)));
}
