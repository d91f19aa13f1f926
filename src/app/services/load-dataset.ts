import type { DatasetSource } from '../../worker/client/data-session';
import { isAbortError } from '../../core/abort';
import { useDataStore, type DatasetProvenance } from '../state/data-store';
import type { DatasetOverview } from '../../worker/protocol';
import { forgetPreviousDataset } from '../state/dataset-resets';
import { replaceSchema } from '../state/schema-store';
import type { Schema } from '../../core/table/types';
import { isMechanismId } from '../../core/mechanisms/catalogue';
import { selectMechanism, useJobStore } from '../state/job-store';
import { usePrefsStore } from '../state/prefs-store';
import { dataSession } from './workers';
import { createJobRunner } from './job-runner';
import { messageOf } from './run-readiness';
import { LEDGER_RESET } from '../state/ledger-store';
import type { CsvEncodingChoice } from '../../core/table/text-encoding';

/**
 * The file the loaded dataset was read from (a handle: its bytes are read by the data worker only),
 * so that it can be read again in another encoding; null for a demo.
 */
let loadedFile: { file: Blob; fileName: string } | null = null;

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
 * message goes next to the drop zone and the dataset already loaded stays. With `sameData` (the
 * loaded file read again) the privacy ledger is kept: what was spent on those rows stays counted.
 */
export async function loadDataset(
  source: DatasetSource,
  options: { declaredSchema?: Schema; provenance?: DatasetProvenance; sameData?: boolean } = {},
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
    forgetPreviousDataset(options.sameData ? [LEDGER_RESET] : []);
    loadedFile = source.kind === 'file' ? { file: source.file, fileName: source.fileName } : null;
    useDataStore.setState({
      dataset: overview,
      provenance: options.provenance ?? null,
      encodingChoosable: source.kind === 'file',
    });
    replaceSchema(options.declaredSchema ?? overview.inferredSchema);
    preselectLastMechanism();
  });
  return end === 'finished';
}

export function cancelLoad(): void {
  runner.cancel();
}

/**
 * Reads the loaded file again in `encoding`, in a new data worker (as any load): on success it
 * replaces the dataset (the schema becomes the new reading's inferred one; the privacy ledger
 * stays), on failure the message goes next to the drop zone and the dataset read before stays.
 */
export async function readAgainInEncoding(encoding: CsvEncodingChoice): Promise<boolean> {
  if (loadedFile === null) return false;
  return loadDataset({ kind: 'file', ...loadedFile, encoding }, { sameData: true });
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
  if (isMechanismId(lastMechanismId)) selectMechanism(lastMechanismId);
}
