import { create } from 'zustand';
import type { DatasetOverview } from '../../worker/protocol';

/** Where a demo dataset comes from and under which licence (shown beside the preview). */
export interface DatasetProvenance {
  title: string;
  source: string;
  licence: string;
}

interface DataState {
  /** Summaries of the loaded file; its rows stay in the data worker. */
  dataset: DatasetOverview | null;
  provenance: DatasetProvenance | null;
  /** Name of the file being parsed right now, if any. */
  loadingFileName: string | null;
  /** Why the last file could not be loaded (the loaded dataset, if any, is unchanged). */
  loadError: string | null;
  /** The loaded dataset came from a file, which can be read again in another encoding (not a demo). */
  encodingChoosable: boolean;
}

const initialDataState: DataState = {
  dataset: null,
  provenance: null,
  loadingFileName: null,
  loadError: null,
  encodingChoosable: false,
};

/** The data slice: what is loaded, what is loading, and why a load failed. */
export const useDataStore = create<DataState>(() => initialDataState);

export function resetDataStore(): void {
  useDataStore.setState(initialDataState, true);
}
