import { useMemo } from 'react';
import { MECHANISM_CATALOGUE, type MechanismId } from '../../../core/mechanisms/catalogue';
import { resolveParams } from '../../../core/mechanisms/params';
import type { MechanismMeta } from '../../../core/mechanisms/types';
import type { RankedMechanism, Recommendation } from '../../../core/recommend/rank';
import type { Schema } from '../../../core/table/types';
import { setPreference } from '../../state/prefs-store';
import { selectMechanism, setParamDraft } from '../../state/job-store';
import { messageOf } from '../../services/run-readiness';

/** Why `mechanism` cannot run on `schema` with its default parameters (check() sentences). */
function problemsWithDefaults(mechanism: MechanismMeta, schema: Schema): string[] {
  try {
    return mechanism.check(schema, resolveParams(mechanism, {}));
  } catch (error) {
    return [messageOf(error)];
  }
}

/** "model = glom, label = class": the settings a recommendation's figure used. */
function settingsText(fit: RankedMechanism): string {
  return Object.entries(fit.params)
    .map(([name, value]) => `${name} = ${String(value)}`)
    .join(', ');
}

/** Picks the mechanism with the settings its recommendation names (as form drafts the user can still edit). */
function pickWithSuggestedSettings(mechanismId: MechanismId, fit: RankedMechanism): void {
  for (const [name, value] of Object.entries(fit.params))
    setParamDraft(mechanismId, name, typeof value === 'boolean' ? value : String(value));
  selectMechanism(mechanismId);
  setPreference('lastMechanismId', mechanismId);
}

/**
 * Every registered mechanism as a radio choice with its summary, reference and fit to the schema. With
 * a recommendation (a goal was chosen) the list follows its ranking: the first two that fit are marked
 * with the reason and its measured figure, each other entry says where it stands, and those whose
 * check() fails on this table are greyed with the sentences.
 */
export function MechanismCatalogue({
  schema,
  selectedId,
  recommendation = null,
}: {
  schema: Schema;
  selectedId: string | null;
  recommendation?: Recommendation | null;
}) {
  // With a ranking, its check() sentences (with the run's n, ε and δ) replace these.
  const ranking = recommendation !== null;
  const problems = useMemo(
    () =>
      ranking
        ? new Map<string, string[]>()
        : new Map(
            MECHANISM_CATALOGUE.map((mechanism) => [mechanism.id, problemsWithDefaults(mechanism, schema)]),
          ),
    [schema, ranking],
  );
  const ranked = useMemo(
    () => new Map((recommendation?.ranking ?? []).map((entry) => [entry.id, entry])),
    [recommendation],
  );
  const ordered = useMemo(
    () =>
      recommendation === null
        ? MECHANISM_CATALOGUE
        : recommendation.ranking.flatMap((entry) => MECHANISM_CATALOGUE.filter((m) => m.id === entry.id)),
    [recommendation],
  );
  if (MECHANISM_CATALOGUE.length === 0)
    return <p className="empty-state">No mechanisms are registered in this build.</p>;
  return (
    <fieldset className="mechanism-catalogue">
      <legend>Mechanism</legend>
      {ordered.map((mechanism) => {
        const fit: RankedMechanism | undefined = ranked.get(mechanism.id);
        const issues = fit?.problems ?? problems.get(mechanism.id) ?? [];
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
            className={
              `mechanism-option${selectedId === mechanism.id ? ' mechanism-option-selected' : ''}` +
              (fit !== undefined && issues.length > 0 ? ' mechanism-option-unavailable' : '') +
              (fit?.recommended ? ' mechanism-option-recommended' : '')
            }
            data-testid={`mechanism-${mechanism.id}`}
            data-recommended={fit?.recommended ? 'true' : undefined}
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
                {fit !== undefined && (
                  <p
                    className={fit.recommended ? 'recommend-reason' : 'hint'}
                    data-testid={`recommend-reason-${mechanism.id}`}
                  >
                    {fit.recommended && <strong>Recommended for this table and goal: </strong>}
                    {fit.reason}
                    {Object.keys(fit.params).length > 0 && (
                      <>
                        {` Settings: ${settingsText(fit)}. `}
                        <button
                          type="button"
                          className="link-button"
                          onClick={() => pickWithSuggestedSettings(mechanism.id, fit)}
                          aria-label={`Use these settings for ${mechanism.label} (${settingsText(fit)})`}
                        >
                          Use these settings
                        </button>
                      </>
                    )}
                  </p>
                )}
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
