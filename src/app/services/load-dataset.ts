import type { DatasetSource } from '../../worker/client/data-session';
import { isAbortError } from '../../core/abort';
import { useDataStore, type DatasetProvenance } from '../state/data-store';
import type { DatasetOverview } from '../../worker/protocol';
import { forgetPreviousDataset } from '../state/dataset-resets';
import { replaceSchema } from '../state/schema-store';
import type { Schema } from '../../core/table/types';
import { getMechanismMeta } from '../../core/mechanisms/catalogue';
import { selectMechanism, useJobStore } from '../state/job-store';
import { usePrefsStore } from '../state/prefs-store';
import { dataSession } from './workers';
import { createJobRunner } from './job-runner';
import { messageOf } from './run-readiness';

/**
 * The load's status lives in the data store as the name of the file being read and the sentence
 * saying why the last file could not be read (the dataset already loaded stays).
 */
const runner = createJobRunner({
  kind: 'load',
  channel: 'load',
  setStatus: (status, error) =>
    useDataStore.setState(
      status === 'running' ? { loadError: null } : { loadingFileName: null, loadError: error },
    ),
});

/**
 * Loads a file (or bundled demo text) into a new data worker. On success the schema becomes the
 * file's inferred schema (or the given declared one) and everything computed from the previous
 * dataset is stopped and forgotten (the resets registered with onDatasetReplaced); on failure the
 * message goes next to the drop zone and the dataset already loaded stays.
 */
export async function loadDataset(
  source: DatasetSource,
  options: { declaredSchema?: Schema; provenance?: DatasetProvenance } = {},
): Promise<boolean> {
  const end = await runner.start(`Reading ${source.fileName}`, async ({ signal, progress }) => {
    useDataStore.setState({ loadingFileName: source.fileName });
    let overview: DatasetOverview;
    try {
      overview = await dataSession.load(source, progress, signal);
    } catch (error) {
      if (isAbortError(error)) throw error;
      throw new Error(`${source.fileName}: ${stripFilePrefix(messageOf(error), source.fileName)}`);
    }
    forgetPreviousDataset();
    useDataStore.setState({ dataset: overview, provenance: options.provenance ?? null });
    replaceSchema(options.declaredSchema ?? overview.inferredSchema);
    preselectLastMechanism();
  });
  return end === 'finished';
}

export function cancelLoad(): void {
  runner.cancel();
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
