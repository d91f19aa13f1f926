import { buildDesignMatrix, type PooledPredictors } from '../../models/design-matrix';
import { CartWorkspace, fitCart, predictCart, type CartColumn, type CartOptions } from '../../models/cart';
import { fitLogisticRegression } from '../../models/logistic';
import type { Rng } from '../../rng/types';
import { uniformInt } from '../../rng/uniform-int';
import type { TrainTestData } from './classifier-data';

export type ClassifierKind = 'cart' | 'forest' | 'logistic';

/** rpart's own defaults for a classification tree (rpart.control: cp 0.01, minsplit 20, minbucket 7). */
export const CLASSIFICATION_TREE_OPTIONS: Readonly<CartOptions> = Object.freeze({
  cp: 0.01,
  minSplit: 20,
  minBucket: 7,
  maxDepth: 30,
});

/** Trees of the forest: grown without cost-complexity pruning down to leaves of 5 rows. */
export const FOREST_TREE_OPTIONS: Readonly<CartOptions> = Object.freeze({
  cp: -1,
  minSplit: 10,
  minBucket: 5,
  maxDepth: 30,
});

/** Trees per forest. */
export const FOREST_TREES = 50;

/** L2 penalty of the logistic classifier: scikit-learn's LogisticRegression default (C = 1 ⇔ λ = 1). */
export const LOGISTIC_CLASSIFIER_RIDGE = 1;

function cartColumns(pooled: PooledPredictors): CartColumn[] {
  return pooled.variables.map((variable) =>
    variable.kind === 'numeric'
      ? { kind: 'numeric' as const, values: variable.values }
      : { kind: 'categorical' as const, codes: variable.codes, nLevels: variable.levels.length },
  );
}

function testColumns(columns: CartColumn[], from: number) {
  return columns.map((column) =>
    column.kind === 'numeric' ? column.values.subarray(from) : column.codes.subarray(from),
  );
}

function baseRate(y: Uint8Array): number {
  let ones = 0;
  for (const v of y) ones += v;
  return y.length === 0 ? 0.5 : ones / y.length;
}

/**
 * Classification tree (rpart semantics, src/core/models/cart) with rpart's default controls; the
 * score of a test row is the class-1 share of its leaf. Cost O(n log n · depth).
 */
export function scoreWithTree(data: TrainTestData): Float64Array {
  const columns = cartColumns(data.pooled);
  if (columns.length === 0 || data.nTrain < 2)
    return new Float64Array(data.nTest).fill(baseRate(data.yTrain));
  const tree = fitCart({ columns, y: data.yTrain, n: data.nTrain }, CLASSIFICATION_TREE_OPTIONS);
  return predictCart(tree, testColumns(columns, data.nTrain), data.nTest);
}

/**
 * Random forest by bagging the rpart-semantics tree (Breiman 1996, "Bagging predictors"; Breiman
 * 2001, "Random forests", §4): each of FOREST_TREES trees is grown on a bootstrap sample of the
 * training rows (n draws with replacement) using a random subset of ⌈√q⌉ of the q predictors
 * chosen once per tree (Ho 1998's random subspaces — the tree cannot redraw features per split),
 * unpruned down to leaves of 5 rows; the score is the mean leaf class-1 share over trees (soft vote).
 * `featuresPerTree` overrides ⌈√q⌉ (benchmarks use all q).
 * Cost O(B · n log n · depth).
 */
export function scoreWithForest(
  data: TrainTestData,
  rng: Rng,
  trees: number = FOREST_TREES,
  featuresPerTree?: number,
): Float64Array {
  const columns = cartColumns(data.pooled);
  const scores = new Float64Array(data.nTest);
  if (columns.length === 0 || data.nTrain < 2) return scores.fill(baseRate(data.yTrain));
  const q = columns.length;
  const perTree = Math.min(q, featuresPerTree ?? Math.max(1, Math.ceil(Math.sqrt(q))));
  const n = data.nTrain;
  const workspace = new CartWorkspace();
  const sampleY = new Uint8Array(n);
  const sampleRows = new Uint32Array(n);
  const treeScores = new Float64Array(data.nTest);
  for (let b = 0; b < trees; b++) {
    const chosen = pickFeatures(q, perTree, rng);
    for (let i = 0; i < n; i++) {
      sampleRows[i] = uniformInt(rng, n);
      sampleY[i] = data.yTrain[sampleRows[i]!]!;
    }
    const sampleColumns: CartColumn[] = chosen.map((c) => {
      const column = columns[c]!;
      if (column.kind === 'numeric')
        return { kind: 'numeric', values: Float64Array.from(sampleRows, (i) => column.values[i]!) };
      return {
        kind: 'categorical',
        codes: Uint32Array.from(sampleRows, (i) => column.codes[i]!),
        nLevels: column.nLevels,
      };
    });
    const tree = fitCart({ columns: sampleColumns, y: sampleY, n }, FOREST_TREE_OPTIONS, workspace);
    const test = testColumns(
      chosen.map((c) => columns[c]!),
      n,
    );
    predictCart(tree, test, data.nTest, treeScores);
    for (let i = 0; i < data.nTest; i++) scores[i]! += treeScores[i]!;
  }
  for (let i = 0; i < data.nTest; i++) scores[i]! /= trees;
  return scores;
}

function pickFeatures(q: number, k: number, rng: Rng): number[] {
  const order = Array.from({ length: q }, (_, i) => i);
  for (let i = 0; i < k; i++) {
    const j = i + uniformInt(rng, q - i);
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  return order.slice(0, k).sort((a, b) => a - b);
}

/**
 * Logistic regression classifier: main effects (numeric values, treatment-coded categories, missing
 * indicators) fitted by penalised IRLS (src/core/models/logistic) with L2 penalty
 * LOGISTIC_CLASSIFIER_RIDGE on all but the intercept, which keeps estimates finite under the
 * separation that dummy-rich designs often show; score = logistic(x β̂), aliased columns skipped.
 * Cost O(n p²) per iteration.
 */
export function scoreWithLogistic(data: TrainTestData): Float64Array {
  const { pooled, nTrain, nTest } = data;
  const train = buildDesignMatrix(pooled, { rows: [0, nTrain] });
  const test = buildDesignMatrix(pooled, { rows: [nTrain, nTrain + nTest] });
  if (nTrain < 2) return new Float64Array(nTest).fill(baseRate(data.yTrain));
  const fit = fitLogisticRegression(train.X, nTrain, train.nColumns, data.yTrain, {
    ridge: LOGISTIC_CLASSIFIER_RIDGE,
  });
  const p = test.nColumns;
  const scores = new Float64Array(nTest);
  for (let i = 0; i < nTest; i++) {
    let eta = 0;
    for (let j = 0; j < p; j++) {
      const beta = fit.coefficients[j]!;
      if (!Number.isNaN(beta)) eta += test.X[i * p + j]! * beta;
    }
    scores[i] = 1 / (1 + Math.exp(-eta));
  }
  return scores;
}

/** Scores of the test rows under one classifier kind. */
export function scoreTestRows(kind: ClassifierKind, data: TrainTestData, rng: Rng): Float64Array {
  if (kind === 'cart') return scoreWithTree(data);
  if (kind === 'forest') return scoreWithForest(data, rng);
  return scoreWithLogistic(data);
}
