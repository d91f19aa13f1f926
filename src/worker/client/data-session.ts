import * as Comlink from 'comlink';
import type { DatasetOverview, ProgressListener } from '../protocol';
import { spawnDataWorker, type RemoteDataWorker } from './spawn-worker';
import { createAbortError } from '../../core/abort';
import type { SpawnedWorker } from './worker-pool';
import type { CsvEncodingChoice } from '../../core/table/text-encoding';

/** A file to read (in `encoding`, default `auto`: detected) or a bundled demo's text. */
export type DatasetSource =
  | { kind: 'file'; file: Blob; fileName: string; encoding?: CsvEncodingChoice }
  | { kind: 'text'; text: string; fileName: string };

/**
 * Owns the data worker. Each load starts a fresh worker; only when it succeeds does it replace
 * the current one. A bad file or a cancelled load therefore leaves the loaded dataset untouched,
 * and cancelling a parse (a synchronous loop) simply terminates the new worker.
 */
export class DataSessionHolder {
  private current: SpawnedWorker<RemoteDataWorker> | undefined;
  private loading: SpawnedWorker<RemoteDataWorker> | undefined;

  /** The data worker of the loaded dataset; throws when none is loaded. */
  get worker(): RemoteDataWorker {
    if (this.current === undefined)
      throw new Error('No data is loaded yet; load a file or a demo in the Data step first.');
    return this.current.remote;
  }

  get hasDataset(): boolean {
    return this.current !== undefined;
  }

  async load(
    source: DatasetSource,
    onProgress: ProgressListener,
    signal: AbortSignal,
  ): Promise<DatasetOverview> {
    this.loading?.terminate();
    const candidate = spawnDataWorker();
    this.loading = candidate;
    const stop = () => candidate.terminate();
    try {
      const overview = await new Promise<DatasetOverview>((resolve, reject) => {
        if (signal.aborted) return reject(createAbortError('Loading was cancelled.'));
        const onAbort = () => {
          stop();
          reject(createAbortError('Loading was cancelled.'));
        };
        signal.addEventListener('abort', onAbort, { once: true });
        candidate.onFatalError((message) =>
          reject(
            new Error(
              `The file could not be read: ${message}. Load it again; reload the page if this repeats.`,
            ),
          ),
        );
        const progress = Comlink.proxy(onProgress);
        const call =
          source.kind === 'file'
            ? candidate.remote.loadCsvFile(source.file, source.fileName, progress, source.encoding ?? 'auto')
            : candidate.remote.loadCsvText(source.text, source.fileName, progress);
        call.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
      });
      this.current?.terminate();
      this.current = candidate;
      return overview;
    } catch (error) {
      stop();
      throw error;
    } finally {
      if (this.loading === candidate) this.loading = undefined;
    }
  }
}
