import type { UtilityReport } from '../../../core/metrics/evaluate';
import type { FinishedRun } from '../../state/results-store';
import { formatTvd } from './HeadlinePanel';

/** Mean TVD of all k-way marginals (k = 1, 2, 3), the full-table TVD and the k-marginal score. */
export function TvdOrdersPanel({ evaluation }: { run: FinishedRun; evaluation: UtilityReport | null }) {
  if (evaluation === null) return null;
  const { tvd } = evaluation;
  const orders = Object.values(tvd.byK);
  return (
    <div className="table-scroll" tabIndex={0} role="region" aria-label="TVD by order table">
      <table className="metric-table" data-testid="tvd-orders">
        <thead>
          <tr>
            <th scope="col">Marginals</th>
            <th scope="col">Mean TVD</th>
            <th scope="col">Per release</th>
          </tr>
        </thead>
        <tbody>
          {orders.map((order) => (
            <tr key={order.k}>
              <th scope="row">{order.k}-way</th>
              <td>{order.mean === null ? '—' : formatTvd(order.mean)}</td>
              <td>
                {order.perRelease ? order.perRelease.map((r) => formatTvd(r.mean)).join(', ') : order.skipped}
              </td>
            </tr>
          ))}
          <tr>
            <th scope="row">All columns jointly</th>
            <td>{tvd.fullTable.mean === null ? '—' : formatTvd(tvd.fullTable.mean)}</td>
            <td>
              {tvd.fullTable.mean === null
                ? 'more than 10⁶ cells: not compared'
                : tvd.fullTable.perRelease.map((v) => (v === null ? '—' : formatTvd(v))).join(', ')}
            </td>
          </tr>
          {tvd.kMarginalScore && (
            <tr>
              <th scope="row">k-marginal score (SDNist)</th>
              <td>{tvd.kMarginalScore.mean.toFixed(0)}</td>
              <td>1000 · (1 − mean 2-way TVD); 1000 is perfect</td>
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}
