import {
  assumptionCount,
  bestMechanismIds,
  claimInOneLine,
  COMPARE_METRICS,
  formatCompareValue,
  type CompareMetric,
  type CompareRow,
  type MetricSummary,
} from '../../services/compare-summary';

export const COMPARE_METRIC_LABELS: Record<CompareMetric, string> = {
  tvdOneWay: 'TVD 1-way',
  tvdTwoWay: 'TVD 2-way',
  pmse: 'pMSE (CART)',
  runMillis: 'Run time',
};

/** One row per mechanism: its claim and each metric's mean with the range over repeats; the best is marked. */
export function CompareTable({ rows, repeats }: { rows: CompareRow[]; repeats: number }) {
  const best = Object.fromEntries(
    COMPARE_METRICS.map((metric) => [metric, bestMechanismIds(rows, metric)]),
  ) as Record<CompareMetric, Set<string>>;
  return (
    <div className="table-scroll" tabIndex={0} role="region" aria-label="Comparison table">
      <table className="metric-table compare-table" data-testid="compare-table">
        <thead>
          <tr>
            <th scope="col">Mechanism</th>
            <th scope="col">Privacy claim</th>
            {COMPARE_METRICS.map((metric) => (
              <th key={metric} scope="col">
                {COMPARE_METRIC_LABELS[metric]}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.entry.mechanismId} data-testid="compare-row" data-mechanism={row.entry.mechanismId}>
              <th scope="row">
                {row.entry.label}
                <span className="compare-sub">
                  {row.entry.usesCurrentParams ? 'your parameters' : 'default parameters'}
                  {row.runs < repeats ? ` · ${row.runs} of ${repeats} runs` : ''}
                </span>
              </th>
              <td>
                {claimInOneLine(row.entry.claim)}
                {row.entry.claim.assumptions.length > 0 ? (
                  <details className="compare-assumptions">
                    <summary>{assumptionCount(row.entry.claim)}</summary>
                    <ul>
                      {row.entry.claim.assumptions.map((assumption, i) => (
                        <li key={i}>{assumption}</li>
                      ))}
                    </ul>
                  </details>
                ) : (
                  <span className="compare-sub">{assumptionCount(row.entry.claim)}</span>
                )}
              </td>
              {COMPARE_METRICS.map((metric) => (
                <MetricCell
                  key={metric}
                  metric={metric}
                  summary={row.metrics[metric]}
                  isBest={best[metric].has(row.entry.mechanismId)}
                />
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function MetricCell({
  metric,
  summary,
  isBest,
}: {
  metric: CompareMetric;
  summary: MetricSummary | null;
  isBest: boolean;
}) {
  if (summary === null) return <td>—</td>;
  return (
    <td className={isBest ? 'compare-best' : undefined} data-metric={metric}>
      <span className="compare-mean">{formatCompareValue(metric, summary.mean)}</span>
      {isBest && <span className="badge badge-best">best</span>}
      {summary.count > 1 && (
        <span className="compare-sub">
          {formatCompareValue(metric, summary.min)}–{formatCompareValue(metric, summary.max)}
        </span>
      )}
    </td>
  );
}
