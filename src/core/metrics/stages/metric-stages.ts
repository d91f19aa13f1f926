import type { UtilityEvaluationOptions } from '../utility-report';
import { correlationStage } from './correlation';
import { disclosureStage } from './disclosure';
import { distinguishingGameStage } from './distinguishing-game';
import { marginalsStage } from './marginals';
import { mlEfficacyStage } from './ml-efficacy';
import { perColumnStage } from './per-column';
import { pmseStage } from './pmse';
import { regressionStage } from './regression';
import type { AnyMetricStage, MetricStageId } from './stage';

/**
 * Every metric of an evaluation, in the order the stages run (a stage with runsLast moves to the end).
 * The order is part of the numbers: the stages that draw (pMSE permutations and subsamples, ML
 * efficacy's forests, the distinguishing game, the disclosure checks' samples) take their draws
 * from one generator in this order. Adding a metric is adding its stage here (and its section to
 * MetricSections in ../utility-report.ts).
 */
export const METRIC_STAGES: readonly AnyMetricStage[] = [
  marginalsStage,
  perColumnStage,
  correlationStage,
  pmseStage,
  regressionStage,
  mlEfficacyStage,
  distinguishingGameStage,
  disclosureStage,
];

/** A stage as planned for one evaluation: where its share of the progress starts, and its size. */
export interface PlannedMetricStage {
  stage: AnyMetricStage;
  /** Fraction of the progress at which the stage starts, Σ earlier weights / Σ weights. */
  start: number;
  /** Its share of the progress, weight / Σ weights. */
  share: number;
}

/** The enabled stages for `options` in run order, each with its share of the progress. */
export function planMetricStages(
  options: UtilityEvaluationOptions,
  stages: readonly AnyMetricStage[] = METRIC_STAGES,
): PlannedMetricStage[] {
  const enabled = stages.filter((stage) => stage.enabled(options));
  const ordered = [
    ...enabled.filter((stage) => stage.runsLast?.(options) !== true),
    ...enabled.filter((stage) => stage.runsLast?.(options) === true),
  ];
  const total = ordered.reduce((sum, stage) => sum + stage.weight, 0);
  let cumulative = 0;
  return ordered.map((stage) => {
    const start = cumulative / total;
    cumulative += stage.weight;
    return { stage, start, share: stage.weight / total };
  });
}

export type { MetricStageId };
