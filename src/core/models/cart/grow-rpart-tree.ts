import type { CartOptions } from './cart-types';
import type { CartWorkspace } from './cart-workspace';
import {
  makeSplitSearchResult,
  searchCategoricalGiniSplit,
  searchNumericGiniSplit,
  type SplitSearchResult,
} from './gini-split-search';

// Module-local literals (not imported bindings, which some module loaders turn into getters in hot loops).
/** Side marks written by a split for every row of the node being split. */
const GOES_RIGHT = 0;
const GOES_LEFT = 1;
/** Level marks of a categorical split (rpart's csplit: LEFT / RIGHT / level absent from the node). */
const LEVEL_ABSENT = 0;
const LEVEL_LEFT = 1;
const LEVEL_RIGHT = 2;

/** rpart bsplit.c: a split must improve by more than this fraction of the largest improvement seen. */
const RELATIVE_IMPROVEMENT_FLOOR = 1e-10;

/**
 * A split whose smaller child has at most 1/SPARSE_PARTITION_RATIO of the node's rows partitions the
 * other columns sparsely: the smaller child's rows are located in each sorted column by galloping
 * search and the larger child's rows are moved as whole runs (typed-array copies), instead of a loop
 * over every row. Trees on weak signals (permutation nulls) make many such lopsided splits: about
 * half of the partition work of a refit on 2 × 20,000 rows. There, 48 gave the lowest processor time
 * of 8, 16, 24, 48 and 96 (about 8 % less per refit than the loop alone).
 */
export const SPARSE_PARTITION_RATIO = 48;

/** Runs shorter than this are copied element by element (a typed-array copy has a fixed cost). */
const SHORT_RUN = 24;

/** rpart.control refuses maxdepth > 30 (node numbers are 32-bit). */
export const RPART_MAX_DEPTH = 30;

/**
 * Grows a classification tree on a loaded workspace exactly as rpart's `partition()` does
 * (rpart partition.c; Therneau & Atkinson, "An Introduction to Recursive Partitioning Using the
 * RPART Routines", §4 and §8):
 *
 * - node risk R(t) = misclassified count = min(n0, n1); alpha = cp · R(root);
 * - a node is a leaf if n_t < minSplit, depth >= maxDepth, min(R(t), C(t)) <= alpha where C(t) is the
 *   bound passed from the parent (root: R(root)), or no column has an admissible split;
 * - the best split over columns in column order: a column's improvement counts only if it exceeds
 *   1e-10 × the largest improvement seen so far in this fit (pre-order), and replaces the current
 *   best only if strictly larger (first column wins ties);
 * - left child grown first with bound C(t) − alpha, right child with bound
 *   min(C(t), max((R(t) − R_leaves(left))/(s_left + 1), R(t) − R(left))) − alpha;
 * - then C(t) = (R(t) − R_leaves)/(splits + 1) after rpart's "which child collapses first"
 *   correction, and the whole subtree is collapsed when C(t) <= alpha.
 *
 * Results are the workspace's node arrays (pre-order, node 0 = root). Returns the number of nodes.
 * Cost: O(n · q) per tree level plus the categorical level sorts.
 */
export class RpartTreeGrower {
  private options: CartOptions = { maxDepth: RPART_MAX_DEPTH, minSplit: 1, minBucket: 1, cp: 0 };
  // Double-valued fields start at -0 (a double, not a small integer) so V8 gives them a double
  // representation from the outset and updates them in place: no allocation per node.
  private alpha = -0;
  private improvementScale = -0;
  private subtreeLeafRisk = -0;
  private readonly search: SplitSearchResult = makeSplitSearchResult();
  private bestImprove = -0;
  private bestColumn = -1;
  private bestThreshold = -0;
  private bestLowerGoesLeft = false;

  /**
   * `sparsePartitionRatio`: see SPARSE_PARTITION_RATIO (Infinity: never sparse; 1: always). The
   * tree is the same whatever it is; only the speed differs.
   */
  constructor(
    readonly workspace: CartWorkspace,
    private readonly sparsePartitionRatio = SPARSE_PARTITION_RATIO,
  ) {}

  /** Grows the tree on the rows 0..n−1 with labels `workspace.labels`. */
  grow(options: CartOptions): number {
    validateCartOptions(options);
    this.options = options;
    const ws = this.workspace;
    const n = ws.n;
    let class1 = 0;
    for (let i = 0; i < n; i++) class1 += ws.labels[i]!;
    ws.nodeCount = 1;
    ws.levelSidesUsed = 0;
    ws.nodeStart[0] = 0;
    ws.nodeEnd[0] = n;
    ws.nodeClass1[0] = class1;
    ws.nodeDepth[0] = 0;
    const rootRisk = Math.min(class1, n - class1);
    ws.nodeRisk[0] = rootRisk;
    ws.nodeComplexity[0] = rootRisk;
    this.alpha = options.cp * rootRisk;
    this.improvementScale = 0;
    this.partition(0);
    return ws.nodeCount;
  }

  private makeLeaf(node: number): number {
    const ws = this.workspace;
    ws.nodeComplexity[node] = this.alpha;
    ws.nodeSplitColumn[node] = -1;
    this.subtreeLeafRisk = ws.nodeRisk[node]!;
    return 0;
  }

  /** rpart partition(): returns the number of splits kept below `node`; leaf risk in subtreeLeafRisk. */
  private partition(node: number): number {
    const ws = this.workspace;
    const alpha = this.alpha;
    const risk = ws.nodeRisk[node]!;
    let tempcp = risk;
    if (tempcp > ws.nodeComplexity[node]!) tempcp = ws.nodeComplexity[node]!;
    const size = ws.nodeEnd[node]! - ws.nodeStart[node]!;
    if (size < this.options.minSplit || tempcp <= alpha || ws.nodeDepth[node]! >= this.options.maxDepth) {
      return this.makeLeaf(node);
    }
    if (!this.findBestSplit(node)) return this.makeLeaf(node);

    const levelMark = ws.levelSidesUsed;
    this.recordSplit(node);
    const leftChild = ws.nodeCount;
    const rightChild = leftChild + 1;
    this.applySplit(node, leftChild, rightChild);

    ws.nodeComplexity[leftChild] = tempcp - alpha;
    let leftSplits = this.partition(leftChild);
    let leftRisk = this.subtreeLeafRisk;

    tempcp = (risk - leftRisk) / (leftSplits + 1);
    const tempcp2 = risk - ws.nodeRisk[leftChild]!;
    if (tempcp < tempcp2) tempcp = tempcp2;
    if (tempcp > ws.nodeComplexity[node]!) tempcp = ws.nodeComplexity[node]!;
    ws.nodeComplexity[rightChild] = tempcp - alpha;
    let rightSplits = this.partition(rightChild);
    let rightRisk = this.subtreeLeafRisk;

    // Which child collapses first: the node's own cp assuming it is the root of the whole tree.
    tempcp = (risk - (leftRisk + rightRisk)) / (leftSplits + rightSplits + 1);
    const leftCp = ws.nodeComplexity[leftChild]!;
    const rightCp = ws.nodeComplexity[rightChild]!;
    if (rightCp > leftCp) {
      if (tempcp > leftCp) {
        leftRisk = ws.nodeRisk[leftChild]!;
        leftSplits = 0;
        tempcp = (risk - (leftRisk + rightRisk)) / (leftSplits + rightSplits + 1);
        if (tempcp > rightCp) {
          rightRisk = ws.nodeRisk[rightChild]!;
          rightSplits = 0;
        }
      }
    } else if (tempcp > rightCp) {
      rightSplits = 0;
      rightRisk = ws.nodeRisk[rightChild]!;
      tempcp = (risk - (leftRisk + rightRisk)) / (leftSplits + rightSplits + 1);
      if (tempcp > leftCp) {
        leftRisk = ws.nodeRisk[leftChild]!;
        leftSplits = 0;
      }
    }
    const complexity = (risk - (leftRisk + rightRisk)) / (leftSplits + rightSplits + 1);
    ws.nodeComplexity[node] = complexity;
    if (complexity <= alpha) {
      // The whole subtree was allocated after this node's children: drop it.
      ws.nodeCount = leftChild;
      ws.levelSidesUsed = levelMark;
      ws.nodeSplitColumn[node] = -1;
      this.subtreeLeafRisk = risk;
      return 0;
    }
    this.subtreeLeafRisk = leftRisk + rightRisk;
    return leftSplits + rightSplits + 1;
  }

  /** rpart bsplit(): best admissible split of the node over all columns; false if none. */
  private findBestSplit(node: number): boolean {
    const ws = this.workspace;
    const start = ws.nodeStart[node]!;
    const end = ws.nodeEnd[node]!;
    const class1 = ws.nodeClass1[node]!;
    const minBucket = this.options.minBucket;
    const search = this.search;
    const parity = ws.nodeDepth[node]! & 1;
    const packedBuffers = ws.packedBuffers[parity]!;
    let found = false;
    this.bestImprove = 0;
    for (let column = 0; column < ws.columnCount; column++) {
      const slot = ws.columnSlot[column]!;
      let present = 0;
      if (ws.columnIsCategorical[column] === 0) {
        const packed = packedBuffers[slot]!;
        if (packed[start]! >> 1 === packed[end - 1]! >> 1) continue;
        searchNumericGiniSplit(packed, start, end, class1, minBucket, search);
      } else {
        present = searchCategoricalGiniSplit(
          ws.categoricalCodes[slot]!,
          ws.categoricalLevels[slot]!,
          ws.labels,
          ws.nodeRows(parity),
          start,
          end,
          class1,
          minBucket,
          ws,
          search,
        );
      }
      const improve = search.improve;
      if (improve > this.improvementScale) this.improvementScale = improve;
      if (
        improve > this.improvementScale * RELATIVE_IMPROVEMENT_FLOOR &&
        (!found || improve > this.bestImprove)
      ) {
        found = true;
        this.bestImprove = improve;
        this.bestColumn = column;
        this.bestLowerGoesLeft = search.lowerGoesLeft;
        if (ws.columnIsCategorical[column] === 0) {
          // rpart: (x[where] + x[where + 1]) / 2, the values on both sides of the cut.
          const packed = packedBuffers[slot]!;
          const rankValues = ws.rankValues[slot]!;
          this.bestThreshold =
            (rankValues[packed[search.position]! >> 1]! + rankValues[packed[search.position + 1]! >> 1]!) / 2;
        } else {
          this.storeBestLevelSides(slot, present, search.position, search.lowerGoesLeft);
        }
      }
    }
    return found;
  }

  /** rpart csplit for the best level prefix: prefix levels on one side, other present levels on the other. */
  private storeBestLevelSides(slot: number, present: number, prefix: number, prefixGoesLeft: boolean): void {
    const ws = this.workspace;
    const sides = ws.bestLevelSides;
    const nLevels = ws.categoricalLevels[slot]!;
    for (let k = 0; k < nLevels; k++) sides[k] = LEVEL_ABSENT;
    const prefixSide = prefixGoesLeft ? LEVEL_LEFT : LEVEL_RIGHT;
    const restSide = prefixGoesLeft ? LEVEL_RIGHT : LEVEL_LEFT;
    for (let s = 0; s < present; s++) sides[ws.levelOrder[s]!] = s < prefix ? prefixSide : restSide;
  }

  private recordSplit(node: number): void {
    const ws = this.workspace;
    const column = this.bestColumn;
    ws.nodeSplitColumn[node] = column;
    if (ws.columnIsCategorical[column] === 0) {
      ws.nodeThreshold[node] = this.bestThreshold;
      ws.nodeLessGoesLeft[node] = this.bestLowerGoesLeft ? 1 : 0;
      ws.nodeLevelOffset[node] = -1;
    } else {
      const nLevels = ws.categoricalLevels[ws.columnSlot[column]!]!;
      ws.reserveLevelSides(nLevels);
      const offset = ws.levelSidesUsed;
      for (let k = 0; k < nLevels; k++) ws.levelSidesPool[offset + k] = ws.bestLevelSides[k]!;
      ws.levelSidesUsed += nLevels;
      ws.nodeLevelOffset[node] = offset;
      ws.nodeThreshold[node] = NaN;
      ws.nodeLessGoesLeft[node] = 0;
    }
  }

  /**
   * rpart nodesplit(): every row of the node goes left or right by the split (numeric:
   * `x < threshold` takes the split's direction, exactly as rpart assigns rows; categorical: the
   * level's side); the children's segments are written, stably, into the other parity's copies.
   */
  private applySplit(node: number, leftChild: number, rightChild: number): void {
    const ws = this.workspace;
    const start = ws.nodeStart[node]!;
    const end = ws.nodeEnd[node]!;
    const column = ws.nodeSplitColumn[node]!;
    const slot = ws.columnSlot[column]!;
    const parity = ws.nodeDepth[node]! & 1;
    let leftSize: number;
    let leftClass1: number;
    let splitSlot = -1;
    if (ws.columnIsCategorical[column] === 0) {
      splitSlot = slot;
      leftClass1 = this.moveSplitSlot(node, slot, parity);
      leftSize = this.splitLeftSize;
    } else {
      const codes = ws.categoricalCodes[slot]!;
      const offset = ws.nodeLevelOffset[node]!;
      const pool = ws.levelSidesPool;
      const rows = ws.nodeRows(parity);
      const labels = ws.labels;
      const side = ws.side;
      leftSize = 0;
      leftClass1 = 0;
      for (let pos = start; pos < end; pos++) {
        const row = rows[pos]!;
        const goesLeft = pool[offset + codes[row]!] === LEVEL_LEFT ? GOES_LEFT : GOES_RIGHT;
        side[row] = goesLeft;
        leftSize += goesLeft;
        leftClass1 += goesLeft * labels[row]!;
      }
    }
    const rightStart = start + leftSize;
    const smallIsLeft = 2 * leftSize <= end - start;
    const smallSize = smallIsLeft ? leftSize : end - rightStart;
    const sparse =
      ws.numericCount > (splitSlot < 0 ? 0 : 1) && smallSize * this.sparsePartitionRatio <= end - start;
    if (sparse) this.gatherSmallRows(splitSlot, parity, start, end, smallIsLeft, smallSize);
    for (let s = 0; s < ws.numericCount; s++) {
      if (s === splitSlot) continue;
      if (sparse) this.partitionSlotSparse(s, parity, start, end, rightStart, smallIsLeft, smallSize);
      else this.partitionSlot(s, parity, start, end, rightStart);
    }
    if (ws.numericCount === 0) this.partitionRowOrder(start, end);

    ws.growNodes(rightChild + 1);
    const depth = ws.nodeDepth[node]! + 1;
    const class1 = ws.nodeClass1[node]!;
    const size = end - start;
    ws.nodeStart[leftChild] = start;
    ws.nodeEnd[leftChild] = start + leftSize;
    ws.nodeClass1[leftChild] = leftClass1;
    ws.nodeRisk[leftChild] = Math.min(leftClass1, leftSize - leftClass1);
    ws.nodeDepth[leftChild] = depth;
    ws.nodeStart[rightChild] = start + leftSize;
    ws.nodeEnd[rightChild] = end;
    const rightClass1 = class1 - leftClass1;
    const rightSize = size - leftSize;
    ws.nodeClass1[rightChild] = rightClass1;
    ws.nodeRisk[rightChild] = Math.min(rightClass1, rightSize - rightClass1);
    ws.nodeDepth[rightChild] = depth;
    ws.nodeLeft[node] = leftChild;
    ws.nodeRight[node] = rightChild;
    ws.nodeCount = rightChild + 1;
  }

  /** Left child size found by moveSplitSlot. */
  private splitLeftSize = 0;

  /**
   * The split column's own segment: rows with x < threshold form a prefix of it (sorted order), so
   * the left child is that prefix or the suffix. Copies both blocks into the other parity, left
   * block first, marking every row's side on the way. Returns the left child's class-1 count.
   */
  private moveSplitSlot(node: number, slot: number, parity: number): number {
    const ws = this.workspace;
    const start = ws.nodeStart[node]!;
    const end = ws.nodeEnd[node]!;
    const threshold = ws.nodeThreshold[node]!;
    const lessGoesLeft = ws.nodeLessGoesLeft[node] === 1;
    const packed = ws.packedBuffers[parity]![slot]!;
    const rows = ws.rowBuffers[parity]![slot]!;
    const toPacked = ws.packedBuffers[1 - parity]![slot]!;
    const toRows = ws.rowBuffers[1 - parity]![slot]!;
    const rankValues = ws.rankValues[slot]!;
    const side = ws.side;
    // First position with x >= threshold (binary search: the segment is sorted).
    let lo = start;
    let hi = end;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (rankValues[packed[mid]! >> 1]! < threshold) lo = mid + 1;
      else hi = mid;
    }
    const lowerEnd = lo;
    const lowerSize = lowerEnd - start;
    const upperSize = end - lowerEnd;
    const lowerMark = lessGoesLeft ? GOES_LEFT : GOES_RIGHT;
    const upperMark = lessGoesLeft ? GOES_RIGHT : GOES_LEFT;
    const lowerTarget = lessGoesLeft ? start : start + upperSize;
    const upperTarget = lessGoesLeft ? start + lowerSize : start;
    let lowerClass1 = 0;
    for (let k = 0; k < lowerSize; k++) {
      const row = rows[start + k]!;
      const key = packed[start + k]!;
      side[row] = lowerMark;
      lowerClass1 += key & 1;
      toPacked[lowerTarget + k] = key;
      toRows[lowerTarget + k] = row;
    }
    let upperClass1 = 0;
    for (let k = 0; k < upperSize; k++) {
      const row = rows[lowerEnd + k]!;
      const key = packed[lowerEnd + k]!;
      side[row] = upperMark;
      upperClass1 += key & 1;
      toPacked[upperTarget + k] = key;
      toRows[upperTarget + k] = row;
    }
    this.splitLeftSize = lessGoesLeft ? lowerSize : upperSize;
    return lessGoesLeft ? lowerClass1 : upperClass1;
  }

  /**
   * Stable partition of one numeric slot's segment into the other parity: left rows to
   * [start, rightStart), right rows to [rightStart, end), each in sorted order. Branch-free: each
   * row is stored twice, once at its cursor and once at the spare index n, so no data-dependent
   * branch is mispredicted.
   */
  private partitionSlot(slot: number, parity: number, start: number, end: number, rightStart: number): void {
    const ws = this.workspace;
    const packed = ws.packedBuffers[parity]![slot]!;
    const rows = ws.rowBuffers[parity]![slot]!;
    const toPacked = ws.packedBuffers[1 - parity]![slot]!;
    const toRows = ws.rowBuffers[1 - parity]![slot]!;
    const side = ws.side;
    const spare = ws.n;
    let left = start;
    let right = rightStart;
    for (let pos = start; pos < end; pos++) {
      const row = rows[pos]!;
      const key = packed[pos]!;
      const goesLeft = side[row]!;
      const leftTarget = goesLeft === GOES_LEFT ? left : spare;
      const rightTarget = goesLeft === GOES_LEFT ? spare : right;
      toPacked[leftTarget] = key;
      toRows[leftTarget] = row;
      toPacked[rightTarget] = key;
      toRows[rightTarget] = row;
      left += goesLeft;
      right += 1 - goesLeft;
    }
  }

  /**
   * The smaller child's rows into `smallRows[0..smallSize)`: from the split column's new segment
   * (numeric split, already moved) or from the node's rows by their side marks (categorical).
   */
  private gatherSmallRows(
    splitSlot: number,
    parity: number,
    start: number,
    end: number,
    smallIsLeft: boolean,
    smallSize: number,
  ): void {
    const ws = this.workspace;
    const small = ws.smallRows;
    if (splitSlot >= 0) {
      const from = smallIsLeft ? start : end - smallSize;
      small.set(ws.rowBuffers[1 - parity]![splitSlot]!.subarray(from, from + smallSize));
      return;
    }
    const rows = ws.nodeRows(parity);
    const side = ws.side;
    const mark = smallIsLeft ? GOES_LEFT : GOES_RIGHT;
    let k = 0;
    for (let pos = start; pos < end; pos++) {
      const row = rows[pos]!;
      if (side[row] === mark) small[k++] = row;
    }
  }

  /**
   * The same stable partition as partitionSlot, when the smaller child has few rows: each of them
   * is located in the segment by binary search on its sorted position (segments stay ordered by
   * it), the located positions are sorted, and the rows between them, which all go to the larger
   * child, are copied run by run.
   */
  private partitionSlotSparse(
    slot: number,
    parity: number,
    start: number,
    end: number,
    rightStart: number,
    smallIsLeft: boolean,
    smallSize: number,
  ): void {
    const ws = this.workspace;
    const packed = ws.packedBuffers[parity]![slot]!;
    const rows = ws.rowBuffers[parity]![slot]!;
    const toPacked = ws.packedBuffers[1 - parity]![slot]!;
    const toRows = ws.rowBuffers[1 - parity]![slot]!;
    const order = ws.sortedPosition[slot]!;
    const small = ws.smallRows;
    const positions = ws.smallPositions;
    // The smaller child's rows in this column's sorted order (ascending sorted positions), then
    // each one found by galloping forward from the one before: the searches stay in nearby memory.
    // Keys compare by rank (the packed key, read in order) and, among equal values, by position.
    const positionRank = ws.positionRank[slot]!;
    for (let i = 0; i < smallSize; i++) positions[i] = order[small[i]!]!;
    positions.subarray(0, smallSize).sort();
    let lo = start;
    for (let i = 0; i < smallSize; i++) {
      const target = positions[i]!;
      const rank = positionRank[target]!;
      // Gallop: find hi with key(hi) >= target, doubling the step from lo.
      let step = 1;
      let hi = lo;
      while (hi < end && this.keyBefore(packed, rows, order, hi, rank, target)) {
        lo = hi + 1;
        hi = lo + step;
        step *= 2;
      }
      if (hi > end) hi = end;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (this.keyBefore(packed, rows, order, mid, rank, target)) lo = mid + 1;
        else hi = mid;
      }
      positions[i] = lo;
      lo++;
    }
    let smallTarget = smallIsLeft ? start : rightStart;
    let bigTarget = smallIsLeft ? rightStart : start;
    let from = start;
    for (let i = 0; i <= smallSize; i++) {
      const to = i < smallSize ? positions[i]! : end;
      const run = to - from;
      if (run >= SHORT_RUN) {
        toPacked.set(packed.subarray(from, to), bigTarget);
        toRows.set(rows.subarray(from, to), bigTarget);
      } else {
        for (let k = 0; k < run; k++) {
          toPacked[bigTarget + k] = packed[from + k]!;
          toRows[bigTarget + k] = rows[from + k]!;
        }
      }
      bigTarget += run;
      if (i < smallSize) {
        toPacked[smallTarget] = packed[to]!;
        toRows[smallTarget] = rows[to]!;
        smallTarget++;
        from = to + 1;
      }
    }
  }

  /** Whether the element at `pos` sorts before the row with this rank and sorted position. */
  private keyBefore(
    packed: Int32Array,
    rows: Int32Array,
    order: Int32Array,
    pos: number,
    rank: number,
    target: number,
  ): boolean {
    const here = packed[pos]! >> 1;
    return here < rank || (here === rank && order[rows[pos]!]! < target);
  }

  private partitionRowOrder(start: number, end: number): void {
    const ws = this.workspace;
    const rows = ws.ownRowOrder;
    const side = ws.side;
    const tempRows = ws.tempRows;
    let write = start;
    let spill = 0;
    for (let pos = start; pos < end; pos++) {
      const row = rows[pos]!;
      if (side[row] === GOES_LEFT) rows[write++] = row;
      else tempRows[spill++] = row;
    }
    for (let k = 0; k < spill; k++) rows[write + k] = tempRows[k]!;
  }
}

/** Throws a RangeError naming the first setting outside rpart's accepted range. */
export function validateCartOptions(options: CartOptions): void {
  const { maxDepth, minSplit, minBucket, cp } = options;
  if (!Number.isInteger(maxDepth) || maxDepth < 1 || maxDepth > RPART_MAX_DEPTH) {
    throw new RangeError(`CART maxDepth must be an integer in [1, 30], got ${String(maxDepth)}`);
  }
  if (!Number.isInteger(minSplit) || minSplit < 1) {
    throw new RangeError(`CART minSplit must be a positive integer, got ${String(minSplit)}`);
  }
  if (!Number.isInteger(minBucket) || minBucket < 1) {
    throw new RangeError(`CART minBucket must be a positive integer, got ${String(minBucket)}`);
  }
  if (!Number.isFinite(cp)) throw new RangeError(`CART cp must be a finite number, got ${String(cp)}`);
}
