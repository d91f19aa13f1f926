/**
 * The pMSE of the best classification tree of depth ≤ 2 whose splits lie on a grid made from the
 * synthetic data alone: an exhaustive search (every root split, then the best split of each child on
 * any column), written by hand because it runs once per MCMC iteration and must be exact.
 *
 * pMSE of a partition into leaves L with a_L real and s_L synthetic rows, N = n_real + n_synth,
 * c = n_synth/N (Snoke & Slavković 2018, eq. 1, with the leaf share as propensity):
 *   pMSE = (1/N) Σ_L t_L (s_L/t_L − c)² = (1/N) Σ_L (s_L − c·t_L)²/t_L,  t_L = a_L + s_L.
 * u = the maximum of that over every tree of depth ≤ 2 (no split and one split included) whose
 * thresholds are grid edges. For two classes this is also the tree of least Gini impurity, since
 * Σ_L t_L p_L(1 − p_L) = N·c(1 − c) − N·pMSE.
 *
 * The grid of a column: the synthetic values at ranks round(g·(n_synth − 1)/G), g = 0 … G, without
 * repeats (e_1 < … < e_K, from min to max). A value x falls in bin 2·#{e < x} + [x is an edge], so
 * each edge has a bin of its own and values below the smallest or above the largest synthetic value
 * have theirs: 2K + 1 bins, and a split goes between two adjacent bins. The grid depends on θ and the
 * noise only, never on the real rows, so u is a maximum over a family of partitions fixed before the
 * real data are read; its sensitivity is proven in the README ("Quality functions").
 */
import { makeBucketOrder, type BucketOrder } from './bucket-order';

export interface GridTreeQualitySettings {
  /** 1: stumps only; 2: depth-2 trees. */
  depth: 1 | 2;
  /** G: the grid has at most G + 1 edges per column; G = n_synth − 1 makes every synthetic value an edge. */
  gridSize: number;
}

/**
 * The exhaustive stump: depth 1 with every synthetic value a grid edge (G = n_synth − 1, so the ranks
 * g·(n_synth − 1)/G are exactly g). It is the best split over every real threshold: for a threshold
 * between two adjacent synthetic values the synthetic counts are fixed and the pMSE is convex in the
 * real count on the left, so its largest value is at "x < next edge" or "x ≤ edge" (README, "Quality
 * functions"). It compares values only, never a computed midpoint.
 */
export function exhaustiveStumpSettings(nSynth: number): GridTreeQualitySettings {
  return { depth: 1, gridSize: Math.max(1, nSynth - 1) };
}

/** The grid evaluator: same contract as the CART evaluator of the quality function. */
export interface GridTreeQuality {
  evaluate(synthColumns: readonly Float64Array[]): number;
}

/**
 * Number of edges ≤ G + 1 written to `edges`: the values of ranks round(g·(n − 1)/G) in ascending
 * order, read from `order` (which sorts only the buckets holding those ranks).
 */
function writeGridEdges(order: BucketOrder, n: number, gridSize: number, edges: Float64Array): number {
  const last = n - 1;
  let count = 0;
  for (let g = 0; g <= gridSize; g++) {
    const value = order.valueAt(Math.round((g * last) / gridSize));
    if (count === 0 || value !== edges[count - 1]) edges[count++] = value;
  }
  return count;
}

/** Bin of x among `count` sorted edges: 2·#{e < x} + (1 when x equals an edge). */
function binOf(x: number, edges: Float64Array, count: number): number {
  let lo = 0;
  let hi = count;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (edges[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return 2 * lo + (lo < count && edges[lo] === x ? 1 : 0);
}

/**
 * Writes binOf of every value of the column last dealt into `order` to `bins`. Bins are non-decreasing
 * in x, so when the smallest and the largest value of a bucket share a bin, every value in it has that
 * bin; only the rows of the other buckets (those holding an edge or straddling one) get a binary
 * search. Written by hand: a binary search per row was the largest cost of an evaluation.
 */
function writeBins(
  values: Float64Array,
  order: BucketOrder,
  edges: Float64Array,
  count: number,
  bucketBin: Int32Array,
  bins: Int32Array,
): void {
  const { start, bucketed, rowBucket } = order;
  for (let b = 0; b < order.bucketCount; b++) {
    const from = start[b]!;
    const to = start[b + 1]!;
    if (from === to) continue; // no row points to an empty bucket
    let low = bucketed[from]!;
    let high = low;
    for (let i = from + 1; i < to; i++) {
      const x = bucketed[i]!;
      if (x < low) low = x;
      else if (x > high) high = x;
    }
    const bin = binOf(low, edges, count);
    bucketBin[b] = bin === binOf(high, edges, count) ? bin : -1;
  }
  for (let i = 0; i < values.length; i++) {
    const bin = bucketBin[rowBucket[i]!]!;
    bins[i] = bin >= 0 ? bin : binOf(values[i]!, edges, count);
  }
}

/**
 * Writes the bin of every row to `bins` for rows given in ascending order of value (`sortedValues`,
 * row `rowOf[i]` holding `sortedValues[i]`): one pass, the edge index only moving forward; the same
 * bins as binOf. Written by hand: the real rows are sorted once, and this replaces a binary search per
 * row in every iteration.
 */
function writeSortedBins(
  sortedValues: Float64Array,
  rowOf: Int32Array,
  edges: Float64Array,
  count: number,
  bins: Int32Array,
): void {
  let below = 0; // #{e < x} for the current x
  for (let i = 0; i < sortedValues.length; i++) {
    const x = sortedValues[i]!;
    while (below < count && edges[below]! < x) below++;
    bins[rowOf[i]!] = 2 * below + (below < count && edges[below] === x ? 1 : 0);
  }
}

/**
 * Adds the count of each bin to `counts` for values sorted ascending: one pass, the edge index only
 * moving forward (O(values + edges)); the same bins as binOf.
 */
function addSortedBinCounts(
  sortedValues: Float64Array,
  edges: Float64Array,
  count: number,
  counts: Int32Array,
): void {
  let below = 0; // #{e < x} for the current x
  for (let i = 0; i < sortedValues.length; i++) {
    const x = sortedValues[i]!;
    while (below < count && edges[below]! < x) below++;
    counts[2 * below + (below < count && edges[below] === x ? 1 : 0)]!++;
  }
}

/** Row indices of `column` in ascending order of value (ties by row index). */
function ascendingRows(column: Float64Array): Int32Array {
  const rows = Int32Array.from({ length: column.length }, (_, i) => i);
  rows.sort((a, b) => column[a]! - column[b]! || a - b);
  return rows;
}

/**
 * Makes the evaluator for fixed real columns (finite values, n_real rows each) and synthetic tables of
 * n_synth rows. All buffers are allocated here; `evaluate` allocates nothing. Throws RangeError for
 * empty or ragged columns, non-finite values or bad settings.
 */
export function makeGridTreeQuality(
  realColumns: readonly Float64Array[],
  nSynth: number,
  settings: GridTreeQualitySettings,
): GridTreeQuality {
  const p = realColumns.length;
  if (p === 0) throw new RangeError('grid-tree pMSE needs at least one column');
  const nReal = realColumns[0]!.length;
  if (nReal < 1 || !Number.isInteger(nSynth) || nSynth < 1) {
    throw new RangeError(`grid-tree pMSE needs rows on both sides (n_real = ${nReal}, n_synth = ${nSynth})`);
  }
  if (!Number.isInteger(settings.gridSize) || settings.gridSize < 1) {
    throw new RangeError(`grid-tree pMSE: grid size must be a whole number >= 1; got ${settings.gridSize}`);
  }
  if (settings.depth !== 1 && settings.depth !== 2) {
    throw new RangeError(`grid-tree pMSE: depth must be 1 or 2; got ${String(settings.depth)}`);
  }
  for (const column of realColumns) {
    if (column.length !== nReal) throw new RangeError('grid-tree pMSE: real columns differ in length');
    for (let i = 0; i < nReal; i++) {
      if (!Number.isFinite(column[i]!)) throw new RangeError(`grid-tree pMSE: real value ${i} is not finite`);
    }
  }
  const total = nReal + nSynth;
  const share = nSynth / total;
  const depth2 = settings.depth === 2;
  const maxBins = 2 * (settings.gridSize + 1) + 1;
  const sorted = new Float64Array(nSynth);
  const order = makeBucketOrder(nSynth);
  const bucketBin = new Int32Array(order.bucketCount);
  // The real columns sorted once, with the row of each sorted value (depth 2 writes per-row bins).
  const realSorted = realColumns.map((column) => Float64Array.from(column).sort());
  const realRowOf = depth2 ? realColumns.map(ascendingRows) : [];
  if (depth2) {
    realColumns.forEach((column, j) => realRowOf[j]!.forEach((row, i) => (realSorted[j]![i] = column[row]!)));
  }
  const edges = new Float64Array(settings.gridSize + 1);
  const binCount = new Int32Array(p);
  const binRows = depth2 ? p : 0; // per-row bins: depth 2 only
  const realBins = Array.from({ length: binRows }, () => new Int32Array(nReal));
  const synthBins = Array.from({ length: binRows }, () => new Int32Array(nSynth));
  // Counts per bin of each column, real and synthetic (depth 2: one row per column).
  const columnReal = Array.from({ length: Math.max(1, binRows) }, () => new Int32Array(maxBins));
  const columnSynth = Array.from({ length: Math.max(1, binRows) }, () => new Int32Array(maxBins));
  // Counts per bin pair of (root column, child column), real and synthetic, and their running sums;
  // depth 2 only (at depth 1 with every synthetic value an edge, maxBins² would be (2n + 3)²).
  const pairSize = depth2 ? maxBins * maxBins : 0;
  const pairReal = new Int32Array(pairSize);
  const pairSynth = new Int32Array(pairSize);
  const leftReal = new Int32Array(maxBins);
  const leftSynth = new Int32Array(maxBins);
  // Best child value per root split of the current root column, over every child column.
  const bestLeft = new Float64Array(maxBins);
  const bestRight = new Float64Array(maxBins);

  /** N × a leaf's pMSE term: (s − c·t)²/t, 0 for an empty leaf. */
  const leaf = (real: number, synth: number): number => {
    const size = real + synth;
    if (size === 0) return 0;
    const excess = synth - share * size;
    return (excess * excess) / size;
  };

  /**
   * Best value of the whole column split once, or left whole: max over b of
   * leaf(rows in bins ≤ b) + leaf(rows in bins > b), and leaf(all rows). A bin with no rows is
   * skipped: its split has the same counts, so the same value, as the split before it (or, for the
   * first bin, as no split, since leaf(0, 0) + x = x).
   */
  const bestStump = (real: Int32Array, synth: Int32Array, bins: number): number => {
    let best = leaf(nReal, nSynth);
    let lowReal = 0;
    let lowSynth = 0;
    for (let b = 0; b < bins - 1; b++) {
      const r = real[b]!;
      const s = synth[b]!;
      if ((r | s) === 0) continue;
      lowReal += r;
      lowSynth += s;
      const value = leaf(lowReal, lowSynth) + leaf(nReal - lowReal, nSynth - lowSynth);
      if (value > best) best = value;
    }
    return best;
  };

  /**
   * Depth 2, root column j split after root bin r, child column k: the best value of the left node
   * (root bins ≤ r, counts per child bin in leftReal/leftSynth, nodeReal/nodeSynth rows) and of the
   * right node (the column's counts minus those), each split once on k or left whole, raised into
   * bestLeft[r] and bestRight[r]. One pass for both nodes; empty child bins are skipped as in
   * bestStump (the same values, so the same maxima). Written by hand: it is the inner loop of the
   * search, p² · (2G + 2) calls per evaluation.
   */
  const raiseChildBest = (
    r: number,
    k: number,
    childBins: number,
    nodeReal: number,
    nodeSynth: number,
  ): void => {
    const wholeReal = columnReal[k]!;
    const wholeSynth = columnSynth[k]!;
    const otherReal = nReal - nodeReal;
    const otherSynth = nSynth - nodeSynth;
    let left = leaf(nodeReal, nodeSynth);
    let right = leaf(otherReal, otherSynth);
    let lowLeftReal = 0;
    let lowLeftSynth = 0;
    let lowRightReal = 0;
    let lowRightSynth = 0;
    for (let b = 0; b < childBins - 1; b++) {
      const lr = leftReal[b]!;
      const ls = leftSynth[b]!;
      if ((lr | ls) !== 0) {
        lowLeftReal += lr;
        lowLeftSynth += ls;
        const value =
          leaf(lowLeftReal, lowLeftSynth) + leaf(nodeReal - lowLeftReal, nodeSynth - lowLeftSynth);
        if (value > left) left = value;
      }
      const rr = wholeReal[b]! - lr;
      const rs = wholeSynth[b]! - ls;
      if ((rr | rs) !== 0) {
        lowRightReal += rr;
        lowRightSynth += rs;
        const value =
          leaf(lowRightReal, lowRightSynth) + leaf(otherReal - lowRightReal, otherSynth - lowRightSynth);
        if (value > right) right = value;
      }
    }
    if (left > bestLeft[r]!) bestLeft[r] = left;
    if (right > bestRight[r]!) bestRight[r] = right;
  };

  return {
    evaluate(synthColumns) {
      let stumpBest = 0; // depth 1: no split, the root's own term, (n_synth − c·N)²/N = 0
      if (synthColumns.length !== p) {
        throw new RangeError(`grid-tree pMSE: expected ${p} synthetic columns, got ${synthColumns.length}`);
      }
      for (let j = 0; j < p; j++) {
        const column = synthColumns[j]!;
        if (column.length !== nSynth) throw new RangeError('grid-tree pMSE: synthetic column length differs');
        for (let i = 0; i < nSynth; i++) {
          if (!Number.isFinite(column[i]!)) {
            throw new RangeError(`grid-tree pMSE: synthetic column ${j} row ${i} is not finite`);
          }
        }
        order.deal(column);
        const count = writeGridEdges(order, nSynth, settings.gridSize, edges);
        binCount[j] = 2 * count + 1;
        if (!depth2) {
          // The best stump on this column, from bin counts of the sorted values.
          order.sortInto(sorted);
          const real = columnReal[0]!;
          const synth = columnSynth[0]!;
          real.fill(0);
          synth.fill(0);
          addSortedBinCounts(realSorted[j]!, edges, count, real);
          addSortedBinCounts(sorted, edges, count, synth);
          const value = bestStump(real, synth, binCount[j]!);
          if (value > stumpBest) stumpBest = value;
          continue;
        }
        const rb = realBins[j]!;
        writeSortedBins(realSorted[j]!, realRowOf[j]!, edges, count, rb);
        const sb = synthBins[j]!;
        writeBins(column, order, edges, count, bucketBin, sb);
        const real = columnReal[j]!;
        const synth = columnSynth[j]!;
        real.fill(0, 0, binCount[j]!);
        synth.fill(0, 0, binCount[j]!);
        for (let i = 0; i < nReal; i++) real[rb[i]!]!++;
        for (let i = 0; i < nSynth; i++) synth[sb[i]!]!++;
      }
      if (!depth2) return stumpBest / total;
      let best = 0; // no split: the root's own term, (n_synth − c·N)²/N = 0
      for (let j = 0; j < p; j++) {
        const rootBins = binCount[j]!;
        bestLeft.fill(0, 0, rootBins);
        bestRight.fill(0, 0, rootBins);
        for (let k = 0; k < p; k++) {
          const childBins = binCount[k]!;
          pairReal.fill(0, 0, rootBins * childBins);
          pairSynth.fill(0, 0, rootBins * childBins);
          const rootReal = realBins[j]!;
          const childReal = realBins[k]!;
          for (let i = 0; i < nReal; i++) pairReal[rootReal[i]! * childBins + childReal[i]!]!++;
          const rootSynth = synthBins[j]!;
          const childSynth = synthBins[k]!;
          for (let i = 0; i < nSynth; i++) pairSynth[rootSynth[i]! * childBins + childSynth[i]!]!++;
          leftReal.fill(0, 0, childBins);
          leftSynth.fill(0, 0, childBins);
          let nodeReal = 0;
          let nodeSynth = 0;
          for (let r = 0; r < rootBins - 1; r++) {
            const base = r * childBins;
            let rowReal = 0;
            let rowSynth = 0;
            for (let b = 0; b < childBins; b++) {
              const a = pairReal[base + b]!;
              const s = pairSynth[base + b]!;
              leftReal[b] += a;
              leftSynth[b] += s;
              rowReal += a;
              rowSynth += s;
            }
            nodeReal += rowReal;
            nodeSynth += rowSynth;
            if (r > 0 && rowReal === 0 && rowSynth === 0) {
              // An empty root bin: the same nodes as after the previous root bin, the same values.
              if (bestLeft[r - 1]! > bestLeft[r]!) bestLeft[r] = bestLeft[r - 1]!;
              if (bestRight[r - 1]! > bestRight[r]!) bestRight[r] = bestRight[r - 1]!;
              continue;
            }
            raiseChildBest(r, k, childBins, nodeReal, nodeSynth);
          }
        }
        for (let r = 0; r < rootBins - 1; r++) {
          const value = bestLeft[r]! + bestRight[r]!;
          if (value > best) best = value;
        }
      }
      return best / total;
    },
  };
}
