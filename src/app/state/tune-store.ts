import { create } from 'zustand';
import { onDatasetReplaced } from './dataset-resets';
import type { JobStatus } from './job-status';
import type { SweepPointResult } from '../../worker/protocol';

interface TuneState {
  status: JobStatus;
  /** Identifies the configuration (data, schema, mechanism, params, seed) the points belong to. */
  configurationKey: string | null;
  grid: number[];
  repeats: number;
  points: SweepPointResult[];
  /** How many of the points were taken from an earlier sweep with the same configuration. */
  reused: number;
  /** The estimate shown when the sweep started (seconds, sweep-cost.ts); null before any sweep. */
  estimateSeconds: number | null;
  error: string | null;
}

const initialTuneState: TuneState = {
  status: 'idle',
  configurationKey: null,
  grid: [],
  repeats: 0,
  points: [],
  reused: 0,
  estimateSeconds: null,
  error: null,
};

/** The tune slice: the current ε sweep and its points. */
export const useTuneStore = create<TuneState>(() => initialTuneState);

export function resetTuneStore(): void {
  useTuneStore.setState(initialTuneState, true);
}
onDatasetReplaced('sweep results', resetTuneStore);

export function beginSweep(
  configurationKey: string,
  grid: number[],
  repeats: number,
  cached: SweepPointResult[],
  estimateSeconds: number | null = null,
): void {
  useTuneStore.setState({
    configurationKey,
    grid,
    repeats,
    points: cached,
    reused: cached.length,
    estimateSeconds,
  });
}

export function addSweepPoint(point: SweepPointResult): void {
  useTuneStore.setState((state) => ({ points: [...state.points, point] }));
}

export function setSweepStatus(status: JobStatus, error: string | null = null): void {
  useTuneStore.setState({ status, error });
}
