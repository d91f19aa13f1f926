import { JobControls } from '../../components/JobControls';
import { LiveMcmcPanel } from './LiveMcmcPanel';
import { StepSection } from '../../components/StepSection';
import { stepNumber } from '../../components/step-order';
import { useRunReadiness } from '../../services/run-readiness';
import { cancelRun, startRun } from '../../services/run-synthesis';
import { useId } from 'react';
import { jobRowCounts } from '../../../core/job/job-row-counts';
import { HOLDOUT_SHARE, setKeepHoldout, useJobStore } from '../../state/job-store';
import { useDataStore } from '../../state/data-store';
import { useResultsStore } from '../../state/results-store';
import { formatCount } from '../../components/number-format';

/** Keep back a share of the rows so models trained on the synthetic data can be tested on unseen real rows. */
function HoldoutChoice() {
  const id = useId();
  const keepHoldout = useJobStore((state) => state.keepHoldout);
  const nRows = useDataStore((state) => state.dataset?.nRows ?? 0);
  const { kept, seen } = jobRowCounts(nRows, HOLDOUT_SHARE);
  return (
    <p className="holdout-choice">
      <label className="checkbox-label" htmlFor={id}>
        <input
          id={id}
          type="checkbox"
          checked={keepHoldout}
          onChange={(event) => setKeepHoldout(event.target.checked)}
        />
        Keep back {HOLDOUT_SHARE * 100}% of the rows ({formatCount(kept)}) as a test set for machine-learning
        efficacy
      </label>
      <span className="hint">
        {' '}
        The mechanism then sees only the other {formatCount(seen)} rows; the kept-back rows never leave this
        page.
      </span>
    </p>
  );
}

export function RunStep() {
  const readiness = useRunReadiness();
  const status = useJobStore((state) => state.runStatus);
  const error = useJobStore((state) => state.runError);
  const finished = useResultsStore((state) => state.run?.summary ?? null);
  const running = status === 'running';
  return (
    <StepSection
      id="step-run"
      title="Run"
      intro="The mechanism runs in a background worker; the page stays responsive and you can cancel at any time."
      unavailableBecause={
        readiness.mechanism === undefined
          ? `Pick a mechanism in step ${stepNumber('step-mechanism')} first.`
          : null
      }
    >
      <HoldoutChoice />
      <JobControls
        channel="run"
        progressLabel="Run progress"
        running={running}
        cancelLabel="Cancel run"
        onCancel={cancelRun}
        start={{
          label: `Run ${readiness.mechanism?.label ?? ''}`,
          onStart: () => void startRun(),
          disabled: !readiness.ready,
          primary: true,
          describedBy: readiness.blocker ? 'run-blocker' : undefined,
        }}
      />
      {readiness.blocker && !running && (
        <p id="run-blocker" className="hint">
          {readiness.blocker}
        </p>
      )}
      <LiveMcmcPanel />
      <div aria-live="polite" data-testid="run-status">
        {status === 'finished' && finished && (
          <p className="status-ok">
            Done: {finished.releases} synthetic table{finished.releases === 1 ? '' : 's'} of{' '}
            {formatCount(finished.rows)} rows in {(finished.runMillis / 1000).toFixed(2)} s. See Results
            below.
          </p>
        )}
        {status === 'cancelled' && <p className="status-neutral">Run cancelled. Nothing was released.</p>}
      </div>
      {status === 'failed' && error && (
        <p role="alert" className="error-message" data-testid="run-error">
          The run failed: {error}
        </p>
      )}
    </StepSection>
  );
}
