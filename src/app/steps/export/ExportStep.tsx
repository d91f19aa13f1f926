import { useState } from 'react';
import { DataHolderNote } from '../../components/DataHolderNote';
import { StepSection } from '../../components/StepSection';
import { stepNumber } from '../../components/step-order';
import {
  downloadEvaluationReport,
  downloadReleaseCsv,
  downloadReleaseReport,
  withheldValuesOf,
} from '../../services/export-files';
import {
  releaseCsvFileName,
  releaseReportFileName,
  evaluationReportFileName,
} from '../../services/file-names';
import { messageOf } from '../../services/run-readiness';
import { useResultsStore } from '../../state/results-store';
import { cumulativeBudget, useLedgerStore } from '../../state/ledger-store';
import { formatLedgerTotal, ledgerTotal } from '../../../core/privacy/ledger';

export function ExportStep() {
  const run = useResultsStore((state) => state.run);
  const evaluation = useResultsStore((state) => state.evaluation);
  const evaluationStatus = useResultsStore((state) => state.evaluationStatus);
  const [error, setError] = useState<string | null>(null);
  const [publishInferred, setPublishInferred] = useState(false);
  const withheld = run === null ? [] : withheldValuesOf(run);
  const exports = useLedgerStore((state) => state.exports);
  const looks = useLedgerStore((state) => state.looks);
  const spentInAll = cumulativeBudget({ looks, exports });
  // A save waiting for the user to confirm a further export of the same data.
  const [pending, setPending] = useState<{ runId: string; action: () => void | Promise<void> } | null>(null);
  const [confirmedRunId, setConfirmedRunId] = useState<string | null>(null);
  const earlierExports = run === null ? [] : exports.filter((e) => e.key !== run.summary.jobId);
  const alreadyExported = run !== null && exports.some((e) => e.key === run.summary.jobId);
  /** Saves at once, unless this is a new export of data already exported: then asks first. */
  const save = (action: () => void | Promise<void>) => {
    if (run === null) return;
    const runId = run.summary.jobId;
    if (earlierExports.length > 0 && !alreadyExported && confirmedRunId !== runId) {
      setPending({ runId, action });
      return;
    }
    void attempt(action);
  };
  const attempt = async (action: () => void | Promise<void>) => {
    setError(null);
    try {
      await action();
    } catch (failure) {
      setError(messageOf(failure));
    }
  };
  return (
    <StepSection
      id="step-export"
      title="Export"
      intro="Save the synthetic tables with their release report. Files are made in this tab and saved directly."
      unavailableBecause={
        run === null
          ? `Run a mechanism in step ${stepNumber('step-run')} to export its synthetic data.`
          : null
      }
    >
      {run !== null && (
        <>
          <h3>The release</h3>
          <p className="hint">
            The synthetic CSV files and the release report hold only differentially private output and public
            configuration. Text cells that start with = + - @, a tab or a carriage return are prefixed with '
            so spreadsheets do not run them.
          </p>
          {run.configuration.seeded && (
            <p className="seed-warning" role="note">
              This run was seeded: it is reproducible and for demos only, not for release.
            </p>
          )}
          {pending !== null && pending.runId === run.summary.jobId && (
            <div className="export-warning" role="alert" data-testid="second-export-warning">
              <p>
                {earlierExports.length === 1 ? 'A release' : `${earlierExports.length} releases`} of this
                dataset {earlierExports.length === 1 ? 'was' : 'were'} already exported (
                {formatLedgerTotal(ledgerTotal(earlierExports))}). Exporting this run as well makes{' '}
                {formatLedgerTotal(ledgerTotal([...earlierExports, run.summary.claim]))} exported from this
                dataset in total. Everything spent on it so far, including what was shown and not exported
                (runs, ε-sweep points, comparisons, domain learnings), is {formatLedgerTotal(spentInAll)}; its
                report will state both.
              </p>
              <button
                type="button"
                onClick={() => {
                  const { action } = pending;
                  setConfirmedRunId(pending.runId);
                  setPending(null);
                  void attempt(action);
                }}
              >
                Export anyway
              </button>{' '}
              <button type="button" onClick={() => setPending(null)}>
                Cancel
              </button>
            </div>
          )}
          <ul className="export-list">
            {Array.from({ length: run.summary.releases }, (_, i) => (
              <li key={i}>
                <button type="button" onClick={() => save(() => downloadReleaseCsv(run, i))}>
                  Download synthetic CSV {i + 1} of {run.summary.releases}
                </button>{' '}
                <code>
                  {releaseCsvFileName(
                    run.configuration.mechanismId,
                    run.configuration.epsilon,
                    i + 1,
                    run.summary.releases,
                    run.configuration.seeded,
                  )}
                </code>
              </li>
            ))}
            <li>
              <button
                type="button"
                onClick={() => save(() => downloadReleaseReport(run, { publishInferred }))}
              >
                Download release report (JSON)
              </button>{' '}
              <code>
                {releaseReportFileName(
                  run.configuration.mechanismId,
                  run.configuration.epsilon,
                  run.configuration.seeded,
                )}
              </code>
            </li>
          </ul>
          {withheld.length > 0 && (
            <div className="publish-inferred">
              <p className="hint" id="withheld-values-note">
                The report withholds the values read from the data ({withheld.join(', ')}): they are the
                data’s own minimum and maximum and its list of categories, which can single out a person (a
                category only one person has, the income of the richest).
              </p>
              <label className="checkbox-label">
                <input
                  type="checkbox"
                  checked={publishInferred}
                  aria-describedby="withheld-values-note"
                  onChange={(event) => setPublishInferred(event.target.checked)}
                />
                Publish these inferred values in the report (they are exact values of the data, not covered by
                the privacy claim)
              </label>
            </div>
          )}
          <h3>For the data holder only</h3>
          <DataHolderNote>
            The evaluation report compares with the real data. Do not publish it with the release.
          </DataHolderNote>
          <p>
            <button
              type="button"
              disabled={evaluation === null}
              aria-describedby={evaluation === null ? 'evaluation-report-pending' : undefined}
              onClick={() =>
                evaluation !== null && void attempt(() => downloadEvaluationReport(run, evaluation))
              }
            >
              Download evaluation report (for the data holder, not for release)
            </button>{' '}
            <code>{evaluationReportFileName(run.configuration.mechanismId, run.configuration.epsilon)}</code>
          </p>
          {evaluation === null && (
            <p id="evaluation-report-pending" className="status-neutral">
              {evaluationStatus === 'failed' || evaluationStatus === 'cancelled'
                ? `The evaluation report needs a finished evaluation: use “Evaluate again” in step ${stepNumber('step-results')}.`
                : `The evaluation report can be saved when the evaluation in step ${stepNumber('step-results')} has finished.`}
            </p>
          )}
          {error && (
            <p role="alert" className="error-message">
              {error}
            </p>
          )}
        </>
      )}
    </StepSection>
  );
}
