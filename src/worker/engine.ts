/**
 * The engine every studio worker exposes through Comlink; the page calls it through
 * `Comlink.wrap<Engine>()` so call types come from these real functions (no message enums).
 *
 * Two roles share this object:
 * - the data worker (one per loaded file) parses the file, pages rows to the preview, validates
 *   schemas, builds the table for a run and keeps the synthetic releases for charts and export;
 * - pool workers receive a table once (cached under its key), run mechanisms and sweep points.
 * Tables cross threads as transferred typed arrays, never as per-row objects.
 */
import { inferWithRealEstimate, type InferenceWithRealEstimate } from '../core/inference/release-inference';
import * as Comlink from 'comlink';
import type { Schema, Table } from '../core/table/types';
import { evaluateUtility, type UtilityReport } from '../core/metrics/evaluate';
import {
  compareRegressions,
  type RegressionComparison,
  type RegressionSpec,
} from '../core/metrics/regression-comparison';
import type { Release, StageProgress, StageTask } from '../core/mechanisms/types';
import { makeRng } from '../core/rng';
import { computePmse } from '../core/metrics/pmse';
import { SYNTHPOP_CART_DEFAULTS } from '../core/models/cart';
import { DatasetSession } from './dataset-session';
import { finishStages, forgetStagedPlan, planStages, runStage, type StageAssignments } from './staged-jobs';
import type {
  DatasetOverview,
  EvaluationSettings,
  PairHeatmap,
  ProgressListener,
  SchemaValidation,
  SweepPointResult,
  SynthesisJob,
  SynthesisSummary,
} from './protocol';
import { throttleProgress } from './progress-throttle';
import { compareReleases } from './release-comparison';
import { runSynthesisJob } from './synthesis-job';
import { copyTable, tableBuffers } from './table-transfer';
import { splitRowsForJob, type JobRows } from './holdout';

/** Tree settings of the pMSE an ε sweep plots: synthpop's utility.gen defaults, no permutation null. */
const SWEEP_PMSE = { model: 'cart', cart: SYNTHPOP_CART_DEFAULTS, permutations: 0 } as const;

const session = new DatasetSession();
/** Tables this pool worker holds, most recent last; at most two (current and previous schema). */
const heldTables = new Map<string, Table>();
const runningJobs = new Map<string, AbortController>();

function requireHeldTable(key: string): Table {
  const table = heldTables.get(key);
  if (table === undefined) throw new Error('This worker does not hold the table for the job.');
  return table;
}

async function withJob<T>(jobId: string, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  runningJobs.set(jobId, controller);
  try {
    return await work(controller.signal);
  } finally {
    runningJobs.delete(jobId);
  }
}

/** What a synthesis job returns: the summary, the releases and the kept-back rows (transferred). */
export interface SynthesisOutcome {
  summary: SynthesisSummary;
  datasets: Table[];
  holdoutRows: Uint32Array | null;
}

/** The summary the studio shows of a release, with the release's tables marked for transfer. */
function summarizeRelease(
  jobId: string,
  release: Release,
  rows: JobRows,
  runMillis: number,
): SynthesisOutcome {
  const real = rows.train;
  const summary: SynthesisSummary = {
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
  const transfers = release.datasets.flatMap(tableBuffers);
  if (rows.holdoutRows !== null) transfers.push(rows.holdoutRows.buffer as ArrayBuffer);
  return Comlink.transfer({ summary, datasets: release.datasets, holdoutRows: rows.holdoutRows }, transfers);
}

export const engine = {
  /** Data worker: reads and parses a dropped or picked file. */
  async loadCsvFile(file: Blob, fileName: string, onProgress: ProgressListener): Promise<DatasetOverview> {
    const bytes = new Uint8Array(await file.arrayBuffer());
    return withJob('load', async (signal) =>
      session.loadBytes(bytes, fileName, throttleProgress(onProgress), signal),
    );
  },

  /** Data worker: parses CSV text (the bundled demos). */
  async loadCsvText(text: string, fileName: string, onProgress: ProgressListener): Promise<DatasetOverview> {
    return withJob('load', async (signal) =>
      session.loadText(text, fileName, throttleProgress(onProgress), signal),
    );
  },

  /** Data worker: rows [start, start + count) for the virtualised preview. */
  previewRows(start: number, count: number): string[][] {
    return session.previewRows(start, count);
  },

  /** Data worker: a column's distinct tokens, to fill a category list from the data (inferred). */
  distinctTokens(
    columnName: string,
    missingTokens: string[],
    limit: number,
  ): { tokens: string[]; truncated: boolean } {
    return session.distinctTokens(columnName, missingTokens, limit);
  },

  /** Data worker: values outside the declared domain, per column. */
  validateSchema(schema: Schema): SchemaValidation {
    return session.validate(schema);
  },

  /** Data worker: a copy of the table built under `schema`, transferred to the caller. */
  tableForRun(schema: Schema): Table {
    const table = copyTable(session.tableFor(schema).table);
    return Comlink.transfer(table, tableBuffers(table));
  },

  /** Data worker: keeps a run's releases (transferred in) for charts and export. */
  keepReleases(jobId: string, schema: Schema, datasets: Table[], holdoutRows: Uint32Array | null): void {
    session.keepReleases(jobId, schema, datasets, holdoutRows);
  },

  /** Data worker: release `index` of a run as UTF-8 CSV bytes, transferred. */
  releaseCsvBytes(jobId: string, index: number): Uint8Array<ArrayBuffer> {
    const bytes = new TextEncoder().encode(session.releaseCsv(jobId, index));
    return Comlink.transfer(bytes, [bytes.buffer]);
  },

  /** Data worker: joint shares of two columns, real vs release `index`. */
  pairHeatmap(
    jobId: string,
    index: number,
    schema: Schema,
    rowColumn: string,
    columnColumn: string,
  ): PairHeatmap {
    return session.heatmap(jobId, index, schema, rowColumn, columnColumn);
  },

  /** Data worker: copies of the real table and a run's releases for the evaluation job, transferred. */
  evaluationInputs(jobId: string, schema: Schema): { real: Table; releases: Table[]; holdout: Table | null } {
    const inputs = session.evaluationInputs(jobId, schema);
    const real = copyTable(inputs.real);
    const releases = inputs.releases.map(copyTable);
    const holdout = inputs.holdout === null ? null : copyTable(inputs.holdout);
    const tables = holdout === null ? [real, ...releases] : [real, ...releases, holdout];
    return Comlink.transfer({ real, releases, holdout }, tables.flatMap(tableBuffers));
  },

  /** Pool worker: whether the table under `key` is already here. */
  holdsTable(key: string): boolean {
    return heldTables.has(key);
  },

  /** Pool worker: receives a table (transferred) and keeps it under `key`. */
  acceptTable(key: string, table: Table): void {
    heldTables.delete(key);
    heldTables.set(key, table);
    while (heldTables.size > 2) heldTables.delete(heldTables.keys().next().value as string);
  },

  /**
   * Pool worker: runs a mechanism on the held table and compares the releases with it.
   * The releases come back transferred (the caller hands them to the data worker).
   */
  async synthesize(job: SynthesisJob, onProgress: ProgressListener): Promise<SynthesisOutcome> {
    const progress = throttleProgress(onProgress);
    return withJob(job.jobId, async (signal) => {
      const rows = splitRowsForJob(requireHeldTable(job.tableKey), job);
      const startedAt = performance.now();
      const release = await runSynthesisJob(rows.train, job, (f, m) => progress(0.9 * f, m), signal);
      const runMillis = performance.now() - startedAt;
      progress(0.9, 'Comparing with the real data');
      const result = summarizeRelease(job.jobId, release, rows, runMillis);
      progress(1, 'Done');
      return result;
    });
  },

  /**
   * Pool worker holding the table: plans a run whose stages then run in parallel (mechanisms that
   * declare `staged`); null when the mechanism has no stages.
   */
  planStages(job: SynthesisJob): StageAssignments | null {
    return planStages(splitRowsForJob(requireHeldTable(job.tableKey), job), job, { aborted: false });
  },

  /** Any pool worker: one stage of a planned run. */
  async runStage(
    jobId: string,
    mechanismId: string,
    task: StageTask<unknown>,
    onProgress: StageProgress,
  ): Promise<unknown> {
    return withJob(jobId, async (signal) => runStage(mechanismId, task, onProgress, signal));
  },

  /** The planning pool worker: the release from the stages' results, compared with the real table, transferred. */
  finishStages(job: SynthesisJob, results: unknown[], runMillis: number): SynthesisOutcome {
    const { release, rows } = finishStages(job.jobId, results);
    return summarizeRelease(job.jobId, release, rows, runMillis);
  },

  /**
   * Pool worker: one ε-sweep point (one release), scored by mean 1-way and 2-way TVD and by the raw
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
    const progress: ProgressListener = onProgress === undefined ? () => {} : throttleProgress(onProgress);
    return withJob(job.jobId, async (signal) => {
      const table = requireHeldTable(job.tableKey);
      const startedAt = performance.now();
      const release = await runSynthesisJob(
        table,
        { ...job, releases: 1 },
        (f, m) => progress(0.9 * f, m),
        signal,
      );
      const runMillis = performance.now() - startedAt;
      progress(0.9, 'Scoring against the real data');
      const comparison = compareReleases(table, release.datasets);
      return {
        epsilon,
        repeat,
        tvdOneWay: comparison.tvdOneWay[0] ?? Number.NaN,
        tvdTwoWay: comparison.tvdTwoWay[0] ?? Number.NaN,
        pmse: computePmse(table, release.datasets[0]!, SWEEP_PMSE, makeRng()).value,
        runMillis,
      };
    });
  },

  /**
   * Pool worker: the full utility evaluation of a run's releases against the real table
   * (core evaluateUtility: pMSE, TVD k = 1–3, per-column, correlations, distinguishing game,
   * disclosure checks). Computed from the real data: for the data holder, never part of a release.
   */
  async evaluate(
    jobId: string,
    real: Table,
    releases: Table[],
    holdout: Table | null,
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
  },

  /** Data worker: the regression comparison for a model the user picked (linear or logistic). */
  compareRegressions(jobId: string, schema: Schema, spec: RegressionSpec): RegressionComparison {
    const { real, releases } = session.evaluationInputs(jobId, schema);
    return compareRegressions(real, releases, spec);
  },

  /** Data worker: an estimand combined over the releases (DIPS eqs. 9–11) and, for the data holder, on the real table. */
  inferFromReleases(jobId: string, schema: Schema, estimand: string): InferenceWithRealEstimate {
    const { real, releases } = session.evaluationInputs(jobId, schema);
    return inferWithRealEstimate(
      real,
      releases,
      estimand,
      schema.columns.map((c) => c.name),
    );
  },

  /** Asks a running job to stop; the pool terminates the worker if the job does not notice in time. */
  cancel(jobId: string): void {
    runningJobs.get(jobId)?.abort();
    forgetStagedPlan(jobId);
  },
};

export type Engine = typeof engine;
