import { useId } from 'react';
import type { UtilityReport } from '../../../core/metrics/evaluate';
import type { MlEfficacyReport } from '../../../core/metrics/ml-efficacy';
import { REAL_COLOUR, SYNTHETIC_COLOUR } from '../../charts/OverlayBarChart';
import { SeriesLegendItem } from '../../charts/series-style';
import { ScoreBarChart, type ScoreBarGroup } from '../../charts/ScoreBarChart';
import { startEvaluation } from '../../services/run-evaluation';
import { useResultsStore, type FinishedRun } from '../../state/results-store';
import { largestProportionStandardError } from '../../../core/stats/proportion-standard-error';
import { formatCount } from '../../components/number-format';

const format = (value: number | null) => (value === null ? '—' : value.toFixed(3));

/**
 * Machine-learning efficacy: models trained on the synthetic data (and, as the reference, on the
 * real rows the mechanism saw) predict the kept-back real rows; agreement with the real-trained
 * model per row (plausible deniability §6.3). Needs rows kept back at run time.
 */
export function MlEfficacyPanel({ run, evaluation }: { run: FinishedRun; evaluation: UtilityReport | null }) {
  const targetId = useId();
  const settings = useResultsStore((state) => state.evaluationSettings);
  const status = useResultsStore((state) => state.evaluationStatus);
  const ml = evaluation?.mlEfficacy ?? null;
  const columns = run.configuration.schema.columns;
  return (
    <>
      <div className="regression-controls">
        <label htmlFor={targetId}>Predict</label>
        <select
          id={targetId}
          value={settings?.mlTarget ?? ''}
          disabled={status === 'running'}
          onChange={(event) =>
            void startEvaluation(run.summary.jobId, run.configuration.schema, {
              pmsePermutations: settings?.pmsePermutations ?? 50,
              mlTarget: event.target.value,
            })
          }
        >
          {columns.map((column) => (
            <option key={column.name}>{column.name}</option>
          ))}
        </select>
        <span className="hint">Changing it evaluates again.</span>
      </div>
      {ml === null ? (
        <p className="hint">{status === 'running' ? 'Evaluating…' : 'Not computed for this run.'}</p>
      ) : (
        <>
          <p className="hint">
            Task: {ml.task.positiveClass}; {formatCount(ml.task.holdoutRowsScored)} kept-back rows scored (
            {(ml.task.holdoutPositiveShare * 100).toFixed(0)}% positive; at most{' '}
            {formatCount(ml.task.maxTestRows)}, drawn uniformly), training sets of at most{' '}
            {formatCount(ml.task.maxTrainRows)} rows drawn uniformly. Standard error of an accuracy on these
            rows: at most {largestProportionStandardError(ml.task.holdoutRowsScored).toFixed(3)}.
          </p>
          <p className="chart-legend">
            <SeriesLegendItem kind="real">trained on real rows (solid)</SeriesLegendItem>{' '}
            <SeriesLegendItem kind="synthetic">
              trained on synthetic rows (hatched; mean over releases)
            </SeriesLegendItem>
          </p>
          <div data-testid="ml-efficacy-chart">
            <ScoreBarChart
              groups={efficacyBarGroups(ml)}
              ariaLabel="Accuracy and AUC on the kept-back rows of models trained on real and on synthetic rows"
            />
          </div>
          <div
            className="table-scroll"
            tabIndex={0}
            role="region"
            aria-label="Machine-learning efficacy table"
          >
            <table className="metric-table" data-testid="ml-efficacy-table">
              <thead>
                <tr>
                  <th scope="col">Model</th>
                  <th scope="col">Accuracy, trained on real</th>
                  <th scope="col">Accuracy, trained on synthetic</th>
                  <th scope="col">AUC real / synthetic</th>
                  <th scope="col">Agreement with the real-trained model</th>
                </tr>
              </thead>
              <tbody>
                {ml.models.map((model) => (
                  <tr key={model.model}>
                    <th scope="row">{model.model}</th>
                    <td>{format(model.real.accuracy)}</td>
                    <td>{format(model.mean.accuracy)}</td>
                    <td>
                      {format(model.real.auc)} / {format(model.mean.auc)}
                    </td>
                    <td>{format(model.mean.agreementWithReal)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </>
  );
}

/** Two groups per model (accuracy, AUC), each with the real-trained and the synthetic-trained bar. */
function efficacyBarGroups(ml: MlEfficacyReport): ScoreBarGroup[] {
  return ml.models.flatMap((model) => [
    {
      label: `${model.model} accuracy`,
      bars: [
        { label: 'trained on real', value: model.real.accuracy, colour: REAL_COLOUR },
        {
          label: 'trained on synthetic',
          value: model.mean.accuracy,
          colour: SYNTHETIC_COLOUR,
          synthetic: true,
        },
      ],
    },
    {
      label: `${model.model} AUC`,
      bars: [
        { label: 'trained on real', value: model.real.auc, colour: REAL_COLOUR },
        { label: 'trained on synthetic', value: model.mean.auc, colour: SYNTHETIC_COLOUR, synthetic: true },
      ],
    },
  ]);
}
