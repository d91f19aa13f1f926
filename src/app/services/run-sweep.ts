import type { SweepPointResult, SynthesisJob } from '../../worker/protocol';
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
import { logGrid } from './epsilon-scale';
import { createJobRunner, newJobId } from './job-runner';
import { parseRational, Rational } from '../../core/rng/rational';
import type { MechanismMeta, ParamValues } from '../../core/mechanisms/types';
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

/**
 * Runs the mechanism at every ε of the preferences' log grid, `repeats` times each, spread over
 * the worker pool (one job per point). Each finished point is plotted as it arrives; points in
 * the cache are not recomputed. With a seed, repeat r at ε uses the seed "<seed>/ε/r".
 */
export async function startSweep(): Promise<void> {
  const dataset = useDataStore.getState().dataset;
  const { schema } = useSchemaStore.getState();
  const job = useJobStore.getState();
  const prefs = usePrefsStore.getState();
  // One release per point and no rows kept back: a point is scored against the whole table.
  const readiness = assessCurrentRun({ releases: 1, holdoutShare: 0 });
  if (dataset === null || schema === null || readiness.params === null || readiness.mechanism === undefined)
    return;
  const seed = job.seed.trim();
  const configuration = stableJson({
    data: dataset.datasetId,
    schema,
    mechanism: readiness.mechanism.id,
    params: readiness.params,
    delta: job.delta.trim() || '0',
    seed,
  });
  const configurationKey = fnv1aHex(configuration);
  const grid = logGrid(prefs.sweepMinEpsilon, prefs.sweepMaxEpsilon, prefs.sweepPointCount);
  const tasks = grid.flatMap((epsilon) =>
    Array.from({ length: prefs.sweepRepeats }, (_, repeat) => ({ epsilon, repeat })),
  );
  const message = `Sweeping ε over ${grid.length} values × ${prefs.sweepRepeats} repeats`;
  await runner.start(message, async ({ signal, progress }) => {
    const points = pointsOf(configuration);
    const pointKey = (epsilon: number, repeat: number) => `${epsilon}/${repeat}`;
    const cached = tasks.flatMap(({ epsilon, repeat }) => points.get(pointKey(epsilon, repeat)) ?? []);
    const pending = tasks.filter(({ epsilon, repeat }) => !points.has(pointKey(epsilon, repeat)));
    beginSweep(configurationKey, grid, prefs.sweepRepeats, cached);
    if (cached.length > 0) noteDataLook('sweep');
    // Each point shown is a run on the real data (once per configuration, ε and repeat; δ as set, an
    // upper bound on what a point's claim spends).
    const recordPoint = (point: { epsilon: number; repeat: number }) =>
      recordLook(`sweep:${configuration}/${pointKey(point.epsilon, point.repeat)}`, {
        kind: 'sweep',
        mechanism: readiness.mechanism!.id,
        epsilon: point.epsilon,
        delta: Number(job.delta.trim() || '0'),
        runs: 1,
        what: `ε sweep point ε = ${point.epsilon}, repeat ${point.repeat + 1}`,
      });
    cached.forEach(recordPoint);
    const tableKey = tableKeyOf(dataset.datasetId, schema);
    let done = cached.length;
    const reportDone = () =>
      progress(done / tasks.length, `${done} of ${tasks.length} runs done (${runPool().capacity} workers)`);
    reportDone();
    const pointsDone = (arrived: SweepPointResult[]) => {
      arrived.forEach((point) => points.set(pointKey(point.epsilon, point.repeat), point));
      if (signal.aborted) return;
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
    const baseJob = {
      tableKey,
      schema,
      mechanismId: readiness.mechanism!.id,
      params: readiness.params!,
      delta: job.delta.trim() || '0',
    };
    await Promise.all(
      sweepRunsFor(pending, repeatsPerRun(readiness.mechanism!, readiness.params!)).map(
        ({ epsilon, repeats }) => {
          const jobId = newJobId('sweep');
          if (repeats.length === 1 && readiness.mechanism!.sweepRepeats === undefined) {
            const repeat = repeats[0]!;
            const pointJob: SynthesisJob = {
              ...baseJob,
              jobId,
              epsilon: String(epsilon),
              releases: 1,
              seed: seed === '' ? undefined : `${seed}/${epsilon}/${repeat}`,
            };
            return runOnPool(jobId, (remote) => remote.sweepPoint(pointJob, epsilon, repeat)).then((point) =>
              pointsDone([point]),
            );
          }
          // R repeats from one run with R releases at R·ε: each release spends exactly ε (meta.sweepRepeats).
          const runJob: SynthesisJob = {
            ...baseJob,
            jobId,
            epsilon: parseRational(String(epsilon)).mul(Rational.of(repeats.length)).toString(),
            releases: repeats.length,
            seed: seed === '' ? undefined : `${seed}/${epsilon}/${repeats.join('+')}`,
          };
          return runOnPool(jobId, (remote) => remote.sweepPointsOfOneRun(runJob, epsilon, 0)).then(
            (arrived) => pointsDone(arrived.map((point, r) => ({ ...point, repeat: repeats[r]! }))),
          );
        },
      ),
    );
  });
}

/** How many repeats one run may give (meta.sweepRepeats and sweepRepeatsPerRun); 1 without them. */
function repeatsPerRun(mechanism: MechanismMeta, params: ParamValues): number {
  if (mechanism.sweepRepeats === undefined) return 1;
  const limit = mechanism.sweepRepeatsPerRun?.(params) ?? Infinity;
  return Number.isFinite(limit) ? Math.max(1, Math.floor(limit)) : Infinity;
}

/**
 * The runs a sweep makes for its pending points: at each ε, its pending repeats in groups of at most
 * `perRun` (one run per point when perRun is 1).
 */
export function sweepRunsFor(
  pending: { epsilon: number; repeat: number }[],
  perRun: number,
): { epsilon: number; repeats: number[] }[] {
  const byEpsilon = new Map<number, number[]>();
  for (const { epsilon, repeat } of pending)
    byEpsilon.set(epsilon, [...(byEpsilon.get(epsilon) ?? []), repeat]);
  return [...byEpsilon].flatMap(([epsilon, repeats]) => {
    const groups: { epsilon: number; repeats: number[] }[] = [];
    for (let start = 0; start < repeats.length; start += perRun) {
      groups.push({ epsilon, repeats: repeats.slice(start, start + perRun) });
    }
    return groups;
  });
}

export function cancelSweep(): void {
  runner.cancel();
}
