import type { UtilityReport } from '../../../core/metrics/evaluate';
import type { FinishedRun } from '../../state/results-store';
import { formatTvd } from './HeadlinePanel';

const format = (value: number | null) => (value === null ? '—' : value.toFixed(3));

/** Per column (mean over releases): TVD, Kolmogorov–Smirnov statistic and range-normalised Wasserstein-1. */
export function PerColumnPanel({ evaluation }: { run: FinishedRun; evaluation: UtilityReport | null }) {
  if (evaluation === null) return null;
  return (
    <div className="table-scroll" tabIndex={0} role="region" aria-label="Per-column table">
      <table className="metric-table" data-testid="per-column-table">
        <thead>
          <tr>
            <th scope="col">Column</th>
            <th scope="col">Type</th>
            <th scope="col">TVD</th>
            <th scope="col">KS</th>
            <th scope="col">Wasserstein / range</th>
          </tr>
        </thead>
        <tbody>
          {evaluation.perColumn.mean.map((column) => (
            <tr key={column.name}>
              <th scope="row">{column.name}</th>
              <td>{column.kind}</td>
              <td>{formatTvd(column.tvd)}</td>
              <td>{format(column.ks)}</td>
              <td>{format(column.wassersteinRangeNormalized)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
