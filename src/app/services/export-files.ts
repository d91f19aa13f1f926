import type { UtilityReport } from '../../core/metrics/evaluate';
import { evaluationJson, type EvaluationJson } from '../../core/metrics/evaluation-json';
import { APP_VERSION } from '../../core/version';
import { parseJobBudget } from '../../core/job/job-budget';
import { getMechanismMeta } from '../../core/mechanisms/catalogue';
import {
  buildReleaseReport,
  inferredFields,
  type CumulativeBudget,
  type ReleaseReport,
} from '../../core/privacy';
import { cumulativeBudget, domainLedgerEntry, recordExport, useLedgerStore } from '../state/ledger-store';
import type { FinishedRun } from '../state/results-store';
import { saveBlob, saveJson } from './download';
import { dataSession } from './workers';
import { evaluationReportFileName, releaseCsvFileName, releaseReportFileName } from './file-names';

/** How the user asked the report to be written. */
export interface ReleaseReportOptions {
  /** Write inferred bounds and categories instead of withholding them. */
  publishInferred?: boolean;
  /** The one ledger total of the dataset (everything spent on it so far, this export included). */
  cumulative?: CumulativeBudget;
}

/**
 * Records in the dataset's ledger that `run` is exported (once per run, whatever file is saved
 * first) and returns the one ledger total of the dataset: everything spent on it so far, this export
 * included, with the exports and the looks (runs shown, sweeps, comparisons, domain learnings) beside it.
 */
export function recordRunExport(run: FinishedRun): CumulativeBudget {
  // A release on a learned schema publishes the learned facts: the learning is counted once.
  const domain = domainLedgerEntry(run.configuration.schema);
  if (domain !== null) recordExport(domain.key, domain.entry, 'domain');
  const own = run.summary.claim.composedOf?.mechanism ?? run.summary.claim;
  recordExport(run.summary.jobId, {
    mechanism: run.configuration.mechanismId,
    epsilon: own.epsilon,
    delta: own.delta,
    runs: 1,
    what: `export of a run of ${run.configuration.mechanismId}`,
    neighbouring: run.summary.claim.neighbouring,
  });
  return cumulativeBudget(useLedgerStore.getState());
}

/**
 * The inferred bound ends, category lists and missingness flags the run's mechanism reads, as "column.part" paths:
 * what the release report withholds unless the user publishes them.
 */
export function withheldValuesOf(run: FinishedRun): string[] {
  const mechanism = getMechanismMeta(run.configuration.mechanismId);
  const schema = mechanism?.schemaRead?.(run.configuration.schema) ?? run.configuration.schema;
  return inferredFields(schema).filter((path) => /\.(lower|upper|categories|canBeMissing)$/.test(path));
}

/** The release report of a finished run: public configuration and DP outputs only (DESIGN.md §2). */
export function releaseReportOf(run: FinishedRun, options: ReleaseReportOptions = {}): ReleaseReport {
  const { configuration, summary } = run;
  const mechanism = getMechanismMeta(configuration.mechanismId);
  if (mechanism === undefined)
    throw new Error(
      `Mechanism "${configuration.mechanismId}" is not registered; run a registered mechanism, then export.`,
    );
  return buildReleaseReport({
    appVersion: APP_VERSION,
    schema: configuration.schema,
    mechanism,
    params: configuration.params,
    claim: summary.claim,
    rows: summary.trainRows,
    releases: summary.releases,
    seeded: configuration.seeded,
    budget: parseJobBudget(configuration),
    publishInferred: options.publishInferred === true,
    ...(options.cumulative === undefined ? {} : { cumulative: options.cumulative }),
    notes: [
      'Made in the dpsynth studio; the synthetic tables were drawn in this browser.',
      ...(configuration.holdoutShare > 0
        ? [
            `${summary.holdoutRows} of ${summary.trainRows + summary.holdoutRows} rows (${configuration.holdoutShare * 100}%, chosen at random) were kept back as a test set; the mechanism saw the other ${summary.trainRows}.`,
          ]
        : []),
      ...configuration.tuningNotes,
    ],
  });
}

/**
 * Saves release `index` (0-based) as CSV. The data worker writes it with formula-like text
 * escaped (csvChunks escapeFormulas; numbers in numeric columns stay as they are), piece by piece
 * into a Blob, so a large release is never one string in either thread.
 */
export async function downloadReleaseCsv(run: FinishedRun, index: number): Promise<void> {
  recordRunExport(run);
  const blob = await dataSession.worker.releaseCsvBlob(run.summary.jobId, index);
  const fileName = releaseCsvFileName(
    run.configuration.mechanismId,
    run.configuration.epsilon,
    index + 1,
    run.summary.releases,
    run.configuration.seeded,
  );
  saveBlob(blob, fileName);
}

export function downloadReleaseReport(run: FinishedRun, options: ReleaseReportOptions = {}): void {
  const cumulative = recordRunExport(run);
  saveJson(
    releaseReportOf(run, { ...options, cumulative }),
    releaseReportFileName(run.configuration.mechanismId, run.configuration.epsilon, run.configuration.seeded),
  );
}

/**
 * The evaluation report of a run (core evaluationJson): the shape `dpsynth metrics --json` prints,
 * with the time, the loaded file's name, the release CSVs' names, the rows kept back, and the run's
 * mechanism and claim. Utility metrics computed from the real data: for the data holder, not for
 * release, and kept out of the release report. Throws when `evaluation` has another number of
 * releases than the run.
 */
export function evaluationReportOf(
  run: FinishedRun,
  evaluation: UtilityReport,
  createdAt: Date = new Date(),
): EvaluationJson {
  const { configuration, summary } = run;
  const mechanism = getMechanismMeta(configuration.mechanismId);
  return evaluationJson(evaluation, {
    appVersion: APP_VERSION,
    createdAt: createdAt.toISOString(),
    realFile: configuration.fileName,
    syntheticFiles: Array.from({ length: summary.releases }, (_, j) =>
      releaseCsvFileName(
        configuration.mechanismId,
        configuration.epsilon,
        j + 1,
        summary.releases,
        configuration.seeded,
      ),
    ),
    ...(summary.holdoutRows > 0 ? { holdout: { rows: summary.holdoutRows } } : {}),
    run: {
      claim: summary.claim,
      ...(mechanism === undefined
        ? {}
        : {
            mechanism: {
              id: mechanism.id,
              label: mechanism.label,
              reference: mechanism.reference,
              params: { ...configuration.params },
            },
          }),
    },
  });
}

/** Saves the evaluation report of a run whose evaluation has finished (evaluationReportOf). */
export function downloadEvaluationReport(run: FinishedRun, evaluation: UtilityReport): void {
  saveJson(
    evaluationReportOf(run, evaluation),
    evaluationReportFileName(run.configuration.mechanismId, run.configuration.epsilon),
  );
}
