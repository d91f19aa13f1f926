import type { Rng } from '../rng/types';
import type { Table } from '../table/types';
import { decideBinaryTarget, describeBinaryTarget, labelRows } from './ml/binary-target';
import { stackForClassifier } from './ml/classifier-data';
import { scoreTestRows, type ClassifierKind } from './ml/classifiers';
import { accuracyAtHalf, agreementRate, rocAucMannWhitney } from './ml/roc-auc';
import { sampleIndicesWithoutReplacement } from './sample-indices';
import { selectRows } from './select-rows';
import { mean } from '../stats/mean';

export interface MlEfficacyOptions {
  /** Column to predict; made binary by `decideBinaryTarget` (see ml/binary-target.ts). */
  target: string;
  positiveLevel?: string;
  /** Default: every column but the target. */
  predictors?: string[];
  /** Default: all three. */
  models?: ClassifierKind[];
  /** Training rows per model at most (subsampled with the rng); default ML_MAX_TRAIN_ROWS. */
  maxTrainRows?: number;
  /** Holdout rows scored at most (subsampled once); default ML_MAX_TEST_ROWS. */
  maxTestRows?: number;
}

/** Default caps: keep one evaluation of three models within a few seconds on one core. */
export const ML_MAX_TRAIN_ROWS = 10_000;
export const ML_MAX_TEST_ROWS = 10_000;

export interface ClassifierScores {
  /** Share of holdout rows classified correctly (score ≥ ½ → positive). */
  accuracy: number;
  /** ROC AUC (Mann–Whitney, ties ½); null when the holdout has one class only. */
  auc: number | null;
}

export interface ReleaseClassifierScores extends ClassifierScores {
  /** Share of holdout rows on which this model and the real-trained one predict the same class. */
  agreementWithReal: number;
}

export interface ModelEfficacy {
  model: ClassifierKind;
  /** Trained on the real training rows (what the mechanism saw): the reference. */
  real: ClassifierScores;
  releases: ReleaseClassifierScores[];
  /** Means over releases (AUC over the releases where defined). */
  mean: { accuracy: number; auc: number | null; agreementWithReal: number };
}

export interface MlEfficacyReport {
  task: {
    /** e.g. "income > 52000" or "sex = M". */
    positiveClass: string;
    predictors: string[];
    holdoutRowsScored: number;
    holdoutPositiveShare: number;
    maxTrainRows: number;
    maxTestRows: number;
  };
  models: ModelEfficacy[];
}

function capRows(table: Table, cap: number, rng: Rng): Table {
  return table.nRows <= cap
    ? table
    : selectRows(table, sampleIndicesWithoutReplacement(table.nRows, cap, rng));
}

/**
 * Machine-learning efficacy ("train on synthetic, test on real"; Bindschaedler, Shokri & Gunter 2017,
 * "Plausible deniability for privacy-preserving data synthesis", §6.3): each classifier (CART, a
 * bagged-CART random forest, L2-penalised logistic regression; ml/classifiers.ts) is trained on each
 * synthetic release and, as the reference, on the real training rows the mechanism saw; all are
 * scored on real holdout rows the mechanism never saw — accuracy, ROC AUC, and the agreement rate
 * between the synthetic-trained and the real-trained model's predicted classes.
 * The target is made binary from the real training rows only (ml/binary-target.ts). Rows with a
 * missing target are left out. Training sets above `maxTrainRows` and the holdout above
 * `maxTestRows` are subsampled without replacement with `rng`.
 * Throws when the holdout has no labelled row. Cost O((M + 1) · models · train cost).
 */
export function mlEfficacy(
  realTrain: Table,
  holdout: Table,
  synths: Table[],
  opts: MlEfficacyOptions,
  rng: Rng,
): MlEfficacyReport {
  const maxTrainRows = opts.maxTrainRows ?? ML_MAX_TRAIN_ROWS;
  const maxTestRows = opts.maxTestRows ?? ML_MAX_TEST_ROWS;
  const predictors =
    opts.predictors ?? realTrain.columns.map((c) => c.name).filter((name) => name !== opts.target);
  if (predictors.includes(opts.target))
    throw new Error(`The target "${opts.target}" cannot also be a predictor.`);
  const models = opts.models ?? (['cart', 'forest', 'logistic'] as ClassifierKind[]);
  const rule = decideBinaryTarget(realTrain, opts.target, opts.positiveLevel);
  const test = capRows(holdout, maxTestRows, rng);
  const testPart = { table: test, labels: labelRows(test, rule) };
  const trainingSets = [realTrain, ...synths].map((table) => {
    const capped = capRows(table, maxTrainRows, rng);
    return { table: capped, labels: labelRows(capped, rule) };
  });
  const prepared = trainingSets.map((part) => stackForClassifier([part], [testPart], predictors));
  const yTest = prepared[0]!.yTest;
  if (yTest.length === 0) throw new Error('The holdout has no row with a target value.');
  const positives = yTest.reduce((s, v) => s + v, 0);

  const results = models.map((model): ModelEfficacy => {
    const scores = prepared.map((data) => scoreTestRows(model, data, rng));
    const realScores = scores[0]!;
    const real = { accuracy: accuracyAtHalf(realScores, yTest), auc: rocAucMannWhitney(realScores, yTest) };
    const releases = scores.slice(1).map((score) => ({
      accuracy: accuracyAtHalf(score, yTest),
      auc: rocAucMannWhitney(score, yTest),
      agreementWithReal: agreementRate(score, realScores),
    }));
    const aucs = releases.map((r) => r.auc).filter((v): v is number => v !== null);
    return {
      model,
      real,
      releases,
      mean: {
        accuracy: releases.length ? mean(releases.map((r) => r.accuracy)) : NaN,
        auc: aucs.length ? mean(aucs) : null,
        agreementWithReal: releases.length ? mean(releases.map((r) => r.agreementWithReal)) : NaN,
      },
    };
  });
  return {
    task: {
      positiveClass: describeBinaryTarget(rule),
      predictors,
      holdoutRowsScored: yTest.length,
      holdoutPositiveShare: positives / yTest.length,
      maxTrainRows,
      maxTestRows,
    },
    models: results,
  };
}
