import type { UtilityReport } from '../../../core/metrics/evaluate';
import type { FinishedRun } from '../../state/results-store';
import { meanOfFinite } from '../../../core/stats/mean';
import { formatCount } from '../../components/number-format';

export function formatTvd(value: number): string {
  return Number.isFinite(value) ? value.toFixed(3) : '—';
}

/** Mean of the finite values; NaN (shown as "—") when none is finite. */
export function meanOf(values: number[]): number {
  return meanOfFinite(values) ?? Number.NaN;
}

/** synthpop's rule of thumb for S_pMSE (its null halved, as computed in core/metrics/pmse.ts): below 10 is acceptable, below 3 good. */
export function spmseVerdict(ratio: number | null): string {
  if (ratio === null || !Number.isFinite(ratio)) return '';
  if (ratio < 3) return 'good (below 3)';
  if (ratio < 10) return 'acceptable (below 10)';
  return 'poor (10 or more)';
}

/**
 * Rows, columns, the claim and the mean 1-way / 2-way TVD (over releases) of the latest run; once
 * the full evaluation is in, pMSE, S_pMSE with synthpop's guidance, 3-way TVD and the k-marginal score.
 */
export function HeadlinePanel({ run, evaluation }: { run: FinishedRun; evaluation: UtilityReport | null }) {
  const { summary, configuration } = run;
  const tvdOne = meanOf(summary.comparison.tvdOneWay);
  const tvdTwo = meanOf(summary.comparison.tvdTwoWay);
  const tvdThree = evaluation?.tvd.byK['3']?.mean ?? null;
  const pmse = evaluation?.pmse ?? null;
  return (
    <dl className="headline-numbers" data-testid="headline-numbers">
      <div>
        <dt>Synthetic rows</dt>
        <dd>{formatCount(summary.rows)}</dd>
      </div>
      {summary.holdoutRows > 0 && (
        <div>
          <dt>Real rows seen / kept back</dt>
          <dd>
            {formatCount(summary.trainRows)} / {formatCount(summary.holdoutRows)}
          </dd>
        </div>
      )}
      <div>
        <dt>Columns</dt>
        <dd>{summary.columns}</dd>
      </div>
      <div>
        <dt>Releases</dt>
        <dd>{summary.releases}</dd>
      </div>
      <div>
        <dt>Claim</dt>
        <dd>
          ε = {summary.claim.epsilon}
          {summary.claim.delta > 0 ? `, δ = ${summary.claim.delta}` : ''} ({summary.claim.notion})
        </dd>
      </div>
      <div>
        <dt>TVD 1-way</dt>
        <dd data-testid="tvd-one-way">{formatTvd(tvdOne)}</dd>
      </div>
      <div>
        <dt>TVD 2-way</dt>
        <dd data-testid="tvd-two-way">{formatTvd(tvdTwo)}</dd>
      </div>
      {evaluation !== null && (
        <>
          <div>
            <dt>TVD 3-way</dt>
            <dd data-testid="tvd-three-way">
              {tvdThree === null ? (evaluation.tvd.byK['3']?.skipped ?? '—') : formatTvd(tvdThree)}
            </dd>
          </div>
          <div>
            <dt>k-marginal score</dt>
            <dd data-testid="k-marginal-score">
              {evaluation.tvd.kMarginalScore ? evaluation.tvd.kMarginalScore.mean.toFixed(0) : '—'}
              <span className="hint"> of 1000</span>
            </dd>
          </div>
          <div>
            <dt>pMSE</dt>
            <dd data-testid="headline-pmse">{pmse ? pmse.mean.value.toPrecision(3) : '—'}</dd>
          </div>
          <div>
            <dt>S_pMSE</dt>
            <dd data-testid="headline-spmse">
              {pmse?.mean.ratio == null ? '—' : pmse.mean.ratio.toFixed(2)}
              <span className="hint"> {spmseVerdict(pmse?.mean.ratio ?? null)}</span>
            </dd>
          </div>
        </>
      )}
      <div>
        <dt>Mechanism</dt>
        <dd>
          {configuration.mechanismId}
          {configuration.seeded ? ' (seeded: not for release)' : ''}
        </dd>
      </div>
    </dl>
  );
}
