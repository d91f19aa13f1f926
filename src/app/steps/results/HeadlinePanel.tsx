import type { FinishedRun } from '../../state/results-store';

export function formatTvd(value: number): string {
  return Number.isFinite(value) ? value.toFixed(3) : '—';
}

export function meanOf(values: number[]): number {
  const finite = values.filter(Number.isFinite);
  return finite.length === 0 ? Number.NaN : finite.reduce((sum, v) => sum + v, 0) / finite.length;
}

/** Rows, columns, the claim and the mean 1-way / 2-way TVD (over releases) of the latest run. */
export function HeadlinePanel({ run }: { run: FinishedRun }) {
  const { summary, configuration } = run;
  const tvdOne = meanOf(summary.comparison.tvdOneWay);
  const tvdTwo = meanOf(summary.comparison.tvdTwoWay);
  return (
    <dl className="headline-numbers" data-testid="headline-numbers">
      <div>
        <dt>Synthetic rows</dt>
        <dd>{summary.rows.toLocaleString('en')}</dd>
      </div>
      {summary.holdoutRows > 0 && (
        <div>
          <dt>Real rows seen / kept back</dt>
          <dd>
            {summary.trainRows.toLocaleString('en')} / {summary.holdoutRows.toLocaleString('en')}
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
