import { create } from 'zustand';
import type { PrivacyClaim } from '../../core/privacy/types';
import type { JobStatus } from './job-status';
import type { SweepPointResult } from '../../worker/protocol';

/** One mechanism of a comparison, as it was configured when the comparison started. */
export interface CompareEntry {
  mechanismId: string;
  label: string;
  /** The claim of one release at the comparison's ε and δ (public facts only). */
  claim: PrivacyClaim;
  /** True for the mechanism of step 3, which runs with the user's parameters (the others: defaults). */
  usesCurrentParams: boolean;
}

/** The shared budget and repeats of a comparison, shown beside its results. */
export interface CompareSettings {
  epsilon: string;
  delta: string;
  seeded: boolean;
  repeats: number;
}

/** One finished run of a comparison: a sweep point tagged with its mechanism. */
export interface ComparePoint extends SweepPointResult {
  mechanismId: string;
}

interface CompareState {
  /** Mechanisms ticked for the next comparison (they run in catalogue order). */
  selectedIds: string[];
  repeats: number;
  status: JobStatus;
  entries: CompareEntry[];
  settings: CompareSettings | null;
  points: ComparePoint[];
  /** How many of the runs were taken from an earlier comparison with the same settings. */
  reused: number;
  error: string | null;
}

export const DEFAULT_COMPARE_REPEATS = 3;

const initialResults = {
  status: 'idle' as JobStatus,
  entries: [] as CompareEntry[],
  settings: null as CompareSettings | null,
  points: [] as ComparePoint[],
  reused: 0,
  error: null as string | null,
};

/** The compare slice: the choices for the next comparison and the results of the last one. */
export const useCompareStore = create<CompareState>(() => ({
  selectedIds: [],
  repeats: DEFAULT_COMPARE_REPEATS,
  ...initialResults,
}));

/** Forgets the results (a new dataset makes them meaningless) but keeps the user's choices. */
export function resetCompareResults(): void {
  useCompareStore.setState(initialResults);
}

/** Back to the start, choices included (tests). */
export function resetCompareStore(): void {
  useCompareStore.setState({ selectedIds: [], repeats: DEFAULT_COMPARE_REPEATS, ...initialResults }, true);
}

export function setCompareSelected(mechanismId: string, selected: boolean): void {
  useCompareStore.setState((state) => ({
    selectedIds: selected
      ? [...new Set([...state.selectedIds, mechanismId])]
      : state.selectedIds.filter((id) => id !== mechanismId),
  }));
}

export function setCompareRepeats(repeats: number): void {
  useCompareStore.setState({ repeats });
}

export function beginCompare(
  entries: CompareEntry[],
  settings: CompareSettings,
  cached: ComparePoint[],
): void {
  useCompareStore.setState({ entries, settings, points: cached, reused: cached.length });
}

export function addComparePoint(point: ComparePoint): void {
  useCompareStore.setState((state) => ({ points: [...state.points, point] }));
}

export function setCompareStatus(status: JobStatus, error: string | null = null): void {
  useCompareStore.setState({ status, error });
}
