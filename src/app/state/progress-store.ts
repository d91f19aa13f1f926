import { create } from 'zustand';

/** The long operations whose progress the studio shows. */
export type ProgressChannel = 'load' | 'run' | 'evaluate' | 'sweep' | 'compare';

export interface ProgressEntry {
  fraction: number;
  message: string;
  /** performance.now() when the operation started, for the elapsed-time display. */
  startedAt: number;
}

interface ProgressState {
  entries: Partial<Record<ProgressChannel, ProgressEntry>>;
}

/**
 * Fast-changing progress lives in its own store and is read through `subscribe` by the
 * progress bars (which update their DOM nodes directly), so a progress tick never
 * re-renders the steps (zustand guide: transient updates).
 */
export const useProgressStore = create<ProgressState>(() => ({ entries: {} }));

export function startProgress(channel: ProgressChannel, message: string): void {
  setEntry(channel, { fraction: 0, message, startedAt: performance.now() });
}

export function reportProgress(channel: ProgressChannel, fraction: number, message: string): void {
  const entry = useProgressStore.getState().entries[channel];
  if (entry === undefined) return;
  setEntry(channel, { ...entry, fraction, message });
}

export function endProgress(channel: ProgressChannel): void {
  useProgressStore.setState((state) => {
    const entries = { ...state.entries };
    delete entries[channel];
    return { entries };
  });
}

function setEntry(channel: ProgressChannel, entry: ProgressEntry): void {
  useProgressStore.setState((state) => ({ entries: { ...state.entries, [channel]: entry } }));
}
