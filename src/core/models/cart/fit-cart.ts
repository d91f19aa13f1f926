import type { CartInput, CartOptions, CartPredictColumns, CartTree } from './cart-types';
import { CartWorkspace } from './cart-workspace';
import { RpartTreeGrower } from './grow-rpart-tree';

/**
 * Fits a Gini classification tree that reproduces R's
 * `rpart(y ~ ., method = "class", control = rpart.control(cp, minbucket, minsplit, maxdepth,
 * xval = 0, maxcompete = 0, maxsurrogate = 0))` tree for tree (see grow-rpart-tree.ts for the
 * rules). Pass the same `workspace` to successive fits to reuse its buffers.
 *
 * Throws a RangeError for invalid options, a label other than 0/1, or a code outside its levels.
 * Cost: O(n log n) sort per numeric column (radix, O(n)) plus O(n · q) per tree level.
 * Example: two rows per class separated at x = 1.5 with minBucket 1, minSplit 2, cp 0 give two
 * leaves with class-1 proportions 0 and 1.
 */
export function fitCart(input: CartInput, options: CartOptions, workspace?: CartWorkspace): CartTree {
  validateCartInput(input);
  const ws = workspace ?? new CartWorkspace();
  ws.load(input);
  new RpartTreeGrower(ws).grow(options);
  return exportTree(ws, input);
}

function validateCartInput(input: CartInput): void {
  const { n, y, columns } = input;
  if (!Number.isInteger(n) || n < 1)
    throw new RangeError(`CART needs at least one row, got n = ${String(n)}`);
  if (y.length < n) throw new RangeError('CART labels are shorter than n');
  for (let i = 0; i < n; i++) {
    if (y[i]! > 1) throw new RangeError(`CART labels must be 0 or 1; row ${i} has ${y[i]!}`);
  }
  columns.forEach((column, c) => {
    if (column.kind === 'numeric') {
      if (column.values.length < n) throw new RangeError(`CART column ${c} is shorter than n`);
      for (let i = 0; i < n; i++) {
        if (!Number.isFinite(column.values[i]!)) {
          throw new RangeError(
            `CART column ${c} row ${i} is not a finite number (replace missing values first)`,
          );
        }
      }
    } else {
      if (column.codes.length < n) throw new RangeError(`CART column ${c} is shorter than n`);
      for (let i = 0; i < n; i++) {
        if (column.codes[i]! >= column.nLevels) {
          throw new RangeError(`CART column ${c} row ${i} has code ${column.codes[i]!} >= nLevels`);
        }
      }
    }
  });
}

/** Copies the workspace's pre-order nodes into an independent CartTree (one allocation per array). */
function exportTree(ws: CartWorkspace, input: CartInput): CartTree {
  const count = ws.nodeCount;
  const nodeSize = new Int32Array(count);
  const splitColumn = ws.nodeSplitColumn.slice(0, count);
  const levelOffset = ws.nodeLevelOffset.slice(0, count);
  const left = ws.nodeLeft.slice(0, count);
  const right = ws.nodeRight.slice(0, count);
  const missingGoesLeft = new Uint8Array(count);
  const leafOfRow = new Int32Array(ws.n);
  let leafCount = 0;
  for (let t = 0; t < count; t++) {
    const start = ws.nodeStart[t]!;
    const end = ws.nodeEnd[t]!;
    nodeSize[t] = end - start;
    if (splitColumn[t]! < 0) {
      leafCount++;
      left[t] = -1;
      right[t] = -1;
      levelOffset[t] = -1;
    }
  }
  for (let t = 0; t < count; t++) {
    if (splitColumn[t]! >= 0) missingGoesLeft[t] = nodeSize[left[t]!]! >= nodeSize[right[t]!]! ? 1 : 0;
  }
  const [classWeight0, classWeight1] = rpartClassWeights(ws.nodeClass1[0]!, ws.n);
  const tree: CartTree = {
    nodeCount: count,
    leafCount,
    nodeSize,
    nodeClass1: ws.nodeClass1.slice(0, count),
    depth: ws.nodeDepth.slice(0, count),
    splitColumn,
    threshold: ws.nodeThreshold.slice(0, count),
    lessGoesLeft: ws.nodeLessGoesLeft.slice(0, count),
    levelOffset,
    levelSides: ws.levelSidesPool.slice(0, ws.levelSidesUsed),
    missingGoesLeft,
    left,
    right,
    complexity: ws.nodeComplexity.slice(0, count),
    leafOfRow,
    columnKinds: input.columns.map((column) => column.kind),
    classWeight0,
    classWeight1,
    columnLevelCounts: Int32Array.from(input.columns, (column) =>
      column.kind === 'categorical' ? column.nLevels : 0,
    ),
  };
  // Training rows follow the splits by the very rule rpart's nodesplit used to send them down.
  const columns = input.columns.map((column) => (column.kind === 'numeric' ? column.values : column.codes));
  for (let i = 0; i < ws.n; i++) leafOfRow[i] = leafOf(tree, columns, i);
  return tree;
}

/** The leaf reached by row i of `columns` (see predictCart for the rules). O(depth). */
function leafOf(tree: CartTree, columns: CartPredictColumns, i: number): number {
  let node = 0;
  while (tree.splitColumn[node]! >= 0) {
    const column = tree.splitColumn[node]!;
    let goesLeft: boolean;
    if (tree.columnKinds[column] === 'numeric') {
      goesLeft = columns[column]![i]! < tree.threshold[node]! === (tree.lessGoesLeft[node] === 1);
    } else {
      const code = columns[column]![i]!;
      // Level marks: 0 absent from the node, 1 left, 2 right (grow-rpart-tree.ts).
      const mark =
        code < tree.columnLevelCounts[column]! ? tree.levelSides[tree.levelOffset[node]! + code]! : 0;
      goesLeft = mark === 0 ? tree.missingGoesLeft[node] === 1 : mark === 1;
    }
    node = goesLeft ? tree.left[node]! : tree.right[node]!;
  }
  return node;
}

/**
 * Class-1 probability of a node as rpart reports it (rpart.R, `yprob`): with root class counts c_j
 * and w_j = fl(c_j/n)/max(1, c_j), p = n1·w1 / (n0·w0 + n1·w1) — the proportion n1/n, computed
 * in rpart's floating-point steps so the last bit agrees too. NaN for an empty node.
 */
export function nodeClass1Proportion(tree: CartTree, node: number): number {
  return rpartClassProbability(
    tree.nodeClass1[node]!,
    tree.nodeSize[node]!,
    tree.classWeight0,
    tree.classWeight1,
  );
}

/** rpart's yprob for class 1 from a node's counts and the class weights (see nodeClass1Proportion). */
export function rpartClassProbability(
  class1: number,
  size: number,
  weight0: number,
  weight1: number,
): number {
  const scaled1 = class1 * weight1;
  return scaled1 / ((size - class1) * weight0 + scaled1);
}

/** rpart's class weights w_j = fl(c_j/n)/max(1, c_j) from the root counts. */
export function rpartClassWeights(rootClass1: number, n: number): [number, number] {
  const rootClass0 = n - rootClass1;
  return [rootClass0 / n / Math.max(1, rootClass0), rootClass1 / n / Math.max(1, rootClass1)];
}

/** In-sample propensities: for each training row, the class-1 proportion of its leaf. O(n). */
export function predictInSample(tree: CartTree, out?: Float64Array): Float64Array {
  const n = tree.leafOfRow.length;
  const result = out ?? new Float64Array(n);
  for (let i = 0; i < n; i++) result[i] = nodeClass1Proportion(tree, tree.leafOfRow[i]!);
  return result;
}

/**
 * Predicted class-1 proportion for new rows, columns in training order (numeric Float64Array,
 * categorical Uint32Array of the training codes). Numeric rows go by the stored `x < threshold`
 * rule; a level absent from a node's training rows (or a code >= nLevels) follows the larger child,
 * as rpart's default `usesurrogate = 2` sends rows it cannot place with the majority.
 * O(rows · depth).
 */
export function predictCart(
  tree: CartTree,
  columns: CartPredictColumns,
  nRows: number,
  out?: Float64Array,
): Float64Array {
  if (columns.length !== tree.columnKinds.length) {
    throw new RangeError(`predictCart expects ${tree.columnKinds.length} columns, got ${columns.length}`);
  }
  const result = out ?? new Float64Array(nRows);
  for (let i = 0; i < nRows; i++) result[i] = nodeClass1Proportion(tree, leafOf(tree, columns, i));
  return result;
}
