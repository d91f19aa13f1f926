import { create } from 'zustand';
import type { SweepPointResult } from '../../worker/protocol';

export type SweepStatus = 'idle' | 'running' | 'done' | 'failed' | 'cancelled';

interface TuneState {
  status: SweepStatus;
  /** Identifies the configuration (data, schema, mechanism, params, seed) the points belong to. */
  configurationKey: string | null;
  grid: number[];
  repeats: number;
  points: SweepPointResult[];
  error: string | null;
}

const initialTuneState: TuneState = {
  status: 'idle',
  configurationKey: null,
  grid: [],
  repeats: 0,
  points: [],
  error: null,
};

/** The tune slice: the current ε sweep and its points. */
export const useTuneStore = create<TuneState>(() => initialTuneState);

export function resetTuneStore(): void {
  useTuneStore.setState(initialTuneState, true);
}

export function beginSweep(
  configurationKey: string,
  grid: number[],
  repeats: number,
  cached: SweepPointResult[],
): void {
  useTuneStore.setState({ status: 'running', configurationKey, grid, repeats, points: cached, error: null });
}

export function addSweepPoint(point: SweepPointResult): void {
  useTuneStore.setState((state) => ({ points: [...state.points, point] }));
}

export function finishSweep(
  status: Exclude<SweepStatus, 'idle' | 'running'>,
  error: string | null = null,
): void {
  useTuneStore.setState({ status, error });
}
