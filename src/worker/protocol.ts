/**
 * The shapes that cross the worker boundary. Types only: the studio and the workers share them,
 * and the engine's method signatures (Comlink.wrap<Engine>) are built from them.
 *
 * Everything here is small (summaries, counts, proportions) except `Table`s, whose typed arrays
 * are transferred, never cloned twice, and never put into React state.
 */
import type { OverlayBar } from '../core/metrics/marginal-overlay';
import type { PrivacyClaim } from '../core/privacy/types';
import type { Schema } from '../core/table/types';
import type { CsvEncoding, CsvEncodingChoice } from '../core/table/text-encoding';
import type { ColumnSummary } from '../core/table/summary';
import type { ColumnValidation } from '../core/table/validation-report';

/** Progress callback passed into a worker through Comlink.proxy. */
export type ProgressListener = (fraction: number, message: string) => void;

/** One column's card in the Data step. */
export type ColumnProfile = ColumnSummary;

/** What the Data step knows about a loaded file; the rows themselves stay in the data worker. */
export interface DatasetOverview {
  /** New for every load; part of every cache key derived from the data. */
  datasetId: string;
  fileName: string;
  nRows: number;
  header: string[];
  delimiter: string;
  bytes: number;
  inferredSchema: Schema;
  profiles: ColumnProfile[];
  parseMillis: number;
  /** Set when the file was not valid UTF-8 and was read as Windows-1252: the Data step says so. */
  encodingNote?: string;
  /** The encoding the file was read in (`used`) and the one asked for (`choice`; `auto`: detected). */
  encoding?: { used: CsvEncoding; choice: CsvEncodingChoice };
}

/** Counts of values outside the declared domain, per column. */
export type ColumnValidationCounts = ColumnValidation;

export interface SchemaValidation {
  columns: ColumnValidationCounts[];
  messages: string[];
}

/** The job model lives in core (src/core/job/); the page and the pool workers send it as is. */
export type { SynthesisJob } from '../core/job/synthesis-job';

/** Real vs synthetic shares of one column's cells (numeric columns binned). */
export interface MarginalOverlay {
  column: string;
  kind: 'numeric' | 'categorical';
  /** TVD of this column's marginal, mean over releases. */
  tvd: number;
  /** Bars of the overlay chart, as core marginalOverlay lays them out. */
  cells: OverlayBar[];
}

/** Headline utility of a run (computed from the real data: for the data holder). */
export interface QuickComparison {
  /** Mean 1-way and 2-way TVD per release. */
  tvdOneWay: number[];
  tvdTwoWay: number[];
  overlays: MarginalOverlay[];
}

export interface SynthesisSummary {
  jobId: string;
  /** Real rows the mechanism saw (all rows unless some were kept back) and rows kept back. */
  trainRows: number;
  holdoutRows: number;
  claim: PrivacyClaim;
  /** The mechanism's public diagnostics (parameters, public facts, DP outputs), JSON-safe. */
  diagnostics: Record<string, unknown>;
  /** Diagnostics computed from the real data (e.g. MCMC traces, R̂): shown to the data holder, never exported. */
  dataHolderDiagnostics: Record<string, unknown>;
  rows: number;
  columns: number;
  releases: number;
  runMillis: number;
  comparison: QuickComparison;
}

/** Joint shares of two columns, real and synthetic, for the heatmap panel. */
export interface PairHeatmap {
  rowColumn: string;
  columnColumn: string;
  rowLabels: string[];
  columnLabels: string[];
  /** real[i][j] = share of real rows in row cell i and column cell j. */
  real: number[][];
  synthetic: number[][];
  tvd: number;
}

/** One point of an ε sweep (one repeat at one ε). */
export interface SweepPointResult {
  epsilon: number;
  repeat: number;
  tvdOneWay: number;
  tvdTwoWay: number;
  /** Raw CART pMSE with fixed tree settings (SWEEP_PMSE_CART), not the permutation ratio. */
  pmse: number;
  runMillis: number;
}

/** Settings of the full utility evaluation the studio runs after each run. */
export interface EvaluationSettings {
  /** Label permutations of the pMSE null (synthpop's default is 50). */
  pmsePermutations: number;
  /** Column predicted in the ML efficacy test (only when rows were kept back). */
  mlTarget?: string;
}
