import { useId } from 'react';
import {
  SLIDER_MAX_EPSILON,
  SLIDER_MIN_EPSILON,
  SLIDER_STEPS,
  epsilonAtSliderPosition,
  sliderPositionOfEpsilon,
} from '../../services/epsilon-scale';
import { RELEASE_LIMITS } from '../../../core/mechanisms/release-limits';
import { setBudgetField, setEpsilon, setReleases, useJobStore } from '../../state/job-store';
import { useRunReadiness } from '../../services/run-readiness';

/** ε (number field and log-scale slider 0.01–10), δ, the number of releases M and an optional seed. */
export function BudgetFields() {
  const epsilonId = useId();
  const sliderId = useId();
  const deltaId = useId();
  const releasesId = useId();
  const seedId = useId();
  const seedWarningId = useId();
  const epsilon = useJobStore((state) => state.epsilon);
  const delta = useJobStore((state) => state.delta);
  const releases = useJobStore((state) => state.releases);
  const seed = useJobStore((state) => state.seed);
  const epsilonNumber = Number(epsilon);
  const deltaDefault = useRunReadiness().deltaDefault;

  return (
    <fieldset className="budget-fields" data-testid="budget-fields">
      <legend>Privacy budget and releases</legend>
      <div className="epsilon-row">
        <label htmlFor={epsilonId}>ε (epsilon)</label>
        <input
          id={epsilonId}
          type="text"
          inputMode="decimal"
          value={epsilon}
          onChange={(event) => setEpsilon(event.target.value)}
          aria-describedby={`${epsilonId}-help`}
        />
        <label htmlFor={sliderId} className="visually-hidden">
          ε on a log scale from {SLIDER_MIN_EPSILON} to {SLIDER_MAX_EPSILON}
        </label>
        <input
          id={sliderId}
          type="range"
          min={0}
          max={SLIDER_STEPS}
          step={1}
          value={sliderPositionOfEpsilon(epsilonNumber)}
          aria-valuetext={`ε = ${epsilon}`}
          onChange={(event) => setEpsilon(epsilonAtSliderPosition(Number(event.target.value)))}
        />
        <p id={`${epsilonId}-help`} className="hint">
          Smaller ε = stronger privacy, noisier data. The slider runs from {SLIDER_MIN_EPSILON} to{' '}
          {SLIDER_MAX_EPSILON} on a log scale; type any other value.
        </p>
      </div>
      <div className="budget-grid">
        <label htmlFor={deltaId}>δ (delta)</label>
        <input
          id={deltaId}
          type="text"
          inputMode="decimal"
          value={delta}
          onChange={(event) => setBudgetField('delta', event.target.value)}
          aria-describedby={`${deltaId}-help`}
        />
        <p id={`${deltaId}-help`} className="hint" data-testid="delta-default">
          {deltaDefault === null
            ? '0 for pure ε-DP; only mechanisms with an (ε, δ) guarantee use it.'
            : deltaDefault.reason}
        </p>
        <label htmlFor={releasesId}>Releases M</label>
        <input
          id={releasesId}
          type="number"
          min={1}
          max={RELEASE_LIMITS.studio}
          step={1}
          value={releases}
          onChange={(event) => setReleases(Math.floor(Number(event.target.value)))}
          aria-describedby={`${releasesId}-help`}
        />
        <p id={`${releasesId}-help`} className="hint">
          Number of synthetic tables; how they share ε is shown in the claim.
        </p>
        <label htmlFor={seedId}>Seed (optional)</label>
        <input
          id={seedId}
          type="text"
          value={seed}
          placeholder="none: cryptographic randomness"
          onChange={(event) => setBudgetField('seed', event.target.value)}
          aria-describedby={seedWarningId}
        />
        <p
          id={seedWarningId}
          className={seed.trim() ? 'seed-warning' : 'hint'}
          role={seed.trim() ? 'status' : undefined}
        >
          {seed.trim()
            ? 'Seeded runs are for demos, not for release: anyone with the seed can reproduce the noise.'
            : 'Leave empty for a release. A seed makes runs reproducible (demos and tests only).'}
        </p>
      </div>
    </fieldset>
  );
}
