import type { CartInput } from './cart-types';
import { DoubleRadixSorter } from './double-radix-sorter';

const INITIAL_NODE_CAPACITY = 64;

/**
 * Every buffer a tree fit needs, kept between fits so that refitting (permutation nulls, an MCMC
 * loop) allocates nothing once the largest size has been seen.
 *
 * Layout: for each numeric column ("slot") the rows are kept sorted by value, as two parallel
 * arrays: a packed key (2 × dense rank of the value + label, so equal values have equal ranks) and
 * the row id; `rankValues[slot][r]` is the value of rank r. Packing halves the bytes every split
 * moves. There are two copies ("parities"): a node owns one contiguous segment [start, end) of
 * every slot, held in the copy of its depth's parity; splitting a node writes its left rows then
 * its right rows, each group in its sorted order, into the other copy for the children (rpart's
 * nodesplit/unmerge, without a copy back), so segments stay sorted and are never re-sorted. The
 * copies have one spare element at index n that the branch-free partition writes its discarded
 * stores to. Categorical columns read the node's rows from slot 0 (or, without numeric columns,
 * from `ownRowOrder`, partitioned in place).
 */
export class CartWorkspace {
  n = 0;
  columnCount = 0;
  /** Per model column: 1 if categorical. */
  columnIsCategorical: Uint8Array = new Uint8Array(0);
  /** Per model column: index into the numeric slots or into the categorical lists. */
  columnSlot: Int32Array = new Int32Array(0);
  numericCount = 0;
  categoricalCount = 0;

  /** packedBuffers[parity][slot] (2·rank + label) and rowBuffers[parity][slot]. */
  packedBuffers: [Int32Array[], Int32Array[]] = [[], []];
  rowBuffers: [Int32Array[], Int32Array[]] = [[], []];
  /** rankValues[slot][r]: the value with dense rank r in that column. */
  rankValues: Float64Array[] = [];
  /**
   * sortedPosition[slot][row]: the row's position in the slot's sorted order as encoded. Splits are
   * stable, so every node segment stays ordered by it: a row's place in a segment can be found by
   * binary search (the sparse partition in grow-rpart-tree.ts).
   */
  sortedPosition: Int32Array[] = [];
  /** positionRank[slot][p]: the dense rank of the value at sorted position p in that column. */
  positionRank: Int32Array[] = [];
  /** Scratch of the sparse partition: the smaller child's rows, then their positions in one slot. */
  smallRows: Int32Array = new Int32Array(0);
  smallPositions: Int32Array = new Int32Array(0);
  /** Copies of the parity-0 keys and rows as loaded, for relabel (permutation nulls). */
  pristinePacked: Int32Array[] = [];
  pristineRows: Int32Array[] = [];
  /** Where loaders put one column's values in sorted order before encodeSortedSlot. */
  sortedValuesScratch: Float64Array = new Float64Array(0);
  categoricalCodes: Uint32Array[] = [];
  categoricalLevels: number[] = [];
  maxLevels = 0;

  labels: Uint8Array = new Uint8Array(0);
  ownRowOrder: Int32Array = new Int32Array(0);
  side: Uint8Array = new Uint8Array(0);
  tempRows: Int32Array = new Int32Array(0);
  readonly sorter = new DoubleRadixSorter();
  private rowCapacity = 0;

  /** Scratch of the categorical split search, sized to the largest level count. */
  levelCount0: Float64Array = new Float64Array(0);
  levelCount1: Float64Array = new Float64Array(0);
  levelOrder: Int32Array = new Int32Array(0);
  levelRate: Float64Array = new Float64Array(0);
  levelMergeBuffer: Int32Array = new Int32Array(0);
  bestLevelSides: Uint8Array = new Uint8Array(0);

  /** Nodes in pre-order (see grow-rpart-tree.ts). */
  nodeCapacity = 0;
  nodeCount = 0;
  nodeStart: Int32Array = new Int32Array(0);
  nodeEnd: Int32Array = new Int32Array(0);
  nodeClass1: Int32Array = new Int32Array(0);
  nodeRisk: Float64Array = new Float64Array(0);
  nodeComplexity: Float64Array = new Float64Array(0);
  nodeDepth: Int32Array = new Int32Array(0);
  nodeSplitColumn: Int32Array = new Int32Array(0);
  nodeThreshold: Float64Array = new Float64Array(0);
  nodeLessGoesLeft: Uint8Array = new Uint8Array(0);
  nodeLevelOffset: Int32Array = new Int32Array(0);
  nodeLeft: Int32Array = new Int32Array(0);
  nodeRight: Int32Array = new Int32Array(0);
  levelSidesPool: Uint8Array = new Uint8Array(0);
  levelSidesUsed = 0;

  /**
   * Sizes the buffers for n rows and the given column kinds (true = categorical) and level counts.
   * Reuses every buffer that is already large enough.
   */
  prepare(n: number, categorical: readonly boolean[], levelCounts: readonly number[]): void {
    this.n = n;
    this.columnCount = categorical.length;
    if (this.columnIsCategorical.length < this.columnCount) {
      this.columnIsCategorical = new Uint8Array(this.columnCount);
      this.columnSlot = new Int32Array(this.columnCount);
    }
    let numeric = 0;
    let cats = 0;
    let maxLevels = 0;
    for (let c = 0; c < this.columnCount; c++) {
      const isCategorical = categorical[c] === true;
      this.columnIsCategorical[c] = isCategorical ? 1 : 0;
      if (isCategorical) {
        this.columnSlot[c] = cats++;
        maxLevels = Math.max(maxLevels, levelCounts[c] ?? 0);
      } else {
        this.columnSlot[c] = numeric++;
      }
    }
    this.numericCount = numeric;
    this.categoricalCount = cats;
    if (n > this.rowCapacity) {
      this.rowCapacity = n;
      this.packedBuffers = [[], []];
      this.rowBuffers = [[], []];
      this.rankValues = [];
      this.sortedPosition = [];
      this.positionRank = [];
      this.smallRows = new Int32Array(n);
      this.smallPositions = new Int32Array(n);
      this.pristinePacked = [];
      this.pristineRows = [];
      this.sortedValuesScratch = new Float64Array(n + 1);
      this.labels = new Uint8Array(n);
      this.ownRowOrder = new Int32Array(n);
      this.side = new Uint8Array(n);
      this.tempRows = new Int32Array(n);
    }
    while (this.rankValues.length < numeric) this.rankValues.push(new Float64Array(this.rowCapacity + 1));
    while (this.sortedPosition.length < numeric)
      this.sortedPosition.push(new Int32Array(this.rowCapacity + 1));
    while (this.positionRank.length < numeric) this.positionRank.push(new Int32Array(this.rowCapacity + 1));
    for (let parity = 0; parity < 2; parity++) {
      while (this.packedBuffers[parity]!.length < numeric) {
        this.packedBuffers[parity]!.push(new Int32Array(this.rowCapacity + 1));
        this.rowBuffers[parity]!.push(new Int32Array(this.rowCapacity + 1));
      }
    }
    this.categoricalCodes.length = cats;
    this.categoricalLevels.length = cats;
    if (maxLevels > this.maxLevels) {
      this.maxLevels = maxLevels;
      this.levelCount0 = new Float64Array(maxLevels);
      this.levelCount1 = new Float64Array(maxLevels);
      this.levelOrder = new Int32Array(maxLevels);
      this.levelRate = new Float64Array(maxLevels);
      this.levelMergeBuffer = new Int32Array(maxLevels);
      this.bestLevelSides = new Uint8Array(maxLevels);
    }
    if (this.nodeCapacity === 0) this.growNodes(INITIAL_NODE_CAPACITY);
  }

  /** Loads a CartInput: copies labels, sorts every numeric column once, references the codes. */
  load(input: CartInput): void {
    const categorical = input.columns.map((column) => column.kind === 'categorical');
    const levels = input.columns.map((column) => (column.kind === 'categorical' ? column.nLevels : 0));
    this.prepare(input.n, categorical, levels);
    const n = input.n;
    const labels = this.labels;
    for (let i = 0; i < n; i++) labels[i] = input.y[i]!;
    for (let i = 0; i < n; i++) this.ownRowOrder[i] = i;
    for (let c = 0; c < input.columns.length; c++) {
      const column = input.columns[c]!;
      const slot = this.columnSlot[c]!;
      if (column.kind === 'categorical') {
        this.categoricalCodes[slot] = column.codes;
        this.categoricalLevels[slot] = column.nLevels;
      } else {
        this.sorter.sort(column.values, n, this.rowBuffers[0][slot]!, this.sortedValuesScratch);
        this.encodeSortedSlot(slot);
        while (this.pristinePacked.length <= slot) {
          this.pristinePacked.push(new Int32Array(this.rowCapacity + 1));
          this.pristineRows.push(new Int32Array(this.rowCapacity + 1));
        }
        this.pristinePacked[slot]!.set(this.packedBuffers[0][slot]!.subarray(0, n));
        this.pristineRows[slot]!.set(this.rowBuffers[0][slot]!.subarray(0, n));
      }
    }
  }

  /**
   * Replaces the labels of the data last given to `load` (same rows and columns) without sorting
   * again: the sorted order is restored from the copies taken by `load` and each key's label bit
   * rewritten. O(n · numeric columns). Used by permutation nulls.
   */
  relabel(y: Uint8Array): void {
    const n = this.n;
    const labels = this.labels;
    for (let i = 0; i < n; i++) labels[i] = y[i]!;
    for (let i = 0; i < n; i++) this.ownRowOrder[i] = i;
    for (let slot = 0; slot < this.numericCount; slot++) {
      const pristinePacked = this.pristinePacked[slot]!;
      const pristineRows = this.pristineRows[slot]!;
      const packed = this.packedBuffers[0][slot]!;
      const rows = this.rowBuffers[0][slot]!;
      for (let i = 0; i < n; i++) {
        const row = pristineRows[i]!;
        rows[i] = row;
        packed[i] = (pristinePacked[i]! & ~1) | labels[row]!;
      }
    }
  }

  /**
   * Builds slot `slot`'s parity-0 packed keys, rank values and sorted positions from
   * `sortedValuesScratch[0..n)` (ascending) and `rowBuffers[0][slot][0..n)` (the rows in that
   * order), with `labels`. O(n).
   */
  encodeSortedSlot(slot: number): void {
    const n = this.n;
    const values = this.sortedValuesScratch;
    const rows = this.rowBuffers[0][slot]!;
    const packed = this.packedBuffers[0][slot]!;
    const rankValues = this.rankValues[slot]!;
    const sortedPosition = this.sortedPosition[slot]!;
    const positionRank = this.positionRank[slot]!;
    const labels = this.labels;
    let rank = -1;
    let previous = NaN;
    for (let i = 0; i < n; i++) {
      const value = values[i]!;
      if (value !== previous) {
        rank++;
        rankValues[rank] = value;
        previous = value;
      }
      packed[i] = 2 * rank + labels[rows[i]!]!;
      sortedPosition[rows[i]!] = i;
      positionRank[i] = rank;
    }
  }

  /** The rows of a node at depth parity `parity` (positions [start, end) of this array). */
  nodeRows(parity: number): Int32Array {
    return this.numericCount > 0 ? this.rowBuffers[parity & 1]![0]! : this.ownRowOrder;
  }

  /** Makes room for at least `needed` nodes, keeping the existing ones. */
  growNodes(needed: number): void {
    if (needed <= this.nodeCapacity) return;
    const capacity = Math.max(needed, this.nodeCapacity * 2, INITIAL_NODE_CAPACITY);
    const grow32 = (old: Int32Array): Int32Array => {
      const next = new Int32Array(capacity);
      next.set(old);
      return next;
    };
    const grow64 = (old: Float64Array): Float64Array => {
      const next = new Float64Array(capacity);
      next.set(old);
      return next;
    };
    this.nodeStart = grow32(this.nodeStart);
    this.nodeEnd = grow32(this.nodeEnd);
    this.nodeClass1 = grow32(this.nodeClass1);
    this.nodeRisk = grow64(this.nodeRisk);
    this.nodeComplexity = grow64(this.nodeComplexity);
    this.nodeDepth = grow32(this.nodeDepth);
    this.nodeSplitColumn = grow32(this.nodeSplitColumn);
    this.nodeThreshold = grow64(this.nodeThreshold);
    const lessGoesLeft = new Uint8Array(capacity);
    lessGoesLeft.set(this.nodeLessGoesLeft);
    this.nodeLessGoesLeft = lessGoesLeft;
    this.nodeLevelOffset = grow32(this.nodeLevelOffset);
    this.nodeLeft = grow32(this.nodeLeft);
    this.nodeRight = grow32(this.nodeRight);
    this.nodeCapacity = capacity;
  }

  /** Makes room for `extra` more level marks in the categorical split pool. */
  reserveLevelSides(extra: number): void {
    const needed = this.levelSidesUsed + extra;
    if (needed <= this.levelSidesPool.length) return;
    const next = new Uint8Array(Math.max(needed, this.levelSidesPool.length * 2, 256));
    next.set(this.levelSidesPool.subarray(0, this.levelSidesUsed));
    this.levelSidesPool = next;
  }
}
