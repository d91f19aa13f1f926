/**
 * Public types of the rpart-compatible classification tree (binary target, Gini splitting).
 *
 * The tree reproduces R's `rpart(y ~ ., method = "class")` with default priors and losses,
 * `xval = 0`, no surrogates: same splits, same cp pruning, same leaves (see grow-rpart-tree.ts).
 */

/**
 * Tree settings with rpart's meaning (`rpart.control`):
 * - `maxDepth`: nodes at depth `maxDepth` (root = 0) are not split; 1 <= maxDepth <= 30.
 * - `minSplit`: a node with fewer rows is not split.
 * - `minBucket`: every child of a split has at least this many rows (>= 1).
 * - `cp`: complexity parameter; alpha = cp × R(root), R = misclassified count. A split is kept only
 *   if it lowers the misclassification count by more than alpha per split (partition.c).
 *   cp < 0 grows the full tree (still without zero-improvement splits).
 */
export interface CartOptions {
  maxDepth: number;
  minSplit: number;
  minBucket: number;
  cp: number;
}

/** synthpop::utility.gen's tree: rpart.control(cp = 0.001, minbucket = 5) → minsplit = 15, maxdepth 30. */
export const SYNTHPOP_CART_DEFAULTS: Readonly<CartOptions> = Object.freeze({
  maxDepth: 30,
  minSplit: 15,
  minBucket: 5,
  cp: 0.001,
});

/** A numeric predictor: finite doubles (callers replace missing values before fitting). */
export interface CartNumericColumn {
  kind: 'numeric';
  values: Float64Array;
}

/**
 * A categorical predictor split natively by subsets of levels, as rpart does with factors.
 * `codes[i]` is in [0, nLevels); the level order is the factor's level order (it only breaks ties).
 */
export interface CartCategoricalColumn {
  kind: 'categorical';
  codes: Uint32Array;
  nLevels: number;
}

export type CartColumn = CartNumericColumn | CartCategoricalColumn;

/**
 * Training data. `columns` are in the model's column order: when two columns give the same
 * improvement the earlier one wins (rpart's strict `>` in insert_split). `y[i]` is 0 or 1.
 */
export interface CartInput {
  columns: CartColumn[];
  y: Uint8Array;
  n: number;
}

/** New rows to predict: one array per training column, same order and kinds. */
export type CartPredictColumns = (Float64Array | Uint32Array)[];

/**
 * A fitted tree in flat arrays (node 0 is the root, children after their parent in pre-order).
 * For an internal node: `splitColumn[t] >= 0`, `left[t]`/`right[t]` are child indices;
 * numeric split: a row goes left iff `(x < threshold[t]) === lessGoesLeft[t]` (rpart: `x < split`
 * takes direction `csplit[0]`); categorical split: `levelSides[levelOffset[t] + code]` is 1 (left),
 * 2 (right) or 0 (level absent from the node's training rows; such rows follow `missingGoesLeft[t]`).
 * Leaves have `splitColumn[t] = -1`.
 */
export interface CartTree {
  nodeCount: number;
  leafCount: number;
  /** Rows in the node and class-1 rows in the node. */
  nodeSize: Int32Array;
  nodeClass1: Int32Array;
  depth: Int32Array;
  splitColumn: Int32Array;
  threshold: Float64Array;
  lessGoesLeft: Uint8Array;
  levelOffset: Int32Array;
  levelSides: Uint8Array;
  missingGoesLeft: Uint8Array;
  left: Int32Array;
  right: Int32Array;
  /** rpart's complexity of each node (misclassification units, not scaled by the root risk). */
  complexity: Float64Array;
  /** Leaf (node index) of every training row. */
  leafOfRow: Int32Array;
  /** Column kinds, for prediction on new rows. */
  columnKinds: ('numeric' | 'categorical')[];
  /**
   * rpart's class scaling prior_j / max(1, c_j) = fl(c_j/n)/c_j from the root counts c_0, c_1; a node's
   * class-1 probability is n1·w1 / (n0·w0 + n1·w1) (rpart.R: yprob), which equals n1/n up to rounding.
   */
  classWeight0: number;
  classWeight1: number;
  /** Level count of each categorical column (0 for numeric columns). */
  columnLevelCounts: Int32Array;
}
