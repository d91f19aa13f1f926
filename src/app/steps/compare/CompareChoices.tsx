import type { CompareCandidate } from '../../services/compare-candidates';
import { setCompareSelected } from '../../state/compare-store';

/**
 * One checkbox per registered mechanism. A mechanism that cannot run at step 3's budget on this
 * schema is disabled and says why (the Mechanism step's checks).
 */
export function CompareChoices({
  candidates,
  selectedIds,
  disabled,
}: {
  candidates: CompareCandidate[];
  selectedIds: string[];
  disabled: boolean;
}) {
  return (
    <fieldset className="compare-choices">
      <legend>Mechanisms to compare</legend>
      {candidates.map(({ mechanism, readiness, usesCurrentParams }) => {
        const inputId = `compare-${mechanism.id}`;
        return (
          <div key={mechanism.id} className="compare-choice" data-testid={`compare-choice-${mechanism.id}`}>
            <input
              type="checkbox"
              id={inputId}
              checked={readiness.ready && selectedIds.includes(mechanism.id)}
              disabled={disabled || !readiness.ready}
              aria-describedby={`${inputId}-note`}
              onChange={(event) => setCompareSelected(mechanism.id, event.target.checked)}
            />
            <div>
              <label htmlFor={inputId} className="mechanism-label">
                {mechanism.label} <code>{mechanism.id}</code>
              </label>
              <p id={`${inputId}-note`} className={readiness.ready ? 'hint' : 'mechanism-problems'}>
                {readiness.ready
                  ? usesCurrentParams
                    ? 'Your parameters from the Mechanism step.'
                    : 'Default parameters.'
                  : `Cannot run: ${readiness.blocker}`}
              </p>
            </div>
          </div>
        );
      })}
    </fieldset>
  );
}
