/**
 * The data worker's API (one worker per loaded file; the page calls it through
 * `Comlink.wrap<DataWorkerApi>()`, so call types come from these real functions). It parses the
 * file, pages rows to the preview, validates schemas, keeps the synthetic releases of runs (received
 * straight from the pool worker that made them) for charts and export, and hands tables straight to
 * pool workers over a MessageChannel (README.md in this folder draws the routes). It runs no mechanism.
 */
import { inferWithRealEstimate, type InferenceWithRealEstimate } from '../core/inference/release-inference';
import type { Schema } from '../core/table/types';
import type { CsvEncodingChoice } from '../core/table/text-encoding';
import {
  compareRegressions,
  type RegressionComparison,
  type RegressionSpec,
} from '../core/metrics/regression-comparison';
import { DatasetSession } from './dataset-session';
import type { DatasetOverview, PairHeatmap, ProgressListener, SchemaValidation } from './protocol';
import { throttleProgress } from './progress-throttle';
import { receiveTablesFrom, sendTablesOver } from './table-channel';
import { copyTable } from './table-transfer';
import type { LearnDomainOptions, LearnDomainResult } from '../core/domain/learn-domain';
import type { EvaluationInputs, RunReleases } from './table-channel';
import { createAbortError } from '../core/abort';

const session = new DatasetSession();

/** Runs whose releases are on their way from a pool worker, by run id: aborting one stops its wait. */
const awaitedReleases = new Map<string, AbortController>();

/** The chunks of a byte stream, read one at a time (the file is never held whole). */
async function* chunksOf(stream: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    reader.releaseLock();
  }
}
/** A load is stopped by terminating this worker (client/data-session.ts), so its signal never aborts. */
const NEVER_ABORTED = new AbortController().signal;

export const dataWorker = {
  /** Reads and parses a dropped or picked file, in the encoding chosen (default: detected). */
  async loadCsvFile(
    file: Blob,
    fileName: string,
    onProgress: ProgressListener,
    encoding: CsvEncodingChoice = 'auto',
  ): Promise<DatasetOverview> {
    return session.loadStream(
      chunksOf(file.stream()),
      fileName,
      file.size,
      throttleProgress(onProgress),
      NEVER_ABORTED,
      encoding,
    );
  },

  /** Parses CSV text (the bundled demos). */
  async loadCsvText(text: string, fileName: string, onProgress: ProgressListener): Promise<DatasetOverview> {
    return session.loadText(text, fileName, throttleProgress(onProgress), NEVER_ABORTED);
  },

  /** Rows [start, start + count) for the virtualised preview. */
  previewRows(start: number, count: number): string[][] {
    return session.previewRows(start, count);
  },

  /** A column's distinct tokens, to fill a category list from the data (inferred). */
  distinctTokens(
    columnName: string,
    missingTokens: string[],
    limit: number,
  ): { tokens: string[]; truncated: boolean } {
    return session.distinctTokens(columnName, missingTokens, limit);
  },

  /** The schema with its undeclared facts learned with DP, and the steps that spent. */
  learnDomain(schema: Schema, options: LearnDomainOptions, seed: string | null): LearnDomainResult {
    return session.learnDomain(schema, options, seed);
  },

  /** The plan of a domain learning (public facts only; no cell read, nothing spent). */
  planDomain(schema: Schema, options: LearnDomainOptions) {
    return session.planDomain(schema, options);
  },

  /** Values outside the declared domain, per column. */
  validateSchema(schema: Schema): SchemaValidation {
    return session.validate(schema);
  },

  /**
   * Sends a copy of the table built under `schema` over `port` to the pool worker at its other
   * end (poolWorker.receiveTable), transferred.
   */
  sendTableForRun(schema: Schema, port: MessagePort): void {
    sendTablesOver(
      port,
      () => copyTable(session.tableFor(schema).table),
      (table) => [table],
    );
  },

  /**
   * Receives the releases and kept-back row indices of run `jobId` over `port`, straight from the pool
   * worker that makes them (poolWorker.synthesize or finishStages, transferred), and keeps them for
   * charts and export. Resolves once they are kept; rejects with the pool worker's reason when the run
   * fails, or when the page gives the run up (`abandonReleases`: cancelled, its worker terminated).
   */
  async receiveReleases(jobId: string, schema: Schema, port: MessagePort): Promise<void> {
    awaitedReleases.get(jobId)?.abort(createAbortError('The run was started again.'));
    const wait = new AbortController();
    awaitedReleases.set(jobId, wait);
    try {
      const { datasets, holdoutRows } = await receiveTablesFrom<RunReleases>(port, wait.signal);
      session.keepReleases(jobId, schema, datasets, holdoutRows);
    } finally {
      if (awaitedReleases.get(jobId) === wait) awaitedReleases.delete(jobId);
    }
  },

  /**
   * Gives run `jobId` up: a wait for its releases stops (the channel is closed) and any releases of
   * it already kept are dropped. The page calls it when the run was cancelled or its pool worker
   * ended, so nothing waits for a sender that is gone.
   */
  abandonReleases(jobId: string): void {
    awaitedReleases.get(jobId)?.abort(createAbortError('The run was cancelled.'));
    session.forgetReleases(jobId);
  },

  /**
   * Release `index` of a run as a UTF-8 CSV Blob, built piece by piece (32,768 rows a piece): a
   * Blob made of a Blob and a piece refers to the earlier data instead of copying it, and the
   * browser may keep large blobs on disk, so a release of millions of rows is never one string.
   */
  releaseCsvBlob(jobId: string, index: number): Blob {
    let blob = new Blob([], { type: 'text/csv;charset=utf-8' });
    for (const piece of session.releaseCsvChunks(jobId, index)) {
      blob = new Blob([blob, piece], { type: 'text/csv;charset=utf-8' });
    }
    return blob;
  },

  /** Joint shares of two columns, real vs release `index`. */
  pairHeatmap(
    jobId: string,
    index: number,
    schema: Schema,
    rowColumn: string,
    columnColumn: string,
  ): PairHeatmap {
    return session.heatmap(jobId, index, schema, rowColumn, columnColumn);
  },

  /**
   * Sends copies of a run's releases over `port` to the pool worker that evaluates them
   * (poolWorker.evaluate), transferred, with copies of the real table and the kept-back rows unless
   * `realHeld` says that worker holds the table the run used.
   */
  sendEvaluationInputs(jobId: string, schema: Schema, port: MessagePort, realHeld = false): void {
    sendTablesOver(
      port,
      (): EvaluationInputs => {
        if (realHeld) {
          const kept = session.keptReleases(jobId);
          return {
            real: null,
            releases: kept.datasets.map(copyTable),
            holdout: null,
            holdoutRows: kept.holdoutRows === null ? null : kept.holdoutRows.slice(),
          };
        }
        const inputs = session.evaluationInputs(jobId, schema);
        return {
          real: copyTable(inputs.real),
          releases: inputs.releases.map(copyTable),
          holdout: inputs.holdout === null ? null : copyTable(inputs.holdout),
          holdoutRows: null,
        };
      },
      ({ real, releases, holdout }) => [
        ...(real === null ? [] : [real]),
        ...releases,
        ...(holdout === null ? [] : [holdout]),
      ],
    );
  },

  /** The regression comparison for a model the user picked (linear or logistic). */
  compareRegressions(jobId: string, schema: Schema, spec: RegressionSpec): RegressionComparison {
    const { real, releases } = session.evaluationInputs(jobId, schema);
    return compareRegressions(real, releases, spec);
  },

  /** An estimand combined over the releases (DIPS eqs. 9–11) and, for the data holder, on the real table. */
  inferFromReleases(jobId: string, schema: Schema, estimand: string): InferenceWithRealEstimate {
    const { real, releases } = session.evaluationInputs(jobId, schema);
    return inferWithRealEstimate(
      real,
      releases,
      estimand,
      schema.columns.map((c) => c.name),
    );
  },
};

export type DataWorkerApi = typeof dataWorker;
