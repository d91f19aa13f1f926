import { useId, useMemo } from 'react';
import { deltaAsTyped } from '../../../core/job/job-budget';
import { DataHolderNote } from '../../components/DataHolderNote';
import { JobControls } from '../../components/JobControls';
import { StepSection } from '../../components/StepSection';
import { reusedText } from '../../components/reused-text';
import { stepNumber } from '../../components/step-order';
import { useCompareCandidates } from '../../services/compare-candidates';
import { summarizeComparison } from '../../services/compare-summary';
import { cancelCompare, startCompare } from '../../services/run-compare';
import { setCompareRepeats, useCompareStore } from '../../state/compare-store';
import { useJobStore } from '../../state/job-store';
import { useSchemaStore } from '../../state/schema-store';
import { CompareChart } from './CompareChart';
import { CompareChoices } from './CompareChoices';
import { CompareTable } from './CompareTable';

export function CompareStep() {
  const schema = useSchemaStore((state) => state.schema);
  const epsilon = useJobStore((state) => state.epsilon);
  const delta = useJobStore((state) => state.delta);
  const candidates = useCompareCandidates();
  const selectedIds = useCompareStore((state) => state.selectedIds);
  const repeats = useCompareStore((state) => state.repeats);
  const status = useCompareStore((state) => state.status);
  const entries = useCompareStore((state) => state.entries);
  const settings = useCompareStore((state) => state.settings);
  const points = useCompareStore((state) => state.points);
  const reused = useCompareStore((state) => state.reused);
  const error = useCompareStore((state) => state.error);
  const rows = useMemo(() => summarizeComparison(entries, points), [entries, points]);
  const repeatsId = useId();
  const running = status === 'running';
  const chosen = candidates.filter(
    (candidate) => candidate.readiness.ready && selectedIds.includes(candidate.mechanism.id),
  ).length;
  const mechanismStep = stepNumber('step-mechanism');
  return (
    <StepSection
      id="step-compare"
      title="Compare mechanisms (optional)"
      intro="Run several mechanisms at the same ε and see their utility side by side."
      unavailableBecause={
        schema === null
          ? `Load a dataset and review its schema (step ${stepNumber('step-schema')}) to compare mechanisms.`
          : null
      }
    >
      <CompareChoices candidates={candidates} selectedIds={selectedIds} disabled={running} />
      <div className="sweep-settings">
        <label htmlFor={repeatsId}>Repeats per mechanism</label>
        <input
          id={repeatsId}
          type="number"
          min={1}
          max={20}
          defaultValue={repeats}
          onChange={(event) => {
            const value = Number(event.target.value);
            if (Number.isInteger(value) && value >= 1 && value <= 20) setCompareRepeats(value);
          }}
        />
      </div>
      <p className="hint">
        Each mechanism makes one release per repeat at ε = {epsilon.trim() || '?'}, δ = {deltaAsTyped(delta)}{' '}
        and the seed (if any) of step {mechanismStep}. The mechanism picked in step {mechanismStep} uses your
        parameters; the others use their defaults. {chosen * repeats} runs, spread over the workers.
      </p>
      <JobControls
        channel="compare"
        progressLabel="Comparison progress"
        running={running}
        cancelLabel="Cancel comparison"
        onCancel={cancelCompare}
        start={{
          label: chosen < 2 ? 'Compare (tick two or more)' : `Compare ${chosen} mechanisms`,
          onStart: () => void startCompare(),
          disabled: chosen < 2,
        }}
      />
      {error && (
        <p role="alert" className="error-message">
          The comparison failed: {error}
        </p>
      )}
      {status === 'cancelled' && (
        <p className="status-neutral">Comparison cancelled; finished runs are kept.</p>
      )}
      {rows.length > 0 && settings !== null && (
        <>
          <DataHolderNote>
            Computed from the real data; for the data holder. Not differentially private, not for release.
          </DataHolderNote>
          <p className="hint" data-testid="compare-settings">
            ε = {settings.epsilon}, δ = {settings.delta}, {settings.repeats} repeat
            {settings.repeats === 1 ? '' : 's'} per mechanism{settings.seeded ? ', seeded' : ''}. Each value
            is the mean over the repeats; below it, the lowest and highest.
          </p>
          <CompareTable rows={rows} repeats={settings.repeats} />
          <p className="caption">
            Good: low TVD (0 means the real and synthetic marginals match) and a pMSE near 0 (a classifier
            cannot tell the synthetic rows from the real ones), at the same privacy claim. “best” marks the
            lowest mean per column. In the charts, a bar is the mean and its line the range over repeats.
          </p>
          {reused > 0 && (
            <p className="hint" data-testid="compare-reused">
              {reusedText(reused, settings.repeats * entries.length, 'runs', 'comparison')}
            </p>
          )}
          <CompareChart rows={rows} />
        </>
      )}
    </StepSection>
  );
}
