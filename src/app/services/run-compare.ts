import * as Comlink from 'comlink';
import { budgetFigureUp, deltaAsTyped } from '../../core/job/job-budget';
import { mechanismSeed, repeatSeed } from '../../core/job/job-seeds';
import { synthesisJob } from '../../core/job/synthesis-job';
import { isSpentBudgetError } from '../../core/privacy/spent-budget-error';
import type { Neighbouring } from '../../core/privacy/neighbouring-relation';
import type { SweepPointResult } from '../../worker/protocol';
import {
  addComparePoint,
  beginCompare,
  resetCompareResults,
  setCompareStatus,
  useCompareStore,
  type CompareEntry,
  type ComparePoint,
} from '../state/compare-store';
import { useDataStore } from '../state/data-store';
import { noteDataLook, useJobStore } from '../state/job-store';
import { recordLook } from '../state/ledger-store';
import { onDatasetReplaced } from '../state/dataset-resets';
import { useSchemaStore } from '../state/schema-store';
import { stableJson, tableKeyOf } from './cache-keys';
import { currentCompareCandidates } from './compare-candidates';
import { ensureTableOnWorker, runPool } from './workers';
import { createJobRunner, newJobId } from './job-runner';

/**
 * Comparison runs already computed, keyed by data, schema, mechanism, parameters, ε, δ, seed and
 * repeat. Held in memory for this page only (they are computed from the real data).
 */
const compareCache = new Map<string, SweepPointResult>();
const runner = createJobRunner({ kind: 'compare', channel: 'compare', setStatus: setCompareStatus });
// A new dataset makes the comparison, its results and its cached runs meaningless (the choices stay).
onDatasetReplaced('comparison', () => {
  runner.discard();
  compareCache.clear();
  resetCompareResults();
});

/**
 * Runs every ticked mechanism that can run, `repeats` times each with one release, at step 3's ε,
 * δ and seed, spread over the worker pool (one job per run, scored like an ε-sweep point). Runs
 * in the cache are not recomputed. With a seed, repeat r uses the seed "<seed>/ε/r", as the sweep
 * does, so the mechanism of step 3 gives the same numbers here as in the sweep at that ε.
 */
export async function startCompare(): Promise<void> {
  const dataset = useDataStore.getState().dataset;
  const { schema } = useSchemaStore.getState();
  const job = useJobStore.getState();
  const { selectedIds, repeats } = useCompareStore.getState();
  const chosen = currentCompareCandidates().filter(
    (candidate) => selectedIds.includes(candidate.mechanism.id) && candidate.readiness.ready,
  );
  if (dataset === null || schema === null || chosen.length < 2) return;
  const epsilon = job.epsilon.trim();
  const delta = deltaAsTyped(job.delta);
  const seed = mechanismSeed(job) ?? '';
  const tableKey = tableKeyOf(dataset.datasetId, schema);
  const entries: CompareEntry[] = chosen.map(({ mechanism, readiness, usesCurrentParams }) => ({
    mechanismId: mechanism.id,
    label: mechanism.label,
    claim: readiness.claim!,
    usesCurrentParams,
  }));
  // Repeat-major order, so every mechanism has a first result early.
  const tasks = Array.from({ length: repeats }, (_, repeat) =>
    chosen.map(({ mechanism, readiness }) => ({
      repeat,
      mechanismId: mechanism.id,
      params: readiness.params!,
      // δ as typed, or the documented default from the public n for a mechanism that needs δ > 0.
      delta: String(readiness.context!.delta),
      // The relation the claim shown for this mechanism is stated under (step 3's choice).
      neighbouring: readiness.context!.neighbouring ?? 'replace-one',
      // The whole configuration, not a hash of it: a cached run is reused only for its own settings.
      cacheKey: `${stableJson({
        data: dataset.datasetId,
        schema,
        mechanism: mechanism.id,
        params: readiness.params,
        epsilon,
        delta: String(readiness.context!.delta),
        neighbouring: readiness.context!.neighbouring ?? 'replace-one',
        seed,
      })}/${repeat}`,
    })),
  ).flat();
  const message = `Comparing ${chosen.length} mechanisms × ${repeats} repeats`;
  await runner.start(message, async ({ signal, progress }) => {
    const cached = tasks.flatMap((task) => {
      const point = compareCache.get(task.cacheKey);
      return point === undefined ? [] : [{ ...point, mechanismId: task.mechanismId }];
    });
    const pending = tasks.filter((task) => !compareCache.has(task.cacheKey));
    beginCompare(entries, { epsilon, delta, seeded: seed !== '', repeats }, cached);
    if (cached.length > 0) noteDataLook('compare');
    // Each comparison run shown is a look at the real data (once per cache key: configuration and
    // repeat; δ as set, an upper bound on what its claim spends).
    const recordRun = (task: {
      cacheKey: string;
      mechanismId: string;
      repeat: number;
      delta: string;
      neighbouring: Neighbouring;
    }) =>
      recordLook(`compare:${task.cacheKey}`, {
        kind: 'compare',
        mechanism: task.mechanismId,
        epsilon: budgetFigureUp(epsilon),
        delta: budgetFigureUp(task.delta),
        runs: 1,
        what: `comparison run of ${task.mechanismId}, repeat ${task.repeat + 1}`,
        neighbouring: task.neighbouring,
      });
    tasks.filter((task) => compareCache.has(task.cacheKey)).forEach(recordRun);
    // Finished runs count 1; running ones count the fraction their worker reported.
    const fractions = new Map<string, number>();
    let done = cached.length;
    const reportDone = () => {
      let running = 0;
      for (const fraction of fractions.values()) running += fraction;
      progress(
        (done + running) / tasks.length,
        `${done} of ${tasks.length} runs done (${runPool().capacity} workers)`,
      );
    };
    reportDone();
    await Promise.all(
      pending.map((task) => {
        const jobId = newJobId('compare');
        const pointJob = synthesisJob(
          { jobId, tableKey },
          {
            schema,
            mechanismId: task.mechanismId,
            params: task.params,
            epsilon,
            delta: task.delta,
            neighbouring: task.neighbouring,
            releases: 1,
            ...(seed === '' ? {} : { seed: repeatSeed(seed, epsilon, [task.repeat]) }),
          },
        );
        const onProgress = (fraction: number) => {
          if (signal.aborted) return;
          fractions.set(jobId, fraction);
          reportDone();
        };
        return runPool()
          .run(
            async (slot) => {
              await ensureTableOnWorker(slot, tableKey, schema);
              return slot.remote.sweepPoint(
                pointJob,
                budgetFigureUp(epsilon),
                task.repeat,
                Comlink.proxy(onProgress),
              );
            },
            { signal, requestStop: (remote) => void remote.cancel(jobId) },
          )
          .then((point) => {
            compareCache.set(task.cacheKey, point);
            if (signal.aborted) return;
            fractions.delete(jobId);
            addComparePoint({ ...point, mechanismId: task.mechanismId } satisfies ComparePoint);
            noteDataLook('compare');
            recordRun(task);
            done += 1;
            reportDone();
          })
          .catch((error: unknown) => {
            // A run refused after its budget was spent shows its failure, a decision made from the
            // data: it counts as a look, as a single run's does.
            if (isSpentBudgetError(error)) recordRun(task);
            throw error;
          });
      }),
    );
  });
}

/** Stops the running comparison; the runs already finished stay in the table. */
export function cancelCompare(): void {
  runner.cancel();
}
