import { useId, useState } from 'react';
import type { InferenceWithRealEstimate } from '../../../core/inference/release-inference';
import { dataSession } from '../../services/workers';
import { messageOf } from '../../services/run-readiness';
import type { FinishedRun } from '../../state/results-store';

type Kind = 'mean' | 'proportion' | 'coef';

const show = (value: number | null) => (value === null ? '∞' : Number(value.toPrecision(4)).toString());

/**
 * Inference from the M releases as a person who receives them would do it: an estimand (a mean, a
 * proportion or regression coefficients) on each release, combined by the DIPS rules (eqs. 9–11),
 * beside the same estimand on the real data, which only the data holder can see.
 */
export function InferencePanel({ run }: { run: FinishedRun }) {
  const kindId = useId();
  const columnId = useId();
  const levelId = useId();
  const columns = run.configuration.schema.columns;
  const numeric = columns.filter((c) => c.type === 'numeric').map((c) => c.name);
  const [kind, setKind] = useState<Kind>(numeric.length > 0 ? 'mean' : 'proportion');
  const [column, setColumn] = useState(() => numeric[0] ?? columns[0]!.name);
  const [level, setLevel] = useState('');
  const [predictors, setPredictors] = useState<string[]>([]);
  const [result, setResult] = useState<InferenceWithRealEstimate | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const chosen = columns.find((c) => c.name === column);
  const levels = chosen?.type === 'categorical' ? (chosen.categories ?? []) : [];
  const estimand =
    kind === 'mean'
      ? `mean:${column}`
      : kind === 'proportion'
        ? `proportion:${column}=${level || levels[0] || ''}`
        : `coef:${column}~${predictors.filter((p) => p !== column).join('+')}`;

  const infer = async () => {
    setBusy(true);
    setError(null);
    try {
      setResult(
        await dataSession.worker.inferFromReleases(run.summary.jobId, run.configuration.schema, estimand),
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
        <label htmlFor={kindId}>Estimand</label>
        <select id={kindId} value={kind} onChange={(event) => setKind(event.target.value as Kind)}>
          <option value="mean">Mean of a column</option>
          <option value="proportion">Proportion of a level</option>
          <option value="coef">Regression coefficients</option>
        </select>
        <label htmlFor={columnId}>{kind === 'coef' ? 'Response' : 'Column'}</label>
        <select id={columnId} value={column} onChange={(event) => setColumn(event.target.value)}>
          {columns.map((c) => (
            <option key={c.name}>{c.name}</option>
          ))}
        </select>
        {kind === 'proportion' && (
          <>
            <label htmlFor={levelId}>Level</label>
            <input
              id={levelId}
              value={level || levels[0] || ''}
              onChange={(event) => setLevel(event.target.value)}
            />
          </>
        )}
        {kind === 'coef' && (
          <fieldset className="predictor-list">
            <legend>Predictors</legend>
            {columns
              .filter((c) => c.name !== column)
              .map((c) => (
                <label key={c.name} className="checkbox-label">
                  <input
                    type="checkbox"
                    checked={predictors.includes(c.name)}
                    onChange={(event) =>
                      setPredictors(
                        event.target.checked
                          ? [...predictors, c.name]
                          : predictors.filter((name) => name !== c.name),
                      )
                    }
                  />
                  {c.name}
                </label>
              ))}
          </fieldset>
        )}
        <button type="button" disabled={busy} onClick={() => void infer()}>
          Combine releases
        </button>
      </div>
      {error && (
        <p role="alert" className="error-message">
          {error}
        </p>
      )}
      {result && <InferenceTable result={result} />}
    </>
  );
}

function InferenceTable({ result }: { result: InferenceWithRealEstimate }) {
  const percent = Math.round(result.combined.level * 100);
  return (
    <table className="inference-table" aria-label={`Inference for ${result.estimand}`}>
      <caption>
        {result.estimand} combined over {result.combined.releases} releases: T = B/m + W, t interval with ν =
        (m − 1)(1 + mW/B)².
      </caption>
      <thead>
        <tr>
          <th scope="col">Term</th>
          <th scope="col">Estimate</th>
          <th scope="col">Standard error</th>
          <th scope="col">{percent}% interval</th>
          <th scope="col">ν</th>
          <th scope="col">Real data (visible only to you, the data holder)</th>
        </tr>
      </thead>
      <tbody>
        {result.combined.parameters.map((p, i) => {
          const real = result.real[i];
          return (
            <tr key={p.term}>
              <th scope="row">{p.term}</th>
              <td>{show(p.estimate)}</td>
              <td>{show(p.se)}</td>
              <td>
                [{show(p.ci[0])}, {show(p.ci[1])}]
              </td>
              <td>{show(p.df)}</td>
              <td>{real ? `${show(real.estimate)} [${show(real.ci[0])}, ${show(real.ci[1])}]` : '—'}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
