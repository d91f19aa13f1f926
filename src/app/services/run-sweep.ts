import { budgetFigureUp } from '../../core/job/job-budget';
import { mechanismSeed, repeatSeed } from '../../core/job/job-seeds';
import { isSpentBudgetError } from '../../core/privacy/spent-budget-error';
import { synthesisJob, type JobSettings } from '../../core/job/synthesis-job';
import type { SweepPointResult } from '../../worker/protocol';
import { useDataStore } from '../state/data-store';
import { noteDataLook, useJobStore } from '../state/job-store';
import { recordLook } from '../state/ledger-store';
import { usePrefsStore } from '../state/prefs-store';
import { onDatasetReplaced } from '../state/dataset-resets';
import { useSchemaStore } from '../state/schema-store';
import { addSweepPoint, beginSweep, setSweepStatus } from '../state/tune-store';
import { fnv1aHex, stableJson, tableKeyOf } from './cache-keys';
import type { RemotePoolWorker } from '../../worker/client/spawn-worker';
import { ensureTableOnWorker, runPool } from './workers';
import { aboutDuration, noteMeasuredRun, speedFactor } from './sweep-cost';
import { planSweep, type PlannedSweepRun, type SweepPlan, type SweepPlanInputs } from './sweep-plan';
import { createJobRunner, newJobId } from './job-runner';
import { parseRational, Rational } from '../../core/rng/rational';
import { assessCurrentRun } from './run-readiness';

/**
 * Sweep results already computed, keyed by data, schema, mechanism, parameters, δ, seed, ε and
 * repeat. Held in memory for this page only (they are computed from the real data).
 */
const sweepCache = new Map<string, Map<string, SweepPointResult>>();
/**
 * Configurations kept (each with its points under "ε/repeat"); the least recently swept goes first.
 * Keyed by the whole configuration JSON, not a hash, so two configurations never share points; one
 * key per configuration keeps the memory at one copy of it.
 */
const SWEEP_CACHE_CONFIGURATIONS = 20;

function pointsOf(configuration: string): Map<string, SweepPointResult> {
  const points = sweepCache.get(configuration) ?? new Map<string, SweepPointResult>();
  sweepCache.delete(configuration);
  sweepCache.set(configuration, points);
  while (sweepCache.size > SWEEP_CACHE_CONFIGURATIONS) sweepCache.delete(sweepCache.keys().next().value!);
  return points;
}
const runner = createJobRunner({ kind: 'sweep', channel: 'sweep', setStatus: setSweepStatus });
// A new dataset makes the sweep and its cached points meaningless.
onDatasetReplaced('sweep', () => {
  runner.discard();
  sweepCache.clear();
});

/** Workers the sweep's pool has (the pool is sized the same way). */
export function sweepWorkers(): number {
  return (typeof navigator !== 'undefined' && navigator.hardwareConcurrency) || 2;
}

/** The sweep the Tune step would start now (its grid, repeats, runs and estimate), or null when blocked. */
export function currentSweepPlan(): SweepPlan | null {
  const inputs = currentSweepInputs();
  return inputs === null ? null : planSweep(inputs.plan);
}

function currentSweepInputs(): { plan: SweepPlanInputs; configuration: string } | null {
  const dataset = useDataStore.getState().dataset;
  const { schema } = useSchemaStore.getState();
  const job = useJobStore.getState();
  const prefs = usePrefsStore.getState();
  // One release per point and no rows kept back: a point is scored against the whole table.
  const readiness = assessCurrentRun({ releases: 1, holdoutShare: 0 });
  if (
    dataset === null ||
    schema === null ||
    readiness.params === null ||
    readiness.mechanism === undefined ||
    readiness.context === null
  )
    return null;
  const configuration = stableJson({
    data: dataset.datasetId,
    schema,
    mechanism: readiness.mechanism.id,
    params: readiness.params,
    // δ as typed, or the documented default from the public n for a mechanism that needs δ > 0.
    delta: String(readiness.context.delta),
    // The relation the claim shown is stated under (step 3's choice): the points run under it.
    neighbouring: readiness.context.neighbouring ?? 'replace-one',
    seed: mechanismSeed(job) ?? '',
  });
  // The repeats chosen to fit a minute are kept with the configuration's points, so that sweeping
  // again asks for the same points even after the measured speed moved the estimate.
  // Under add/remove n is private: a repeat count fitted to the time a run takes on n rows would set
  // how many points (and so how much ε) the sweep spends from the data, so the repeats are as set.
  const fitMinute = prefs.sweepRepeatsFitMinute && readiness.context.neighbouring !== 'add-remove';
  const fitted = fitMinute ? fittedRepeats.get(configuration) : undefined;
  return {
    configuration,
    plan: {
      mechanism: readiness.mechanism,
      params: readiness.params,
      schema,
      n: readiness.context.n,
      minEpsilon: prefs.sweepMinEpsilon,
      maxEpsilon: prefs.sweepMaxEpsilon,
      pointCount: prefs.sweepPointCount,
      repeats: fitMinute ? (fitted ?? 'fit-minute') : prefs.sweepRepeats,
      workers: sweepWorkers(),
    },
  };
}
/** Repeats "fit a minute" chose for a configuration (keyed like sweepCache). */
const fittedRepeats = new Map<string, number>();

/**
 * Runs the mechanism at every ε of the preferences' log grid, R times each (R as set, or as many as
 * fit about a minute by the cost model), spread over the worker pool. The runs start cheapest first
 * (sweep-cost.ts), each finished point is plotted as it arrives, and points in the cache are not
 * recomputed. With a seed, repeat r at ε uses the seed "<seed>/ε/r".
 */
export async function startSweep(): Promise<void> {
  const dataset = useDataStore.getState().dataset;
  const { schema } = useSchemaStore.getState();
  const job = useJobStore.getState();
  const inputs = currentSweepInputs();
  const readiness = assessCurrentRun({ releases: 1, holdoutShare: 0 });
  if (inputs === null || dataset === null || schema === null || readiness.mechanism === undefined) return;
  const { configuration } = inputs;
  const mechanism = readiness.mechanism;
  const delta = String(readiness.context!.delta);
  const params = readiness.params!;
  const seed = mechanismSeed(job) ?? '';
  const configurationKey = fnv1aHex(configuration);
  const pointKey = (epsilon: number, repeat: number) => `${epsilon}/${repeat}`;
  const known = sweepCache.get(configuration);
  const plan = planSweep(inputs.plan, (epsilon, repeat) => !known?.has(pointKey(epsilon, repeat)));
  const { grid, repeats: repeatCount } = plan;
  if (inputs.plan.repeats === 'fit-minute') fittedRepeats.set(configuration, repeatCount);
  const tasks = grid.flatMap((epsilon) =>
    Array.from({ length: repeatCount }, (_, repeat) => ({ epsilon, repeat })),
  );
  const message = `Sweeping ε over ${grid.length} values × ${repeatCount} repeats`;
  await runner.start(message, async ({ signal, progress }) => {
    const points = pointsOf(configuration);
    const cached = tasks.flatMap(({ epsilon, repeat }) => points.get(pointKey(epsilon, repeat)) ?? []);
    const pendingRuns = plan.runs.filter((run) =>
      run.repeats.some((r) => !points.has(pointKey(run.epsilon, r))),
    );
    beginSweep(configurationKey, grid, repeatCount, cached, plan.seconds);
    if (cached.length > 0) noteDataLook('sweep');
    // Each point shown is a run on the real data (once per configuration, ε and repeat; δ as set, an
    // upper bound on what a point's claim spends).
    const recordPoint = (point: { epsilon: number; repeat: number }) =>
      recordLook(`sweep:${configuration}/${pointKey(point.epsilon, point.repeat)}`, {
        kind: 'sweep',
        mechanism: mechanism.id,
        epsilon: point.epsilon,
        delta: budgetFigureUp(delta),
        runs: 1,
        what: `ε sweep point ε = ${point.epsilon}, repeat ${point.repeat + 1}`,
        // The relation the points run under (step 3's choice, part of the configuration).
        neighbouring: readiness.context!.neighbouring ?? 'replace-one',
      });
    cached.forEach(recordPoint);
    const tableKey = tableKeyOf(dataset.datasetId, schema);
    let done = cached.length;
    // Model seconds of the runs not yet finished (the plan's estimates without its speed factor), and
    // the speed factor the plan used; the "left" figure uses the factor measured so far.
    const planFactor = speedFactor(mechanism.id);
    let modelLeft = pendingRuns.reduce((total, run) => total + run.seconds / planFactor, 0);
    const workers = runPool().capacity;
    const reportDone = () =>
      progress(
        done / tasks.length,
        `${done} of ${tasks.length} runs done (${workers} workers)` +
          (done < tasks.length
            ? `, ${aboutDuration((modelLeft * speedFactor(mechanism.id)) / workers)} left`
            : ''),
      );
    reportDone();
    const pointsDone = (arrived: SweepPointResult[], run: PlannedSweepRun) => {
      arrived.forEach((point) => points.set(pointKey(point.epsilon, point.repeat), point));
      if (signal.aborted) return;
      // The measured speed: this run's seconds (its releases' shares of the run) against the model's.
      const measuredSeconds = arrived.reduce((total, point) => total + point.runMillis, 0) / 1000;
      noteMeasuredRun(mechanism.id, run.seconds / planFactor, measuredSeconds);
      modelLeft = Math.max(0, modelLeft - run.seconds / planFactor);
      arrived.forEach((point) => {
        addSweepPoint(point);
        noteDataLook('sweep');
        recordPoint(point);
      });
      done += arrived.length;
      reportDone();
    };
    const runOnPool = <T>(jobId: string, call: (remote: RemotePoolWorker) => Promise<T>) =>
      runPool().run(
        async (slot) => {
          await ensureTableOnWorker(slot, tableKey, schema);
          return call(slot.remote);
        },
        { signal, requestStop: (remote) => void remote.cancel(jobId) },
      );
    /** The job of one run making the releases of `repeats` at `epsilon` (total budget `total`). */
    const jobOf = (jobId: string, epsilon: number, total: string, repeats: readonly number[]) =>
      synthesisJob({ jobId, tableKey }, {
        schema,
        mechanismId: mechanism.id,
        params,
        epsilon: total,
        delta,
        neighbouring: readiness.context!.neighbouring ?? 'replace-one',
        releases: repeats.length,
        ...(seed === '' ? {} : { seed: repeatSeed(seed, epsilon, repeats) }),
      } satisfies JobSettings);
    // A run refused after its budget was spent (SpentBudgetError and its kinds) shows its failure,
    // a decision made from the data: each of its points counts as a look, as a single run's does.
    const recordSpentOnFailure = (run: PlannedSweepRun) => (error: unknown) => {
      if (isSpentBudgetError(error))
        run.repeats.forEach((repeat) => recordPoint({ epsilon: run.epsilon, repeat }));
      throw error;
    };
    // Queued in the plan's order, cheapest first: the pool starts them first come, first served.
    await Promise.all(
      pendingRuns.map((run) => {
        const { epsilon, repeats } = run;
        const jobId = newJobId('sweep');
        if (repeats.length === 1 && mechanism.sweepRepeats === undefined) {
          const repeat = repeats[0]!;
          const pointJob = jobOf(jobId, epsilon, String(epsilon), [repeat]);
          return runOnPool(jobId, (remote) => remote.sweepPoint(pointJob, epsilon, repeat)).then(
            (point) => pointsDone([point], run),
            recordSpentOnFailure(run),
          );
        }
        // R repeats from one run with R releases at R·ε: each release spends exactly ε (meta.sweepRepeats).
        const total = parseRational(String(epsilon)).mul(Rational.of(repeats.length)).toString();
        const runJob = jobOf(jobId, epsilon, total, repeats);
        return runOnPool(jobId, (remote) => remote.sweepPointsOfOneRun(runJob, epsilon, 0)).then(
          (arrived) =>
            pointsDone(
              arrived.map((point, r) => ({ ...point, repeat: repeats[r]! })),
              run,
            ),
          recordSpentOnFailure(run),
        );
      }),
    );
  });
}

export { sweepRunsFor } from './sweep-plan';

export function cancelSweep(): void {
  runner.cancel();
}
