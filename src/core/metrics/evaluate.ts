import { throwIfAborted } from '../abort';
import type { Rng } from '../rng/types';
import type { Table } from '../table/types';
import { DEFAULT_TVD_BINS } from './marginal-cells';
import { METRIC_STAGES, planMetricStages } from './stages/metric-stages';
import type { MetricStageContext } from './stages/stage';
import {
  EVALUATION_NOTE,
  type MetricSections,
  type UtilityEvaluationOptions,
  type UtilityProgress,
  type UtilityReport,
} from './utility-report';

export { TVD_MAX_WORK } from './stages/marginals';
export { EVALUATION_NOTE };
export type {
  ColumnMeanComparison,
  TvdOrderReport,
  UtilityEvaluationOptions,
  UtilityProgress,
  UtilityReport,
} from './utility-report';

/**
 * Evaluates M synthetic releases against the real table they were made from and assembles one
 * JSON-serialisable UtilityReport (plain numbers, strings, arrays; no typed arrays; null where a
 * value is undefined), per release and as means over releases. Each metric is a stage
 * (./stages/metric-stages.ts: marginal TVDs, per-column comparisons, associations, pMSE, the
 * regression comparison, ML efficacy, the distinguishing game, the disclosure checks); the enabled
 * ones run in order and fill their sections, the others' sections are null. Nothing here is
 * differentially private: the report is for the data holder, not for release (EVALUATION_NOTE).
 *
 * `progress(fraction, stage)` is called as each stage starts and per release in the stages that
 * loop over releases, each stage spanning its weight's share of [0, 1]; the signal is checked at
 * the same points. Randomness (pMSE permutations, subsamples, forests) comes from `rng`, in stage
 * order. Throws when there is no release or the tables' columns differ.
 */
export function evaluateUtility(
  real: Table,
  synths: Table[],
  opts: UtilityEvaluationOptions,
  rng: Rng,
  progress?: UtilityProgress,
): UtilityReport {
  if (synths.length === 0) throw new Error('Evaluation needs at least one synthetic release.');
  const bins = opts.bins ?? DEFAULT_TVD_BINS;
  const timingsMs: Record<string, number> = {};
  const sections: Partial<Record<keyof MetricSections, unknown>> = {};
  for (const { stage, start, share } of planMetricStages(opts)) {
    const report = (within: number, message: string) => {
      throwIfAborted(opts.signal);
      progress?.(start + within * share, message);
    };
    const context: MetricStageContext = {
      real,
      synths,
      options: opts,
      rng,
      bins,
      progress: report,
      perRelease: (run) =>
        synths.map((synth, j) => {
          report(j / synths.length, `${stage.label}, release ${j + 1} of ${synths.length}`);
          return run(synth, j);
        }),
    };
    const began = Date.now();
    report(0, stage.label);
    sections[stage.section] = stage.run(context);
    timingsMs[stage.id] = Date.now() - began;
  }
  for (const stage of METRIC_STAGES) sections[stage.section] ??= null;
  progress?.(1, 'Done');
  return {
    note: EVALUATION_NOTE,
    releases: synths.length,
    rows: { real: real.nRows, releases: synths.map((s) => s.nRows) },
    columns: real.columns.map((c) => ({ name: c.name, kind: c.kind })),
    // Every section was filled above, by its stage or as null.
    ...(sections as MetricSections),
    timingsMs,
  };
}
