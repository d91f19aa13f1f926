import { useId } from 'react';
import {
  NEIGHBOURING_CHOICES,
  NEIGHBOURING_PROTECTS,
  type Neighbouring,
} from '../../../core/mechanisms/neighbouring';
import { setNeighbouring, useJobStore } from '../../state/job-store';

const TITLES: Record<Neighbouring, string> = {
  'replace-one': 'Replace one row (n public)',
  'add-remove': 'Add or remove one row (n estimated)',
};

/**
 * The neighbouring relation of the run: which pairs of tables the guarantee cannot tell apart, with one
 * sentence on what each protects. Mechanisms that support only replace-one say so in their checks.
 */
export function NeighbouringChoice() {
  const name = useId();
  const chosen = useJobStore((state) => state.neighbouring);
  return (
    <fieldset className="neighbouring-choice" data-testid="neighbouring-choice">
      <legend>What the guarantee protects</legend>
      {NEIGHBOURING_CHOICES.map((relation) => (
        <label key={relation} className="neighbouring-option">
          <input
            type="radio"
            name={name}
            value={relation}
            checked={chosen === relation}
            onChange={() => setNeighbouring(relation)}
          />
          <span>
            <strong>{TITLES[relation]}</strong>: {NEIGHBOURING_PROTECTS[relation]}
          </span>
        </label>
      ))}
      <p className="hint">
        Other tools (private-pgm, OpenDP, SmartNoise) usually state add/remove; the claim below says what this
        run&apos;s guarantee implies under the other relation.
      </p>
    </fieldset>
  );
}
