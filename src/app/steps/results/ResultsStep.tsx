import { useMemo } from 'react';
import type { UtilityReport } from '../../../core/metrics/evaluate';
import { DataHolderNote } from '../../components/DataHolderNote';
import { ErrorBoundary } from '../../components/ErrorBoundary';
import { JobControls } from '../../components/JobControls';
import { StepSection } from '../../components/StepSection';
import { useStaggeredValue } from '../../components/StaggeredMount';
import { stepNumber } from '../../components/step-order';
import { cancelEvaluation, startEvaluation } from '../../services/run-evaluation';
import { useResultsStore, type FinishedRun } from '../../state/results-store';
import { ClaimDetails } from '../mechanism/ClaimPanel';
import type { ResultsPanel } from './panel-types';
import { RESULTS_PANELS } from './results-panels';

export function ResultsStep() {
  const run = useResultsStore((state) => state.run);
  const evaluation = useResultsStore((state) => state.evaluation);
  const evaluationStatus = useResultsStore((state) => state.evaluationStatus);
  const evaluationError = useResultsStore((state) => state.evaluationError);
  return (
    <StepSection
      id="step-results"
      title="Results"
      intro="How close the synthetic tables are to the real one, and the privacy claim they carry."
      unavailableBecause={
        run === null ? `Run a mechanism in step ${stepNumber('step-run')} to see results.` : null
      }
    >
      {run !== null && (
        <>
          <details className="claim-after-run">
            <summary>Privacy claim of this run (part of the release)</summary>
            <ClaimDetails claim={run.summary.claim} tuningNotes={run.configuration.tuningNotes} />
          </details>
          <DataHolderNote />
          <div className="evaluation-status" data-testid="evaluation-status" aria-live="polite">
            <JobControls
              channel="evaluate"
              progressLabel="Evaluation progress"
              running={evaluationStatus === 'running'}
              cancelLabel="Stop evaluating"
              onCancel={cancelEvaluation}
            >
              <span>Evaluating utility (pMSE, marginals, correlations, …) in the background:</span>
            </JobControls>
            {(evaluationStatus === 'cancelled' || evaluationStatus === 'failed') && (
              <p className={evaluationStatus === 'failed' ? 'error-message' : 'status-neutral'}>
                {evaluationStatus === 'failed'
                  ? `The evaluation failed: ${evaluationError}`
                  : 'Evaluation stopped.'}{' '}
                <button
                  type="button"
                  onClick={() => void startEvaluation(run.summary.jobId, run.configuration.schema)}
                >
                  Evaluate again
                </button>
              </p>
            )}
            {evaluationStatus === 'finished' && <p className="status-ok">Full evaluation done.</p>}
          </div>
          <div className="results-grid">
            {RESULTS_PANELS.filter((panel) => panel.isAvailable(run, evaluation)).map((panel) => (
              <section
                key={panel.id}
                className={`results-panel${panel.wide ? ' results-panel-wide' : ''}`}
                aria-labelledby={`panel-${panel.id}`}
                data-testid={`panel-${panel.id}`}
              >
                <h3 id={`panel-${panel.id}`}>
                  {panel.title}
                  {panel.forDataHolder && <span className="data-holder-tag">for the data holder</span>}
                </h3>
                <p className="caption">{panel.caption}</p>
                <ErrorBoundary area={`the ${panel.title} panel`}>
                  <PanelBody panel={panel} run={run} evaluation={evaluation} />
                </ErrorBoundary>
              </section>
            ))}
          </div>
        </>
      )}
    </StepSection>
  );
}

/**
 * A panel's content, drawn in its turn: the panels of a run (and their redrawing when the evaluation
 * arrives) are drawn one per task, not all in one, so the page stays responsive while they appear.
 */
function PanelBody({
  panel,
  run,
  evaluation,
}: {
  panel: ResultsPanel;
  run: FinishedRun;
  evaluation: UtilityReport | null;
}) {
  const shown = useStaggeredValue(useMemo(() => ({ run, evaluation }), [run, evaluation]));
  // A new run's panels never show the previous run's numbers while they wait for their turn; a new
  // evaluation of the same run replaces the old one in the panel's turn.
  if (shown === undefined || shown.run !== run) {
    return (
      <div className="chart-placeholder" style={{ height: 120 }} aria-hidden="true">
        Drawing…
      </div>
    );
  }
  return <panel.Component run={shown.run} evaluation={shown.evaluation} />;
}
