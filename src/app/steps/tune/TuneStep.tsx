import { parseRational } from '../../../core/rng/rational';
import { lazy, Suspense, useId, useMemo } from 'react';
import { DataHolderNote } from '../../components/DataHolderNote';
import { JobControls } from '../../components/JobControls';
import { StepSection } from '../../components/StepSection';
import { reusedText } from '../../components/reused-text';
import { stepNumber } from '../../components/step-order';
import { logGrid } from '../../services/epsilon-scale';
import { useRunReadiness } from '../../services/run-readiness';
import { cancelSweep, currentSweepPlan, startSweep, sweepWorkers } from '../../services/run-sweep';
import { aboutDuration, hasFittedCost } from '../../services/sweep-cost';
import { FIT_MINUTE_MAX_REPEATS } from '../../services/sweep-plan';
import { useDataStore } from '../../state/data-store';
import { useSchemaStore } from '../../state/schema-store';
import { summarizeSweep } from '../../services/sweep-summary';
import { pickEpsilonFromSweep, useJobStore } from '../../state/job-store';
import { setPreference, usePrefsStore } from '../../state/prefs-store';
import { useTuneStore } from '../../state/tune-store';
import { SWEEP_METRICS, type SweepMetric } from '../../state/prefs-migration';
import type { MechanismMeta } from '../../../core/mechanisms/types';

const SWEEP_METRIC_TEXT: Record<SweepMetric, { label: string; option: string; caption: string }> = {
  'two-way': {
    label: 'TVD 2-way',
    option: 'TVD 2-way',
    caption: 'Good: the curve flattens at a low TVD early, so a small ε already gives useful data.',
  },
  'one-way': {
    label: 'TVD 1-way',
    option: 'TVD 1-way',
    caption: 'Good: the curve flattens at a low TVD early, so a small ε already gives useful data.',
  },
  pmse: {
    label: 'pMSE (CART)',
    option: 'pMSE (CART, fixed settings)',
    caption:
      'Raw pMSE of a CART with fixed settings (cp 0.001, minbucket 5, as synthpop), not S_pMSE: its ' +
      'permutation null moves with each release and can make a smaller ε look better. Good: the curve ' +
      'falls towards 0 early.',
  },
};
// The charting library is loaded only once a sweep has points to draw.
const SweepChart = lazy(() => import('./SweepChart'));

export function TuneStep() {
  const readiness = useRunReadiness();
  const epsilon = useJobStore((state) => state.epsilon);
  const prefs = usePrefsStore();
  const status = useTuneStore((state) => state.status);
  const points = useTuneStore((state) => state.points);
  const reused = useTuneStore((state) => state.reused);
  const planned = useTuneStore((state) => state.grid.length * state.repeats);
  const error = useTuneStore((state) => state.error);
  const estimateAtStart = useTuneStore((state) => state.estimateSeconds);
  const dataset = useDataStore((state) => state.dataset);
  const schema = useSchemaStore((state) => state.schema);
  const delta = useJobStore((state) => state.delta);
  const seed = useJobStore((state) => state.seed);
  const addRemove = useJobStore((state) => state.neighbouring) === 'add-remove';
  // Public facts only (n, schema, ε grid, parameters) and the measured speed of earlier sweep runs;
  // recomputed when a sweep ends, since its runs refine the speed.
  const plan = useMemo(
    () => (readiness.params === null ? null : currentSweepPlan()),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [
      readiness.mechanism,
      readiness.params,
      readiness.context?.n,
      prefs,
      dataset,
      schema,
      delta,
      seed,
      status,
    ],
  );
  const summary = useMemo(() => summarizeSweep(points, prefs.sweepMetric), [points, prefs.sweepMetric]);
  const grid = logGrid(prefs.sweepMinEpsilon, prefs.sweepMaxEpsilon, prefs.sweepPointCount);
  const metric = SWEEP_METRIC_TEXT[prefs.sweepMetric];
  const running = status === 'running';
  // While a sweep runs, the estimate it started with; otherwise the next sweep's.
  const shownEstimate = running && estimateAtStart !== null ? estimateAtStart : (plan?.seconds ?? null);
  const ids = {
    count: useId(),
    min: useId(),
    max: useId(),
    repeats: useId(),
    fitMinute: useId(),
    metric: useId(),
  };
  const blocked =
    readiness.mechanism === undefined || readiness.params === null || readiness.problems.length > 0;
  const numberSetter =
    (key: 'sweepPointCount' | 'sweepMinEpsilon' | 'sweepMaxEpsilon' | 'sweepRepeats', integer: boolean) =>
    (text: string) => {
      const value = Number(text);
      if (Number.isFinite(value) && value > 0 && (!integer || Number.isInteger(value)))
        setPreference(key, value);
    };
  return (
    <StepSection
      id="step-tune"
      title="Tune ε (optional)"
      intro="See how utility changes with ε before you choose: each point runs the mechanism several times."
      unavailableBecause={
        blocked
          ? `Pick a mechanism that can run on this schema (step ${stepNumber('step-mechanism')}) to sweep ε.`
          : null
      }
    >
      <div className="sweep-settings">
        <label htmlFor={ids.count}>ε values</label>
        <input
          id={ids.count}
          type="number"
          min={2}
          max={20}
          defaultValue={prefs.sweepPointCount}
          onChange={(e) => numberSetter('sweepPointCount', true)(e.target.value)}
        />
        <label htmlFor={ids.min}>from</label>
        <input
          id={ids.min}
          type="text"
          inputMode="decimal"
          defaultValue={prefs.sweepMinEpsilon}
          onChange={(e) => numberSetter('sweepMinEpsilon', false)(e.target.value)}
        />
        <label htmlFor={ids.max}>to</label>
        <input
          id={ids.max}
          type="text"
          inputMode="decimal"
          defaultValue={prefs.sweepMaxEpsilon}
          onChange={(e) => numberSetter('sweepMaxEpsilon', false)(e.target.value)}
        />
        <label htmlFor={ids.repeats}>repeats</label>
        {prefs.sweepRepeatsFitMinute && !addRemove ? (
          <output id={ids.repeats} data-testid="sweep-repeats-fitted">
            {plan?.repeats ?? '–'}
          </output>
        ) : (
          <input
            id={ids.repeats}
            type="number"
            min={1}
            max={50}
            defaultValue={prefs.sweepRepeats}
            onChange={(e) => numberSetter('sweepRepeats', true)(e.target.value)}
          />
        )}
        <label>
          <input
            id={ids.fitMinute}
            type="checkbox"
            checked={prefs.sweepRepeatsFitMinute}
            onChange={(e) => setPreference('sweepRepeatsFitMinute', e.target.checked)}
          />{' '}
          as many as fit about a minute (up to {FIT_MINUTE_MAX_REPEATS})
          {addRemove
            ? '; not under add/remove, where the number of rows it would be fitted to is private'
            : ''}
        </label>
        <label htmlFor={ids.metric}>plot</label>
        <select
          id={ids.metric}
          value={prefs.sweepMetric}
          onChange={(e) => setPreference('sweepMetric', e.target.value as SweepMetric)}
        >
          {SWEEP_METRICS.map((value) => (
            <option key={value} value={value}>
              {SWEEP_METRIC_TEXT[value].option}
            </option>
          ))}
        </select>
      </div>
      <p className="hint">
        Grid: {grid.join(', ')} —{' '}
        {runsText(grid.length, plan?.repeats ?? prefs.sweepRepeats, readiness.mechanism?.sweepRepeats)},
        spread over the workers, cheapest first. Parameters, δ and seed are those of step{' '}
        {stepNumber('step-mechanism')}.
      </p>
      {plan !== null && readiness.mechanism !== undefined && shownEstimate !== null && (
        <p className="hint" data-testid="sweep-estimate" data-seconds={shownEstimate.toFixed(1)}>
          Estimated time: {aboutDuration(shownEstimate)} on {sweepWorkers()} workers
          {hasFittedCost(readiness.mechanism.id)
            ? ", from the mechanism's measured cost for these rows, columns, ε values and parameters"
            : ' (a rough guess: this mechanism has no measured cost model)'}
          . Points appear as their runs finish.
        </p>
      )}
      <JobControls
        channel="sweep"
        progressLabel="Sweep progress"
        running={running}
        cancelLabel="Cancel sweep"
        onCancel={cancelSweep}
        start={{ label: 'Sweep ε', onStart: () => void startSweep(), disabled: false }}
      />
      {error && (
        <p role="alert" className="error-message">
          The sweep failed: {error}
        </p>
      )}
      {status === 'cancelled' && <p className="status-neutral">Sweep cancelled; finished points are kept.</p>}
      {summary.length > 0 && (
        <>
          <DataHolderNote>
            Computed from the real data; for the data holder. Click a point to use its ε.
          </DataHolderNote>
          <Suspense fallback={<div className="chart-placeholder" style={{ height: 300 }} />}>
            <SweepChart
              points={summary}
              currentEpsilon={markableEpsilon(epsilon)}
              metricLabel={metric.label}
              onPickEpsilon={(value) => pickEpsilonFromSweep(String(value))}
            />
          </Suspense>
          <p className="caption" data-testid="sweep-caption">
            {metric.caption} {repeatsCaption(readiness.mechanism?.sweepRepeats)}
          </p>
          {reused > 0 && (
            <p className="hint" data-testid="sweep-reused">
              {reusedText(reused, planned, 'points', 'sweep')}
            </p>
          )}
        </>
      )}
    </StepSection>
  );
}

/** How many runs the sweep makes, and how its repeats come about. */
function runsText(points: number, repeats: number, fromOneRun: MechanismMeta['sweepRepeats']): string {
  if (fromOneRun === undefined) return `${points * repeats} runs with one release each`;
  return `${points} runs, each with ${repeats} releases at ${repeats}·ε so that every release spends ε`;
}

/** What the band over repeats means for this mechanism. */
function repeatsCaption(fromOneRun: MechanismMeta['sweepRepeats']): string {
  if (fromOneRun === 'shared-chains') {
    return (
      'The repeats at one ε are releases of one run: MCMC chain draws at ε, several per chain at thinned ' +
      'iterations. They are not independent, so the band understates how much separate runs would vary, ' +
      'and counting each as spending ε assumes a chain forgets its state over the thinning, as the ' +
      "mechanism's own claim for several releases does."
    );
  }
  if (fromOneRun === 'independent-releases') {
    return (
      'The repeats at one ε are the releases of one run, each with fresh noise at ε: they vary as separate ' +
      'runs would. A wide band means results vary a lot from run to run at that ε.'
    );
  }
  return 'A wide band means results vary a lot from run to run at that ε.';
}

/** The ε field's value when it can be marked on the log axis (a positive number); else undefined. */
function markableEpsilon(text: string): number | undefined {
  try {
    const value = parseRational(text.trim()).toNumber(); // decimals and fractions such as 1/3
    return Number.isFinite(value) && value > 0 ? value : undefined;
  } catch {
    return undefined;
  }
}
