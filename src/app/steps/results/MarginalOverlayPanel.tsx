import { useState } from 'react';
import { OverlayBarChart } from '../../charts/OverlayBarChart';
import { SeriesLegendItem } from '../../charts/series-style';
import type { MarginalOverlay } from '../../../worker/protocol';
import type { FinishedRun } from '../../state/results-store';
import { formatTvd } from './HeadlinePanel';

const INITIAL_CHART_COUNT = 12;

/** Real vs synthetic share of every cell, one small bar chart per column (numeric columns binned). */
export function MarginalOverlayPanel({ run }: { run: FinishedRun }) {
  const overlays = run.summary.comparison.overlays;
  const [showAll, setShowAll] = useState(false);
  const shown = showAll ? overlays : overlays.slice(0, INITIAL_CHART_COUNT);
  return (
    <>
      <p className="chart-legend">
        <SeriesLegendItem kind="real">real (solid, left bar)</SeriesLegendItem>{' '}
        <SeriesLegendItem kind="synthetic">synthetic (hatched, right bar)</SeriesLegendItem>
        {run.summary.releases > 1 ? ` (mean of ${run.summary.releases} releases)` : ''}
      </p>
      <div className="overlay-grid">
        {shown.map((overlay) => (
          <figure
            key={overlay.column}
            className="overlay-chart"
            data-chart="marginal"
            data-testid="marginal-chart"
            data-column={overlay.column}
          >
            <figcaption>
              <strong>{overlay.column}</strong> <span className="hint">TVD {formatTvd(overlay.tvd)}</span>
            </figcaption>
            <div role="img" aria-label={describeOverlay(overlay)}>
              <OverlayBarChart bars={overlay.cells} />
            </div>
          </figure>
        ))}
      </div>
      {overlays.length > INITIAL_CHART_COUNT && (
        <button type="button" onClick={() => setShowAll(!showAll)}>
          {showAll ? 'Show fewer columns' : `Show all ${overlays.length} columns`}
        </button>
      )}
    </>
  );
}

function describeOverlay(overlay: MarginalOverlay): string {
  const cells = overlay.cells
    .map(
      (cell) =>
        `${cell.label}: real ${(cell.real * 100).toFixed(1)}%, synthetic ${(cell.synthetic * 100).toFixed(1)}%`,
    )
    .join('; ');
  return `Shares of ${overlay.column}. ${cells}`;
}
