import { useEffect, useId, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { PairHeatmap } from '../../../worker/protocol';
import { dataSession } from '../../services/workers';
import { messageOf } from '../../services/run-readiness';
import { setHeatmap, setHeatmapChoice, useResultsStore, type FinishedRun } from '../../state/results-store';
import { formatTvd } from './HeadlinePanel';

/** Joint shares of a chosen column pair, real beside synthetic, drawn as CSS-grid heatmaps. */
export function PairHeatmapPanel({ run }: { run: FinishedRun }) {
  const rowSelectId = useId();
  const columnSelectId = useId();
  const releaseSelectId = useId();
  const { pair, release, heatmap } = useResultsStore(
    useShallow((state) => ({
      pair: state.heatmapPair,
      release: state.heatmapRelease,
      heatmap: state.heatmap,
    })),
  );
  const names = run.configuration.schema.columns.map((column) => column.name);
  const jobId = run.summary.jobId;
  const schema = run.configuration.schema;
  const [failure, setFailure] = useState<{ key: string; message: string } | null>(null);
  const requestKey = `${jobId}|${release}|${pair?.join('|')}`;

  useEffect(() => {
    if (pair === null) return;
    let current = true;
    const key = `${jobId}|${release}|${pair.join('|')}`;
    dataSession.worker
      .pairHeatmap(jobId, release, schema, pair[0], pair[1])
      .then((result) => {
        if (!current) return;
        setFailure(null);
        setHeatmap(result);
      })
      .catch((error: unknown) => {
        if (!current) return;
        setHeatmap(null);
        setFailure({ key, message: messageOf(error) });
      });
    return () => {
      current = false;
    };
  }, [jobId, release, schema, pair]);

  if (pair === null) return <p className="hint">A heatmap needs at least two columns.</p>;
  return (
    <>
      <div className="heatmap-controls">
        <label htmlFor={rowSelectId}>Rows</label>
        <select
          id={rowSelectId}
          value={pair[0]}
          onChange={(event) => setHeatmapChoice([event.target.value, pair[1]], release)}
        >
          {names.map((name) => (
            <option key={name}>{name}</option>
          ))}
        </select>
        <label htmlFor={columnSelectId}>Columns</label>
        <select
          id={columnSelectId}
          value={pair[1]}
          onChange={(event) => setHeatmapChoice([pair[0], event.target.value], release)}
        >
          {names.map((name) => (
            <option key={name}>{name}</option>
          ))}
        </select>
        {run.summary.releases > 1 && (
          <>
            <label htmlFor={releaseSelectId}>Release</label>
            <select
              id={releaseSelectId}
              value={release}
              onChange={(event) => setHeatmapChoice(pair, Number(event.target.value))}
            >
              {Array.from({ length: run.summary.releases }, (_, i) => (
                <option key={i} value={i}>
                  {i + 1} of {run.summary.releases}
                </option>
              ))}
            </select>
          </>
        )}
      </div>
      {failure !== null && failure.key === requestKey ? (
        <p role="alert" className="error-message">
          The heatmap could not be computed: {failure.message}
        </p>
      ) : heatmap === null ? (
        <p className="hint">Computing…</p>
      ) : (
        <>
          <p className="hint">
            TVD of this pair: <strong data-testid="pair-tvd">{formatTvd(heatmap.tvd)}</strong>
          </p>
          <div className="heatmap-pair" data-testid="pair-heatmap">
            <Heatmap heatmap={heatmap} which="real" />
            <Heatmap heatmap={heatmap} which="synthetic" />
          </div>
        </>
      )}
    </>
  );
}

function Heatmap({ heatmap, which }: { heatmap: PairHeatmap; which: 'real' | 'synthetic' }) {
  const grid = heatmap[which];
  const max = Math.max(1e-12, ...heatmap.real.flat(), ...heatmap.synthetic.flat());
  return (
    <figure className="heatmap" data-chart="pair-heatmap">
      <figcaption>{which === 'real' ? 'Real' : 'Synthetic'}</figcaption>
      <div
        className="heatmap-grid"
        role="table"
        aria-label={`${which} shares of ${heatmap.rowColumn} by ${heatmap.columnColumn}`}
        style={{
          gridTemplateColumns: `minmax(4rem, max-content) repeat(${heatmap.columnLabels.length}, minmax(1.6rem, 1fr))`,
        }}
      >
        <div role="row" className="heatmap-row">
          <span role="columnheader" className="heatmap-corner">
            {heatmap.rowColumn} \ {heatmap.columnColumn}
          </span>
          {heatmap.columnLabels.map((label) => (
            <span role="columnheader" key={label} className="heatmap-column-label" title={label}>
              {label}
            </span>
          ))}
        </div>
        {heatmap.rowLabels.map((rowLabel, i) => (
          <div role="row" key={rowLabel} className="heatmap-row">
            <span role="rowheader" className="heatmap-row-label" title={rowLabel}>
              {rowLabel}
            </span>
            {grid[i]!.map((share, j) => (
              <span
                role="cell"
                key={j}
                className="heatmap-cell"
                style={{ backgroundColor: `rgba(38, 84, 124, ${Math.sqrt(share / max)})` }}
                title={`${rowLabel} × ${heatmap.columnLabels[j]}: ${(share * 100).toFixed(2)}%`}
              >
                <span className="visually-hidden">{(share * 100).toFixed(1)}%</span>
              </span>
            ))}
          </div>
        ))}
      </div>
    </figure>
  );
}
