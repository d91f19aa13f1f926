import { DataHolderNote } from '../../components/DataHolderNote';
import { ErrorBoundary } from '../../components/ErrorBoundary';
import { StepSection } from '../../components/StepSection';
import { useResultsStore } from '../../state/results-store';
import { ClaimDetails } from '../mechanism/ClaimPanel';
import { RESULTS_PANELS } from './results-panels';

export function ResultsStep() {
  const run = useResultsStore((state) => state.run);
  const evaluation = useResultsStore((state) => state.evaluation);
  return (
    <StepSection
      id="step-results"
      number={6}
      title="Results"
      intro="How close the synthetic tables are to the real one, and the privacy claim they carry."
      unavailableBecause={run === null ? 'Run a mechanism in step 5 to see results.' : null}
    >
      {run !== null && (
        <>
          <details className="claim-after-run">
            <summary>Privacy claim of this run (part of the release)</summary>
            <ClaimDetails claim={run.summary.claim} />
          </details>
          <DataHolderNote />
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
                  <panel.Component run={run} evaluation={evaluation} />
                </ErrorBoundary>
              </section>
            ))}
          </div>
        </>
      )}
    </StepSection>
  );
}
