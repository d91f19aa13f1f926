import type { Rng } from '../rng/types';
import type { Table } from '../table/types';
import { stackForClassifier } from './ml/classifier-data';
import { scoreTestRows, type ClassifierKind } from './ml/classifiers';
import { accuracyAtHalf, rocAucMannWhitney } from './ml/roc-auc';
import { complementIndices, sampleIndicesWithoutReplacement } from './sample-indices';
import { selectRows } from './select-rows';

/** Rows drawn from each side at most (half train, half test). */
export const DISTINGUISHING_MAX_ROWS_PER_SIDE = 5_000;

export interface DistinguishingGameResult {
  model: ClassifierKind;
  /** Held-out accuracy of telling real from synthetic; 0.5 = indistinguishable (best), 1 = trivially told apart. */
  accuracy: number;
  /** ROC AUC of the same scores (0.5 = indistinguishable). */
  auc: number | null;
  rowsPerSide: number;
  trainRows: number;
  testRows: number;
}

/**
 * Distinguishing game (Bindschaedler, Shokri & Gunter 2017, "Plausible deniability for
 * privacy-preserving data synthesis", §6.4): equally many real and synthetic rows
 * (k = min(n_r, n_s, DISTINGUISHING_MAX_ROWS_PER_SIDE), drawn without replacement), labelled 0 / 1;
 * a classifier (default the bagged-CART forest, the paper's strongest distinguisher) is trained on a
 * random half of each side and its accuracy measured on the other half. With balanced classes a
 * guess is right half the time, so 0.5 is perfect synthetic data.
 * Throws when either table has fewer than two rows. Cost one classifier fit on k rows.
 */
export function distinguishingGame(
  real: Table,
  synth: Table,
  rng: Rng,
  opts?: { model?: ClassifierKind; maxRowsPerSide?: number },
): DistinguishingGameResult {
  const model = opts?.model ?? 'forest';
  const k = Math.min(real.nRows, synth.nRows, opts?.maxRowsPerSide ?? DISTINGUISHING_MAX_ROWS_PER_SIDE);
  if (k < 2) throw new RangeError('The distinguishing game needs at least two rows on each side.');
  const half = Math.floor(k / 2);
  const split = (table: Table, label: 0 | 1) => {
    const chosen = sampleIndicesWithoutReplacement(table.nRows, k, rng);
    const trainPositions = sampleIndicesWithoutReplacement(k, half, rng);
    const testPositions = complementIndices(k, trainPositions);
    const part = (positions: Uint32Array) => ({
      table: selectRows(
        table,
        Uint32Array.from(positions, (p) => chosen[p]!),
      ),
      labels: new Uint8Array(positions.length).fill(label),
    });
    return { train: part(trainPositions), test: part(testPositions) };
  };
  const realParts = split(real, 0);
  const synthParts = split(synth, 1);
  const predictors = real.columns.map((column) => column.name);
  const data = stackForClassifier(
    [realParts.train, synthParts.train],
    [realParts.test, synthParts.test],
    predictors,
  );
  const scores = scoreTestRows(model, data, rng);
  return {
    model,
    accuracy: accuracyAtHalf(scores, data.yTest),
    auc: rocAucMannWhitney(scores, data.yTest),
    rowsPerSide: k,
    trainRows: data.nTrain,
    testRows: data.nTest,
  };
}
