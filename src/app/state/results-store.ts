import { create } from 'zustand';
import type { UtilityReport } from '../../core/metrics/evaluate';
import type { ParamValues } from '../../core/mechanisms/types';
import type { Schema } from '../../core/table/types';
import { onDatasetReplaced } from './dataset-resets';
import type { JobStatus } from './job-status';
import type { EvaluationSettings, PairHeatmap, SynthesisSummary } from '../../worker/protocol';

/** The public configuration a finished run used, frozen at start (the report is built from it). */
export interface RunConfiguration {
  datasetId: string;
  fileName: string;
  schema: Schema;
  mechanismId: string;
  params: ParamValues;
  epsilon: string;
  delta: string;
  releases: number;
  seeded: boolean;
  /** Share of rows kept back from the mechanism as an ML test set (0: none). */
  holdoutShare: number;
  /** Sentences on ε or the mechanism chosen after seeing results on the real data (tuning-notes.ts). */
  tuningNotes: string[];
}

export interface FinishedRun {
  summary: SynthesisSummary;
  configuration: RunConfiguration;
}

interface ResultsState {
  run: FinishedRun | null;
  /** The column pair of the heatmap panel and the release it shows. */
  heatmapPair: [string, string] | null;
  heatmapRelease: number;
  heatmap: PairHeatmap | null;
  evaluationStatus: JobStatus;
  /** The full utility report (JSON-safe), computed from the real data: for the data holder. */
  evaluation: UtilityReport | null;
  evaluationError: string | null;
  /** The settings of the latest evaluation (the ML target can be changed and re-evaluated). */
  evaluationSettings: EvaluationSettings | null;
}

const initialResultsState: ResultsState = {
  run: null,
  heatmapPair: null,
  heatmapRelease: 0,
  heatmap: null,
  evaluationStatus: 'idle',
  evaluation: null,
  evaluationError: null,
  evaluationSettings: null,
};

/** The results slice: the latest finished run and the metrics computed for it. */
export const useResultsStore = create<ResultsState>(() => initialResultsState);

export function resetResultsStore(): void {
  useResultsStore.setState(initialResultsState, true);
}
onDatasetReplaced('results', resetResultsStore);

export function setFinishedRun(run: FinishedRun): void {
  const names = run.configuration.schema.columns.map((column) => column.name);
  const heatmapPair: [string, string] | null = names.length >= 2 ? [names[0]!, names[1]!] : null;
  useResultsStore.setState({ ...initialResultsState, run, heatmapPair });
}

export function setHeatmapChoice(heatmapPair: [string, string] | null, heatmapRelease: number): void {
  useResultsStore.setState({ heatmapPair, heatmapRelease, heatmap: null });
}

export function setHeatmap(heatmap: PairHeatmap | null): void {
  useResultsStore.setState({ heatmap });
}

export function setEvaluationStatus(
  evaluationStatus: JobStatus,
  evaluationError: string | null = null,
): void {
  useResultsStore.setState({ evaluationStatus, evaluationError });
}

/** The full utility report of the latest evaluation (null while it is computed or when it stopped). */
export function setEvaluationReport(evaluation: UtilityReport | null): void {
  useResultsStore.setState({ evaluation });
}

export function setEvaluationSettings(evaluationSettings: EvaluationSettings): void {
  useResultsStore.setState({ evaluationSettings });
}
