import { useMemo } from 'react';
import { MECHANISM_CATALOGUE } from '../../../core/mechanisms/catalogue';
import { resolveParams } from '../../../core/mechanisms/params';
import type { MechanismMeta } from '../../../core/mechanisms/types';
import type { Schema } from '../../../core/table/types';
import { setPreference } from '../../state/prefs-store';
import { selectMechanism } from '../../state/job-store';
import { messageOf } from '../../services/run-readiness';

/** Why `mechanism` cannot run on `schema` with its default parameters (check() sentences). */
function problemsWithDefaults(mechanism: MechanismMeta, schema: Schema): string[] {
  try {
    return mechanism.check(schema, resolveParams(mechanism, {}));
  } catch (error) {
    return [messageOf(error)];
  }
}

/** Every registered mechanism as a radio choice with its summary, reference and fit to the schema. */
export function MechanismCatalogue({ schema, selectedId }: { schema: Schema; selectedId: string | null }) {
  const problems = useMemo(
    () =>
      new Map(
        MECHANISM_CATALOGUE.map((mechanism) => [mechanism.id, problemsWithDefaults(mechanism, schema)]),
      ),
    [schema],
  );
  if (MECHANISM_CATALOGUE.length === 0)
    return <p className="empty-state">No mechanisms are registered in this build.</p>;
  return (
    <fieldset className="mechanism-catalogue">
      <legend>Mechanism</legend>
      {MECHANISM_CATALOGUE.map((mechanism) => {
        const issues = problems.get(mechanism.id) ?? [];
        const inputId = `mechanism-${mechanism.id}`;
        const types = [
          mechanism.supports.numeric && 'numeric',
          mechanism.supports.categorical && 'categorical',
        ]
          .filter(Boolean)
          .join(' and ');
        return (
          <div
            key={mechanism.id}
            className={`mechanism-option${selectedId === mechanism.id ? ' mechanism-option-selected' : ''}`}
            data-testid={`mechanism-${mechanism.id}`}
          >
            <input
              type="radio"
              id={inputId}
              name="mechanism"
              value={mechanism.id}
              checked={selectedId === mechanism.id}
              aria-describedby={`${inputId}-details`}
              onChange={() => {
                selectMechanism(mechanism.id);
                setPreference('lastMechanismId', mechanism.id);
              }}
            />
            <div>
              <label htmlFor={inputId} className="mechanism-label">
                {mechanism.label} <code>{mechanism.id}</code>
              </label>
              <div id={`${inputId}-details`}>
                <p>{mechanism.summary}</p>
                <p className="hint">
                  Supports {types} columns. Reference: {mechanism.reference}
                </p>
                {issues.length > 0 && (
                  <div className="mechanism-problems">
                    <p>Cannot run on this schema yet:</p>
                    <ul>
                      {issues.map((issue, i) => (
                        <li key={i}>{issue}</li>
                      ))}
                    </ul>
                  </div>
                )}
              </div>
            </div>
          </div>
        );
      })}
    </fieldset>
  );
}
