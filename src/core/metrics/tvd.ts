import type { Table } from '../table/types';
import {
  DEFAULT_TVD_BINS,
  encodeMarginalCells,
  type EncodedMarginalColumn,
  type EncodedMarginalTables,
} from './marginal-cells';

/** TVD of one column subset's joint marginal. */
export interface SubsetTvd {
  columns: string[];
  tvd: number;
}

/** Mean TVD over all k-column marginals, with every subset's value kept (for heatmaps). */
export interface KWayTvd {
  k: number;
  mean: number;
  subsets: SubsetTvd[];
}

/** The full joint table is only compared when it has at most this many cells. */
export const FULL_TABLE_TVD_MAX_CELLS = 1_000_000;

/**
 * All k-subsets of {0, …, m − 1} in lexicographic order of positions — the order of Python's
 * `itertools.combinations(range(m), k)`, which fixes the summation order of the mean.
 */
export function lexicographicCombinations(m: number, k: number): number[][] {
  const out: number[][] = [];
  if (k < 0 || k > m) return out;
  const current = Array.from({ length: k }, (_, i) => i);
  for (;;) {
    out.push(current.slice());
    let i = k - 1;
    while (i >= 0 && current[i] === m - k + i) i--;
    if (i < 0) return out;
    current[i]!++;
    for (let j = i + 1; j < k; j++) current[j] = current[j - 1]! + 1;
  }
}

/**
 * Joint cell code of each pooled row (real rows first, then synthetic) for a set of encoded
 * columns. Codes are mixed-radix products while the cell space stays below `denseLimit`, and are
 * renumbered densely (first-seen order) when it would exceed it, so the count arrays never grow
 * beyond max(denseLimit, number of distinct joint cells).
 */
function jointCellCodes(columns: EncodedMarginalColumn[], nReal: number, nSynth: number, denseLimit: number) {
  const n = nReal + nSynth;
  const keys = new Float64Array(n);
  let cellCount = 1;
  for (const column of columns) {
    const radix = column.cellCount;
    const product = cellCount * radix;
    if (!Number.isSafeInteger(product)) {
      throw new Error('Joint marginal cell space is too large to index exactly.');
    }
    for (let i = 0; i < nReal; i++) keys[i] = keys[i]! * radix + column.realCells[i]!;
    for (let i = 0; i < nSynth; i++) keys[nReal + i] = keys[nReal + i]! * radix + column.synthCells[i]!;
    if (product <= denseLimit) {
      cellCount = product;
      continue;
    }
    const denseIndex = new Map<number, number>();
    for (let i = 0; i < n; i++) {
      let index = denseIndex.get(keys[i]!);
      if (index === undefined) {
        index = denseIndex.size;
        denseIndex.set(keys[i]!, index);
      }
      keys[i] = index;
    }
    cellCount = denseIndex.size;
  }
  return { keys, cellCount };
}

/**
 * Total variation distance between the real and synthetic joint marginals of the given columns
 * (reference/README.md "TVD", normative; tvd_ref.py):
 *
 *   TVD_S = Σ_cells |c_r · n_s − c_s · n_r| / (2 · n_r · n_s)
 *
 * with c_r, c_s the cell counts. The numerator is an exact integer (requires 2 · n_r · n_s < 2^53,
 * checked), followed by ONE division, so the value is bit-identical to the reference and equals
 * ½ Σ |c_r/n_r − c_s/n_s| up to rounding. O((n_r + n_s) · |S|).
 */
export function tvdOfEncodedSubset(encoded: EncodedMarginalTables, columnIndices: readonly number[]): number {
  const { nReal, nSynth } = encoded;
  if (nReal === 0 || nSynth === 0) throw new Error('TVD needs at least one real and one synthetic row.');
  const denominator = 2 * nReal * nSynth;
  if (!Number.isSafeInteger(denominator)) throw new Error('Tables too large for an exact TVD numerator.');
  const columns = columnIndices.map((j) => encoded.columns[j]!);
  const denseLimit = Math.max(1 << 16, 2 * (nReal + nSynth));
  const { keys, cellCount } = jointCellCodes(columns, nReal, nSynth, denseLimit);
  const realCounts = new Int32Array(cellCount);
  const synthCounts = new Int32Array(cellCount);
  for (let i = 0; i < nReal; i++) realCounts[keys[i]!]!++;
  for (let i = nReal; i < nReal + nSynth; i++) synthCounts[keys[i]!]!++;
  let numerator = 0;
  for (let cell = 0; cell < cellCount; cell++) {
    numerator += Math.abs(realCounts[cell]! * nSynth - synthCounts[cell]! * nReal);
  }
  return numerator / denominator;
}

/**
 * Mean TVD over all k-column marginals of already-encoded tables: TVD_S for every k-subset S in
 * lexicographic order, summed left to right and divided once by C(m, k) (tvd_ref.py). Encode
 * once with `encodeMarginalCells` and call this for k = 1, 2, 3 to avoid re-binning.
 */
export function tvdKWayFromEncoded(encoded: EncodedMarginalTables, k: number): KWayTvd {
  const m = encoded.columns.length;
  if (!Number.isInteger(k) || k < 1 || k > m) {
    throw new Error(`k must be an integer between 1 and the number of columns (${m}), got ${k}.`);
  }
  const subsets: SubsetTvd[] = [];
  let total = 0;
  for (const indices of lexicographicCombinations(m, k)) {
    const tvd = tvdOfEncodedSubset(encoded, indices);
    total += tvd;
    subsets.push({ columns: indices.map((j) => encoded.columns[j]!.name), tvd });
  }
  return { k, mean: total / subsets.length, subsets };
}

/**
 * Mean total variation distance over all k-way marginals (k = 1, 2, 3 in practice), bit-identical
 * to tvd_ref.py: numeric columns in `bins` (default 10) equal-width bins over the pooled range,
 * missing its own cell, categorical cell = token; TVD_S = Σ |c_r n_s − c_s n_r| / (2 n_r n_s);
 * mean over the C(m, k) subsets in lexicographic order. DESIGN.md §2 (metric defaults) and
 * reference/README.md "TVD". Cost O(C(m, k) · k · (n_r + n_s)).
 *
 * Example: real column a = [x, x, y, y], synthetic a = [x, x, x, y] → tvdKWay(…, 1).mean = 0.25.
 */
export function tvdKWay(real: Table, synth: Table, k: number, opts?: { bins?: number }): KWayTvd {
  return tvdKWayFromEncoded(encodeMarginalCells(real, synth, opts?.bins ?? DEFAULT_TVD_BINS), k);
}

/** Number of distinct cell codes a column takes in the pooled real ∪ synthetic data. */
function observedCellCount(column: EncodedMarginalColumn): number {
  const seen = new Uint8Array(column.cellCount);
  let count = 0;
  for (const cells of [column.realCells, column.synthCells]) {
    for (let i = 0; i < cells.length; i++) {
      if (seen[cells[i]!] === 0) {
        seen[cells[i]!] = 1;
        count++;
      }
    }
  }
  return count;
}

/**
 * TVD of the full joint distribution over all m columns (the m-way marginal, same cells and
 * formula as `tvdOfEncodedSubset`), or null when the joint table would have more than
 * FULL_TABLE_TVD_MAX_CELLS cells — counted as the product over columns of the cells observed in
 * the pooled data. Beyond that size almost every cell holds at most one row and the value says
 * little beyond "sparse".
 */
export function fullTableTvdFromEncoded(encoded: EncodedMarginalTables): number | null {
  let cells = 1;
  for (const column of encoded.columns) {
    cells *= observedCellCount(column);
    if (cells > FULL_TABLE_TVD_MAX_CELLS) return null;
  }
  return tvdOfEncodedSubset(
    encoded,
    encoded.columns.map((_, j) => j),
  );
}

/** `fullTableTvdFromEncoded` on raw tables (default 10 bins). */
export function fullTableTvd(real: Table, synth: Table, opts?: { bins?: number }): number | null {
  return fullTableTvdFromEncoded(encodeMarginalCells(real, synth, opts?.bins ?? DEFAULT_TVD_BINS));
}

/**
 * SDNist k-marginal score on a 0–1000 scale from the mean 2-way TVD:
 * score = 1000 · (1 − mean TVD₂). 1000 = identical 2-way marginals, 0 = disjoint supports.
 * (NIST CRC "SDNist" k-marginal metric, with the TVD definition above.) Example: 0.05 → 950.
 */
export function kMarginalScore(meanTwoWayTvd: number): number {
  return 1000 * (1 - meanTwoWayTvd);
}
