import type { UtilityReport } from '../../../core/metrics/evaluate';
import { ChartNumbers } from '../../charts/ChartNumbers';
import { OverlayBarChart } from '../../charts/OverlayBarChart';
import { SeriesLegendItem } from '../../charts/series-style';
import type { FinishedRun } from '../../state/results-store';
import { formatCount } from '../../components/number-format';

/** pMSE and S_pMSE per release, and the propensity-score distributions of real and synthetic rows. */
export function PmsePanel({ evaluation }: { run: FinishedRun; evaluation: UtilityReport | null }) {
  if (evaluation === null) return null;
  const { pmse } = evaluation;
  const first = pmse.perRelease[0]!;
  const bars = first.propensities.edges.slice(0, -1).map((edge, j) => ({
    label: `${edge.toFixed(2)} – ${first.propensities.edges[j + 1]!.toFixed(2)}`,
    real: first.propensities.real[j]!,
    synthetic: first.propensities.synth[j]!,
  }));
  return (
    <>
      <dl className="headline-numbers" data-testid="pmse-numbers">
        <div>
          <dt>pMSE (mean)</dt>
          <dd>{pmse.mean.value.toPrecision(3)}</dd>
        </div>
        <div>
          <dt>S_pMSE (mean)</dt>
          <dd>{pmse.mean.ratio === null ? '—' : pmse.mean.ratio.toFixed(2)}</dd>
        </div>
        <div>
          <dt>Model</dt>
          <dd>{pmse.model === 'cart' ? 'CART (synthpop defaults)' : 'logistic'}</dd>
        </div>
      </dl>
      {first.subsample !== undefined && (
        <p className="hint" data-testid="pmse-subsample">
          Computed on uniform subsamples of {formatCount(first.subsample.realRows)} of{' '}
          {formatCount(evaluation.rows.real)} real and {formatCount(first.subsample.synthRows)} of{' '}
          {formatCount(evaluation.rows.releases[0]!)} synthetic rows
          {pmse.perRelease.length > 1 ? ' (release 1; each release has its own)' : ''}: standard error{' '}
          {first.subsample.standardError.toPrecision(2)} for the fitted model. Distances between distributions
          (TVD) use every row.
        </p>
      )}
      {pmse.perRelease.length > 1 && (
        <p className="hint">
          Per release:{' '}
          {pmse.perRelease
            .map((release) => `${release.value.toPrecision(3)} (S ${release.ratio?.toFixed(2) ?? '—'})`)
            .join(', ')}
        </p>
      )}
      <h4>Propensity scores{pmse.perRelease.length > 1 ? ' (release 1)' : ''}</h4>
      <p className="caption">
        Good: both distributions pile up around the share of synthetic rows (0.5 with equal sizes); separated
        piles mean a classifier tells the data apart.
      </p>
      <div data-chart="propensity">
        <p className="chart-legend">
          <SeriesLegendItem kind="real">real rows (solid)</SeriesLegendItem>{' '}
          <SeriesLegendItem kind="synthetic">synthetic rows (hatched)</SeriesLegendItem>
        </p>
        <div
          className="propensity-chart"
          role="img"
          aria-label={`Propensity score shares of real and synthetic rows in ${bars.length} bins; the numbers are in the table below`}
        >
          <OverlayBarChart bars={bars} />
        </div>
        <ChartNumbers
          caption="Share of rows per propensity-score bin"
          headers={['Propensity score', 'Real rows', 'Synthetic rows']}
          rows={bars.map((bar) => [bar.label, percent(bar.real), percent(bar.synthetic)])}
        />
      </div>
    </>
  );
}

function percent(share: number): string {
  return `${(share * 100).toFixed(1)}%`;
}
