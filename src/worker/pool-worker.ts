/**
 * The API of the pool workers (one per logical core; the page calls them through
 * `Comlink.wrap<PoolWorkerApi>()`, so call types come from these real functions). A pool worker
 * receives a table once from the data worker over a MessageChannel (cached under its key), runs
 * mechanisms, their stages and sweep points on it, sends a run's releases straight to the data worker
 * over another channel (the page gets the summary only), and evaluates releases: those of its last
 * run, which it keeps, or copies the data worker sends. It never sees the file (README.md in this
 * folder draws the routes).
 */
import * as Comlink from 'comlink';
import type { Table } from '../core/table/types';
import { evaluateUtility, type UtilityReport } from '../core/metrics/evaluate';
import type { Release, StageProgress, StageTask } from '../core/mechanisms/types';
import { makeRng } from '../core/rng';
import { computePmse } from '../core/metrics/pmse';
import { SYNTHPOP_CART_DEFAULTS } from '../core/models/cart';
import type { EvaluationInputs, RunReleases } from './table-channel';
import {
  finishStages,
  forgetStagedPlan,
  forgetStageShared as forgetSharedPart,
  keepStageShared as keepSharedPart,
  planStages,
  runStage,
  type StageAssignments,
} from './staged-jobs';
import type {
  EvaluationSettings,
  ProgressListener,
  SweepPointResult,
  SynthesisJob,
  SynthesisSummary,
} from './protocol';
import { throttleProgress } from './progress-throttle';
import { compareReleases } from './release-comparison';
import { abortJob, withJob } from './running-jobs';
import { runSynthesisJob } from './synthesis-job';
import { receiveTablesFrom, sendFailureOver, sendTablesOver } from './table-channel';
import { copyTable } from './table-transfer';
import { FailedAfterSpendingError } from '../core/privacy/spent-budget-error';
import { dropHeldRun, dropHeldRunOnTable, heldRun, holdRun } from './held-releases';
import { partsFromHoldoutRows, splitRowsForJob, type JobRows } from '../core/job/job-rows';

/** Tree settings of the pMSE an ε sweep plots: synthpop's utility.gen defaults, no permutation null. */
const SWEEP_PMSE = { model: 'cart', cart: SYNTHPOP_CART_DEFAULTS, permutations: 0 } as const;

/** Tables this pool worker holds, most recent last; at most two (current and previous schema). */
const heldTables = new Map<string, Table>();

function requireHeldTable(key: string): Table {
  const table = heldTables.get(key);
  if (table === undefined) throw new Error('This worker does not hold the table for the job; run it again.');
  return table;
}

/** The summary the studio shows of a release: counts, claim, diagnostics and comparison, no table. */
function summarizeRelease(
  jobId: string,
  release: Release,
  rows: JobRows,
  runMillis: number,
): SynthesisSummary {
  const real = rows.train;
  return {
    jobId,
    trainRows: real.nRows,
    holdoutRows: rows.holdoutRows?.length ?? 0,
    claim: release.claim,
    diagnostics: release.diagnostics,
    dataHolderDiagnostics: release.dataHolderDiagnostics,
    rows: release.datasets[0]?.nRows ?? 0,
    columns: release.datasets[0]?.columns.length ?? 0,
    releases: release.datasets.length,
    runMillis,
    comparison: compareReleases(real, release.datasets),
  };
}

/**
 * Hands a finished run's releases on: copies go to the data worker over `port` (transferred; it
 * keeps them for charts and export), and this worker keeps the originals as its last run, for the
 * evaluation that follows.
 */
function handReleasesOver(port: MessagePort, job: SynthesisJob, release: Release, rows: JobRows): void {
  sendTablesOver(
    port,
    (): RunReleases => ({
      datasets: release.datasets.map(copyTable),
      holdoutRows: rows.holdoutRows === null ? null : rows.holdoutRows.slice(),
    }),
    (sent) => sent.datasets,
    (sent) => (sent.holdoutRows === null ? [] : [sent.holdoutRows.buffer as ArrayBuffer]),
  );
  holdRun({
    jobId: job.jobId,
    tableKey: job.tableKey,
    datasets: release.datasets,
    holdoutRows: rows.holdoutRows,
  });
}

/** Runs `work`; if it fails (refused, cancelled), the end of `port` hears why and nothing else is sent. */
async function failingOver<T>(port: MessagePort, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    sendFailureOver(port, error);
    throw error;
  }
}

/** The real rows and kept-back rows of a run on `table`, split by its kept-back row indices. */
function splitByHoldout(
  table: Table,
  holdoutRows: Uint32Array | null,
): { real: Table; holdout: Table | null } {
  if (holdoutRows === null) return { real: table, holdout: null };
  const { train, holdout } = partsFromHoldoutRows(table, holdoutRows);
  return { real: train, holdout };
}

/** The real rows of an evaluation: as sent, or this worker's table split by the kept-back rows. */
function realRowsOf(
  inputs: EvaluationInputs,
  tableKey: string | undefined,
): { real: Table; holdout: Table | null } {
  if (inputs.real !== null) return { real: inputs.real, holdout: inputs.holdout };
  if (tableKey === undefined) throw new Error('The evaluation received no real table; run it again.');
  return splitByHoldout(requireHeldTable(tableKey), inputs.holdoutRows);
}

/** The full utility evaluation (core evaluateUtility) of `releases` against `real`, as job `jobId`. */
function evaluateReleases(
  jobId: string,
  real: Table,
  holdout: Table | null,
  releases: Table[],
  options: EvaluationSettings,
  onProgress: ProgressListener,
): Promise<UtilityReport> {
  const progress = throttleProgress(onProgress);
  const ml =
    holdout !== null && options.mlTarget !== undefined ? { holdout, target: options.mlTarget } : undefined;
  return withJob(jobId, async (signal) =>
    evaluateUtility(
      real,
      releases,
      { pmse: { permutations: options.pmsePermutations }, ...(ml ? { ml } : {}), signal },
      makeRng(),
      (fraction, stage) => progress(fraction, stage),
    ),
  );
}

export const poolWorker = {
  /** Whether the table under `key` is already here. */
  holdsTable(key: string): boolean {
    return heldTables.has(key);
  },

  /**
   * Receives a table from the data worker over `port` (dataWorker.sendTableForRun, transferred)
   * and keeps it under `key`, with at most one other (the releases of a run on a table dropped go too).
   */
  async receiveTable(key: string, port: MessagePort): Promise<void> {
    const table = await receiveTablesFrom<Table>(port);
    heldTables.delete(key);
    heldTables.set(key, table);
    while (heldTables.size > 2) {
      const dropped = heldTables.keys().next().value as string;
      heldTables.delete(dropped);
      dropHeldRunOnTable(dropped);
    }
  },

  /** Whether this worker still holds the releases of run `jobId` and the table it ran on. */
  holdsReleases(jobId: string): boolean {
    const run = heldRun(jobId);
    return run !== undefined && heldTables.has(run.tableKey);
  },

  /**
   * Runs a mechanism on the held table and compares the releases with it. The releases and the
   * kept-back row indices go to the data worker over `releasesPort` (dataWorker.receiveReleases,
   * transferred) and stay here as this worker's last run; the page gets the summary only. A run that
   * fails or is cancelled sends the reason instead.
   */
  async synthesize(
    job: SynthesisJob,
    onProgress: ProgressListener,
    releasesPort: MessagePort,
  ): Promise<SynthesisSummary> {
    dropHeldRun();
    const progress = throttleProgress(onProgress);
    return failingOver(releasesPort, () =>
      withJob(job.jobId, async (signal) => {
        const rows = splitRowsForJob(requireHeldTable(job.tableKey), job);
        const startedAt = performance.now();
        const release = await runSynthesisJob(rows.train, job, (f, m) => progress(0.9 * f, m), signal);
        const runMillis = performance.now() - startedAt;
        progress(0.9, 'Comparing with the real data');
        const summary = summarizeRelease(job.jobId, release, rows, runMillis);
        handReleasesOver(releasesPort, job, release, rows);
        progress(1, 'Done');
        return summary;
      }),
    );
  },

  /**
   * The worker holding the table plans a run whose stages then run in parallel (mechanisms that
   * declare `staged`); null when the mechanism has no stages.
   */
  planStages(job: SynthesisJob): StageAssignments | null {
    dropHeldRun();
    return planStages(splitRowsForJob(requireHeldTable(job.tableKey), job), job, { aborted: false });
  },

  /**
   * The shared part of a planned run (the plan's `shared`), once per worker and run, before its
   * stages; the planning worker keeps its own when it plans.
   */
  keepStageShared(jobId: string, shared: unknown): void {
    dropHeldRun();
    keepSharedPart(jobId, shared);
  },

  /** Drops the shared part of a run whose stages this worker has finished. */
  forgetStageShared(jobId: string): void {
    forgetSharedPart(jobId);
  },

  /** One stage of a planned run; the buffers its result owns come back transferred. */
  async runStage(
    jobId: string,
    mechanismId: string,
    task: StageTask<unknown>,
    onProgress: StageProgress,
  ): Promise<unknown> {
    return withJob(jobId, async (signal) => {
      const { result, transferables } = runStage(jobId, mechanismId, task, onProgress, signal);
      return Comlink.transfer(result, transferables);
    });
  },

  /**
   * The planning worker: the release from the stages' results, compared with the real table; its
   * tables go over `releasesPort` and stay here, as `synthesize` hands them on.
   */
  finishStages(
    job: SynthesisJob,
    results: unknown[],
    runMillis: number,
    releasesPort: MessagePort,
  ): SynthesisSummary {
    let finished: ReturnType<typeof finishStages>;
    try {
      finished = finishStages(job.jobId, results);
    } catch (error) {
      sendFailureOver(releasesPort, error);
      throw error;
    }
    const { release, rows } = finished;
    const summary = summarizeRelease(job.jobId, release, rows, runMillis);
    handReleasesOver(releasesPort, job, release, rows);
    return summary;
  },

  /**
   * One ε-sweep point (one release), scored by mean 1-way and 2-way TVD and by the raw
   * CART pMSE with synthpop's fixed tree settings; the data is discarded. The sweep plots raw pMSE,
   * not S_pMSE: the permutation null adapts to each release, so the ratio can make a smaller ε look
   * better. No permutations are run, so the pMSE draws no randomness. The Compare step uses the
   * same scores; it passes `onProgress` so that a slow point (the pMSE mechanism) shows progress,
   * while the sweep counts whole points and passes none.
   */
  async sweepPoint(
    job: SynthesisJob,
    epsilon: number,
    repeat: number,
    onProgress?: ProgressListener,
  ): Promise<SweepPointResult> {
    const [point] = await poolWorker.sweepPointsOfOneRun(
      { ...job, releases: 1 },
      epsilon,
      repeat,
      onProgress,
    );
    return point!;
  },

  /**
   * Several ε-sweep points from one run: `job` asks for R releases at R·ε (so each release gets ε), and
   * release r becomes the point of repeat firstRepeat + r, each scored as sweepPoint scores one. Only
   * for mechanisms whose meta allows it (`sweepRepeats`); the run's time is shared by its points.
   */
  async sweepPointsOfOneRun(
    job: SynthesisJob,
    epsilon: number,
    firstRepeat: number,
    onProgress?: ProgressListener,
  ): Promise<SweepPointResult[]> {
    const progress: ProgressListener = onProgress === undefined ? () => {} : throttleProgress(onProgress);
    dropHeldRun();
    return withJob(job.jobId, async (signal) => {
      const table = requireHeldTable(job.tableKey);
      const startedAt = performance.now();
      const release = await runSynthesisJob(table, job, (f, m) => progress(0.9 * f, m), signal);
      const runMillis = (performance.now() - startedAt) / release.datasets.length;
      progress(0.9, 'Scoring against the real data');
      try {
        const comparison = compareReleases(table, release.datasets);
        return release.datasets.map((dataset, r) => ({
          epsilon,
          repeat: firstRepeat + r,
          tvdOneWay: comparison.tvdOneWay[r] ?? Number.NaN,
          tvdTwoWay: comparison.tvdTwoWay[r] ?? Number.NaN,
          pmse: computePmse(table, dataset, SWEEP_PMSE, makeRng()).value,
          runMillis,
        }));
      } catch (error) {
        // The releases exist, so the budget is spent, and the failure shown depends on them (e.g. a
        // release of 0 rows under add/remove): the page counts it as a look (isSpentBudgetError).
        const message = error instanceof Error ? error.message : String(error);
        throw new FailedAfterSpendingError(`Scoring the releases against the real data failed: ${message}`);
      }
    });
  },

  /**
   * The full utility evaluation of the releases of run `runJobId`, which this worker made and still
   * holds (`holdsReleases`), against the table it ran on, split by the kept-back rows: nothing is
   * copied or sent. Otherwise as `evaluate`.
   */
  async evaluateHeld(
    jobId: string,
    runJobId: string,
    options: EvaluationSettings,
    onProgress: ProgressListener,
  ): Promise<UtilityReport> {
    const run = heldRun(runJobId);
    if (run === undefined)
      throw new Error('This worker no longer holds the releases of the run; evaluate again.');
    const { real, holdout } = splitByHoldout(requireHeldTable(run.tableKey), run.holdoutRows);
    return evaluateReleases(jobId, real, holdout, run.datasets, options, onProgress);
  },

  /**
   * The full utility evaluation of a run's releases against the real table
   * (core evaluateUtility: pMSE, TVD k = 1–3, per-column, correlations, distinguishing game,
   * disclosure checks), on the tables the data worker sends over `inputsPort`
   * (dataWorker.sendEvaluationInputs), when this worker no longer holds the run's releases: the real
   * rows come either with them or, when this worker holds the run's table under `tableKey`, from that
   * table (split by the kept-back rows), so a table of millions of rows is not copied again. Computed
   * from the real data: for the data holder, never part of a release.
   */
  async evaluate(
    jobId: string,
    inputsPort: MessagePort,
    options: EvaluationSettings,
    onProgress: ProgressListener,
    tableKey?: string,
  ): Promise<UtilityReport> {
    const inputs = await receiveTablesFrom<EvaluationInputs>(inputsPort);
    const { real, holdout } = realRowsOf(inputs, tableKey);
    return evaluateReleases(jobId, real, holdout, inputs.releases, options, onProgress);
  },

  /** Asks a running job to stop; the pool terminates the worker if the job does not notice in time. */
  cancel(jobId: string): void {
    abortJob(jobId);
    forgetStagedPlan(jobId);
  },
};

export type PoolWorkerApi = typeof poolWorker;
