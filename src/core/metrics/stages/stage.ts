import type { Rng } from '../../rng/types';
import type { Table } from '../../table/types';
import type { MetricSections, UtilityEvaluationOptions } from '../utility-report';

/** The stages of an evaluation, in the order they run (./metric-stages.ts). */
export type MetricStageId =
  'marginals' | 'columns' | 'correlation' | 'pmse' | 'regression' | 'ml' | 'game' | 'disclosure';

/** What a stage is given: the tables, the options, the generator and its share of the progress. */
export interface MetricStageContext {
  real: Table;
  synths: Table[];
  options: UtilityEvaluationOptions;
  /** Draws of every stage come from this one generator, in stage order. */
  rng: Rng;
  /** Equal-width bins for numeric columns (options.bins, default DEFAULT_TVD_BINS). */
  bins: number;
  /** Checks the abort signal, then reports `within` ∈ [0, 1] of this stage with a message. */
  progress(within: number, message: string): void;
  /**
   * Maps the releases in order; before release j it checks the signal and reports j/M of this stage
   * as "<label>, release j + 1 of M".
   */
  perRelease<T>(run: (synth: Table, release: number) => T): T[];
}

/** One metric of an evaluation: it fills one section of the UtilityReport. */
export interface MetricStage<S extends keyof MetricSections = keyof MetricSections> {
  id: MetricStageId;
  /** Shown in the progress when the stage starts. */
  label: string;
  /** Rough relative cost, positive: the stage's share of the progress bar is weight / Σ weights. */
  weight: number;
  /** The report section the stage fills (null there when the stage is not enabled). */
  section: S;
  enabled(options: UtilityEvaluationOptions): boolean;
  /**
   * True when the stage runs after every other enabled stage. Only for a stage that then draws
   * nothing from the generator, so moving it changes no number.
   */
  runsLast?(options: UtilityEvaluationOptions): boolean;
  run(ctx: MetricStageContext): NonNullable<MetricSections[S]>;
}

/** Any stage, whichever section it fills. */
export type AnyMetricStage = { [S in keyof MetricSections]: MetricStage<S> }[keyof MetricSections];

/** Declares a stage with its section's type checked against what `run` returns. */
export function defineMetricStage<S extends keyof MetricSections>(stage: MetricStage<S>): MetricStage<S> {
  return stage;
}
