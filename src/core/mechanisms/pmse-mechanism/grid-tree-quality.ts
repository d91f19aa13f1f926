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

/** Number of edges ≤ G + 1 written to `edges` from the sorted synthetic values. */
function writeGridEdges(sorted: Float64Array, gridSize: number, edges: Float64Array): number {
  const last = sorted.length - 1;
  let count = 0;
  for (let g = 0; g <= gridSize; g++) {
    const value = sorted[Math.round((g * last) / gridSize)]!;
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
  const maxBins = 2 * (settings.gridSize + 1) + 1;
  const sorted = new Float64Array(nSynth);
  // Depth 1 counts bins from sorted values (no per-row bins): the real columns are sorted once here.
  const realSorted =
    settings.depth === 1 ? realColumns.map((column) => Float64Array.from(column).sort()) : [];
  const edges = new Float64Array(settings.gridSize + 1);
  const binCount = new Int32Array(p);
  const binRows = settings.depth === 2 ? p : 0; // per-row bins: depth 2 only
  const realBins = Array.from({ length: binRows }, () => new Int32Array(nReal));
  const synthBins = Array.from({ length: binRows }, () => new Int32Array(nSynth));
  // Counts per bin pair of (root column, child column), real and synthetic, and their running sums;
  // depth 2 only (at depth 1 with every synthetic value an edge, maxBins² would be (2n + 3)²).
  const pairSize = settings.depth === 2 ? maxBins * maxBins : 0;
  const pairReal = new Int32Array(pairSize);
  const pairSynth = new Int32Array(pairSize);
  const columnReal = new Int32Array(maxBins);
  const columnSynth = new Int32Array(maxBins);
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
   * Best value of a node split once on the child column, or left whole: bins [0, bins) of the child
   * column with counts given as (whole − part) when `complement`, else `part`.
   */
  const bestSplit = (
    partReal: Int32Array,
    partSynth: Int32Array,
    bins: number,
    complement: boolean,
  ): number => {
    let nodeReal = 0;
    let nodeSynth = 0;
    for (let b = 0; b < bins; b++) {
      nodeReal += complement ? columnReal[b]! - partReal[b]! : partReal[b]!;
      nodeSynth += complement ? columnSynth[b]! - partSynth[b]! : partSynth[b]!;
    }
    let best = leaf(nodeReal, nodeSynth);
    let lowReal = 0;
    let lowSynth = 0;
    for (let b = 0; b < bins - 1; b++) {
      lowReal += complement ? columnReal[b]! - partReal[b]! : partReal[b]!;
      lowSynth += complement ? columnSynth[b]! - partSynth[b]! : partSynth[b]!;
      const value = leaf(lowReal, lowSynth) + leaf(nodeReal - lowReal, nodeSynth - lowSynth);
      if (value > best) best = value;
    }
    return best;
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
        sorted.set(column);
        sorted.sort();
        const count = writeGridEdges(sorted, settings.gridSize, edges);
        binCount[j] = 2 * count + 1;
        if (settings.depth === 1) {
          // The best stump on this column, from bin counts of the sorted values.
          columnReal.fill(0);
          columnSynth.fill(0);
          addSortedBinCounts(realSorted[j]!, edges, count, columnReal);
          addSortedBinCounts(sorted, edges, count, columnSynth);
          leftReal.fill(0);
          leftSynth.fill(0);
          const value = bestSplit(leftReal, leftSynth, binCount[j]!, true);
          if (value > stumpBest) stumpBest = value;
          continue;
        }
        const real = realColumns[j]!;
        const rb = realBins[j]!;
        for (let i = 0; i < nReal; i++) rb[i] = binOf(real[i]!, edges, count);
        const sb = synthBins[j]!;
        for (let i = 0; i < nSynth; i++) sb[i] = binOf(column[i]!, edges, count);
      }
      if (settings.depth === 1) return stumpBest / total;
      let best = 0; // no split: the root's own term, (n_synth − c·N)²/N = 0
      for (let j = 0; j < p; j++) {
        const rootBins = binCount[j]!;
        bestLeft.fill(0, 0, rootBins);
        bestRight.fill(0, 0, rootBins);
        for (let k = 0; k < p; k++) {
          const childBins = binCount[k]!;
          pairReal.fill(0, 0, rootBins * childBins);
          pairSynth.fill(0, 0, rootBins * childBins);
          columnReal.fill(0, 0, childBins);
          columnSynth.fill(0, 0, childBins);
          const rootReal = realBins[j]!;
          const childReal = realBins[k]!;
          for (let i = 0; i < nReal; i++) pairReal[rootReal[i]! * childBins + childReal[i]!]!++;
          const rootSynth = synthBins[j]!;
          const childSynth = synthBins[k]!;
          for (let i = 0; i < nSynth; i++) pairSynth[rootSynth[i]! * childBins + childSynth[i]!]!++;
          for (let r = 0; r < rootBins; r++) {
            for (let b = 0; b < childBins; b++) {
              columnReal[b] += pairReal[r * childBins + b]!;
              columnSynth[b] += pairSynth[r * childBins + b]!;
            }
          }
          leftReal.fill(0, 0, childBins);
          leftSynth.fill(0, 0, childBins);
          for (let r = 0; r < rootBins - 1; r++) {
            for (let b = 0; b < childBins; b++) {
              leftReal[b] += pairReal[r * childBins + b]!;
              leftSynth[b] += pairSynth[r * childBins + b]!;
            }
            const left = bestSplit(leftReal, leftSynth, childBins, false);
            const right = bestSplit(leftReal, leftSynth, childBins, true);
            if (left > bestLeft[r]!) bestLeft[r] = left;
            if (right > bestRight[r]!) bestRight[r] = right;
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
