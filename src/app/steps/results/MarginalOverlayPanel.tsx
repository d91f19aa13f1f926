import { useState } from 'react';
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { MarginalOverlay } from '../../../worker/protocol';
import type { FinishedRun } from '../../state/results-store';
import { formatTvd } from './HeadlinePanel';

const INITIAL_CHART_COUNT = 12;
export const REAL_COLOUR = '#5b6b7f';
export const SYNTHETIC_COLOUR = '#d9822b';

/** Real vs synthetic share of every cell, one small bar chart per column (numeric columns binned). */
export function MarginalOverlayPanel({ run }: { run: FinishedRun }) {
  const overlays = run.summary.comparison.overlays;
  const [showAll, setShowAll] = useState(false);
  const shown = showAll ? overlays : overlays.slice(0, INITIAL_CHART_COUNT);
  return (
    <>
      <div className="overlay-grid">
        {shown.map((overlay) => (
          <OverlayChart key={overlay.column} overlay={overlay} />
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

function OverlayChart({ overlay }: { overlay: MarginalOverlay }) {
  const data = overlay.cells.map((cell) => ({
    label: cell.label,
    real: cell.real,
    synthetic: cell.synthetic,
  }));
  return (
    <figure className="overlay-chart" data-testid="marginal-chart" data-column={overlay.column}>
      <figcaption>
        <strong>{overlay.column}</strong> <span className="hint">TVD {formatTvd(overlay.tvd)}</span>
      </figcaption>
      <div className="chart-box" role="img" aria-label={describeOverlay(overlay)}>
        <ResponsiveContainer width="100%" height={180}>
          <BarChart data={data} margin={{ top: 4, right: 4, bottom: 4, left: 0 }}>
            <CartesianGrid strokeDasharray="3 3" vertical={false} />
            <XAxis dataKey="label" tick={{ fontSize: 10 }} interval="preserveStartEnd" />
            <YAxis
              tick={{ fontSize: 10 }}
              width={36}
              tickFormatter={(v: number) => `${Math.round(v * 100)}%`}
            />
            <Tooltip formatter={(value) => `${(Number(value) * 100).toFixed(1)}%`} />
            <Legend wrapperStyle={{ fontSize: 11 }} />
            <Bar dataKey="real" name="real" fill={REAL_COLOUR} isAnimationActive={false} />
            <Bar dataKey="synthetic" name="synthetic" fill={SYNTHETIC_COLOUR} isAnimationActive={false} />
          </BarChart>
        </ResponsiveContainer>
      </div>
    </figure>
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
