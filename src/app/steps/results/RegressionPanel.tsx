import { useId, useState } from 'react';
import type { RegressionComparison } from '../../../core/metrics/regression-comparison';
import {
  CoefficientPlot,
  RELEASE_COLOUR,
  REAL_COLOUR,
  SYNTHETIC_COLOUR,
  type CoefficientInterval,
  type CoefficientSeries,
} from '../../charts/CoefficientPlot';
import { dataSession } from '../../services/workers';
import { messageOf } from '../../services/run-readiness';
import type { FinishedRun } from '../../state/results-store';
import { formatCount } from '../../components/number-format';

const format = (value: number | null | undefined, digits = 3) =>
  value === null || value === undefined ? '—' : value.toPrecision(digits);

/**
 * The regression comparison for a model the user picks: coefficients fitted on the real data and on
 * the synthetic releases (combined by the DIPS rules when there are several), as a coefficient plot
 * and a table with standardised differences and confidence-interval overlap (Karr et al. 2006).
 */
export function RegressionPanel({ run }: { run: FinishedRun }) {
  const targetId = useId();
  const columns = run.configuration.schema.columns;
  const [target, setTarget] = useState(() => (columns.find((c) => c.type === 'numeric') ?? columns[0]!).name);
  const [predictors, setPredictors] = useState<string[]>(() =>
    columns.map((c) => c.name).filter((name) => name !== target),
  );
  const [result, setResult] = useState<RegressionComparison | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const compare = async () => {
    setBusy(true);
    setError(null);
    try {
      const chosen = predictors.filter((name) => name !== target);
      setResult(
        await dataSession.worker.compareRegressions(run.summary.jobId, run.configuration.schema, {
          target,
          predictors: chosen,
        }),
      );
    } catch (failure) {
      setResult(null);
      setError(messageOf(failure));
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <div className="regression-controls">
        <label htmlFor={targetId}>Response</label>
        <select
          id={targetId}
          value={target}
          onChange={(event) => {
            const next = event.target.value;
            setTarget(next);
            setPredictors(columns.map((c) => c.name).filter((name) => name !== next));
          }}
        >
          {columns.map((column) => (
            <option key={column.name}>{column.name}</option>
          ))}
        </select>
        <fieldset className="predictor-list">
          <legend>Predictors</legend>
          {columns
            .filter((column) => column.name !== target)
            .map((column) => (
              <label key={column.name} className="checkbox-label">
                <input
                  type="checkbox"
                  checked={predictors.includes(column.name)}
                  onChange={(event) =>
                    setPredictors(
                      event.target.checked
                        ? [...predictors, column.name]
                        : predictors.filter((name) => name !== column.name),
                    )
                  }
                />
                {column.name}
              </label>
            ))}
        </fieldset>
        <button type="button" disabled={busy} onClick={() => void compare()}>
          Compare regressions
        </button>
      </div>
      {error && (
        <p role="alert" className="error-message">
          {error}
        </p>
      )}
      {result && <RegressionResult result={result} />}
    </>
  );
}

function RegressionResult({ result }: { result: RegressionComparison }) {
  const combined = result.combined;
  const syntheticLabel = combined ? `synthetic (combined over ${combined.releases} releases)` : 'synthetic';
  const realIntervals: CoefficientInterval[] = result.terms.map((_, t) => ({
    estimate: result.real.coefficients[t] ?? null,
    lower: result.real.ciLower[t] ?? null,
    upper: result.real.ciUpper[t] ?? null,
  }));
  const first = result.releases[0]!;
  const releaseIntervals = result.releases.map((release) =>
    result.terms.map((_, t) => ({
      estimate: release.fit.coefficients[t] ?? null,
      lower: release.fit.ciLower[t] ?? null,
      upper: release.fit.ciUpper[t] ?? null,
    })),
  );
  const combinedIntervals: CoefficientInterval[] | null = combined
    ? result.terms.map((_, t) => ({
        estimate: combined.estimate[t] ?? null,
        lower: combined.ciLower[t] ?? null,
        upper: combined.ciUpper[t] ?? null,
      }))
    : null;
  const syntheticIntervals = combinedIntervals ?? releaseIntervals[0]!;
  const series: CoefficientSeries[] = [
    { label: 'real', legend: 'real', colour: REAL_COLOUR, shape: 'circle', intervals: realIntervals },
    ...releaseIntervals.map((intervals, i) => ({
      label: result.releases.length > 1 ? `release ${i + 1}` : 'synthetic',
      legend: combinedIntervals ? 'each release' : 'synthetic',
      colour: combinedIntervals ? RELEASE_COLOUR : SYNTHETIC_COLOUR,
      shape: 'square' as const,
      intervals,
    })),
    ...(combinedIntervals
      ? [
          {
            label: syntheticLabel,
            legend: syntheticLabel,
            colour: SYNTHETIC_COLOUR,
            shape: 'diamond' as const,
            intervals: combinedIntervals,
          },
        ]
      : []),
  ];
  const standardized = combined ? combined.standardizedDifference : first.standardizedDifference;
  const overlap = combined ? combined.ciOverlap : first.ciOverlap;
  return (
    <div data-testid="regression-result">
      <p className="hint">
        {result.family === 'linear' ? 'Linear' : 'Logistic'} regression of {result.target}
        {result.positiveLevel ? ` = ${result.positiveLevel}` : ''} on {result.predictors.join(', ')};{' '}
        {Math.round(result.level * 100)}% intervals; {formatCount(result.real.rowsUsed)} complete real rows.
      </p>
      <CoefficientPlot terms={result.terms} series={series} />
      <div className="table-scroll" tabIndex={0} role="region" aria-label="Regression coefficients table">
        <table className="metric-table">
          <thead>
            <tr>
              <th scope="col">Term</th>
              <th scope="col">Real β (SE)</th>
              <th scope="col">Synthetic β</th>
              <th scope="col">Standardised difference</th>
              <th scope="col">CI overlap</th>
            </tr>
          </thead>
          <tbody>
            {result.terms.map((term, t) => (
              <tr key={term}>
                <th scope="row">{term}</th>
                <td>
                  {format(result.real.coefficients[t])} ({format(result.real.standardErrors[t], 2)})
                </td>
                <td>{format(syntheticIntervals[t]!.estimate)}</td>
                <td>{format(standardized[t], 2)}</td>
                <td>{format(overlap[t], 2)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
