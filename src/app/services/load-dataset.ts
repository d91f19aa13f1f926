import type { DatasetSource } from '../../worker/client/data-session';
import { isAbortError } from '../../worker/client/worker-pool';
import { useDataStore, type DatasetProvenance } from '../state/data-store';
import { resetJobRunState, cancelRun } from './run-synthesis';
import { cancelSweep, clearSweepCache } from './run-sweep';
import { discardCompare } from './run-compare';
import { cancelEvaluation } from './run-evaluation';
import { endProgress, reportProgress, startProgress } from '../state/progress-store';
import { replaceSchema } from '../state/schema-store';
import { resetResultsStore } from '../state/results-store';
import { resetTuneStore } from '../state/tune-store';
import type { Schema } from '../../core/table/types';
import { getMechanismMeta } from '../../core/mechanisms/catalogue';
import { resetDataLooks, selectMechanism, useJobStore } from '../state/job-store';
import { resetLedger } from '../state/ledger-store';
import { usePrefsStore } from '../state/prefs-store';
import { dataSession } from './engine';
import { messageOf } from './run-readiness';

let currentLoad: AbortController | null = null;

/**
 * Loads a file (or bundled demo text) into a new data worker. On success the schema becomes the
 * file's inferred schema (or the given declared one) and earlier results are cleared; on failure
 * the message goes next to the drop zone and the dataset already loaded stays.
 */
export async function loadDataset(
  source: DatasetSource,
  options: { declaredSchema?: Schema; provenance?: DatasetProvenance } = {},
): Promise<boolean> {
  currentLoad?.abort();
  const controller = new AbortController();
  currentLoad = controller;
  useDataStore.setState({ loadingFileName: source.fileName, loadError: null });
  startProgress('load', `Reading ${source.fileName}`);
  try {
    const overview = await dataSession.load(
      source,
      (fraction, message) => reportProgress('load', fraction, message),
      controller.signal,
    );
    cancelRun();
    cancelEvaluation();
    cancelSweep();
    clearSweepCache();
    discardCompare();
    resetResultsStore();
    resetTuneStore();
    resetJobRunState();
    resetDataLooks();
    resetLedger();
    useDataStore.setState({
      dataset: overview,
      provenance: options.provenance ?? null,
      loadingFileName: null,
      loadError: null,
    });
    replaceSchema(options.declaredSchema ?? overview.inferredSchema);
    preselectLastMechanism();
    return true;
  } catch (error) {
    useDataStore.setState({
      loadingFileName: null,
      loadError: isAbortError(error)
        ? null
        : `${source.fileName}: ${stripFilePrefix(messageOf(error), source.fileName)}`,
    });
    return false;
  } finally {
    if (currentLoad === controller) currentLoad = null;
    endProgress('load');
  }
}

export function cancelLoad(): void {
  currentLoad?.abort();
}

/** Messages from the table module usually start with the file name already; avoid saying it twice. */
function stripFilePrefix(message: string, fileName: string): string {
  return message.startsWith(`${fileName}, `) || message.startsWith(`${fileName}: `)
    ? message.slice(fileName.length + 2)
    : message;
}

/** The mechanism picked last time (a persisted preference), when none is picked yet. */
function preselectLastMechanism(): void {
  const { lastMechanismId } = usePrefsStore.getState();
  if (useJobStore.getState().mechanismId !== null || lastMechanismId === null) return;
  if (getMechanismMeta(lastMechanismId) !== undefined) selectMechanism(lastMechanismId);
}
