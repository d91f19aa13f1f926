import type { Rng } from '../rng/types';
import { quantileSorted } from '../stats/quantile-sorted';
import type { Table } from '../table/types';
import { alignCategoricalCodes, alignColumnsByName } from './align-columns';
import { sampleIndicesWithoutReplacement } from './sample-indices';

/** Label carried by every disclosure result: these numbers are computed from the real rows. */
export const DISCLOSURE_LABEL =
  'Not differentially private: a sanity check computed from the real data, for the data holder only.';

/** At most this many synthetic (and real) rows are queried for their closest record. */
export const DISCLOSURE_MAX_QUERY_ROWS = 1_000;
/** At most this many real rows are searched for the closest record. */
export const DISCLOSURE_MAX_REFERENCE_ROWS = 10_000;

export interface DistanceSummary {
  median: number;
  p05: number;
}

export interface DisclosureDiagnostics {
  label: string;
  differentiallyPrivate: false;
  exactMatches: {
    /** Synthetic rows equal in every column (missing equals missing) to at least one real row. */
    synthRowsMatchingReal: number;
    synthShare: number;
    /** Baseline: real rows equal to at least one other real row. */
    realRowsWithRealDuplicate: number;
    realShare: number;
  };
  /** Gower distance to the closest real record (0 = identical row, 1 = different in every column). */
  distanceToClosestRecord: {
    synthToReal: DistanceSummary;
    /** Leave-one-out: each queried real row against the other real reference rows. */
    realToReal: DistanceSummary;
    /** Share of queried synthetic rows closer to a real row than the real-to-real 5th percentile. */
    synthShareBelowRealP05: number;
    queriedSynthRows: number;
    queriedRealRows: number;
    referenceRealRows: number;
    maxQueryRows: number;
    maxReferenceRows: number;
  };
}

/** One column of both tables on the common scale of the checks, read cell by cell (nothing copied for numbers). */
type ScaledColumn =
  | { kind: 'numeric'; real: NumericSide; synth: NumericSide; lo: number; range: number }
  | { kind: 'codes'; real: Uint32Array; synth: Uint32Array };

interface NumericSide {
  values: Float64Array;
  missing: Uint8Array;
}

/**
 * The common scale: numeric columns divided by the pooled non-missing range (NaN = missing; all 0
 * when the range is 0), categorical columns as token-aligned codes with missing as its own code.
 */
function scaleColumns(real: Table, synth: Table): ScaledColumn[] {
  return alignColumnsByName(real, synth).map((pair): ScaledColumn => {
    if (pair.real.kind === 'numeric' && pair.synth.kind === 'numeric') {
      let lo = Infinity;
      let hi = -Infinity;
      for (const column of [pair.real, pair.synth]) {
        for (let i = 0; i < column.values.length; i++) {
          if (column.missing[i] === 1) continue;
          lo = Math.min(lo, column.values[i]!);
          hi = Math.max(hi, column.values[i]!);
        }
      }
      return { kind: 'numeric', real: pair.real, synth: pair.synth, lo, range: hi > lo ? hi - lo : 0 };
    }
    if (pair.real.kind === 'categorical' && pair.synth.kind === 'categorical') {
      const aligned = alignCategoricalCodes(pair.real, pair.synth);
      return { kind: 'codes', real: aligned.realCodes, synth: aligned.synthCodes };
    }
    throw new Error(`column ${pair.real.name} has different kinds in the two tables.`);
  });
}

/** Cell (row i, column c) of one side on the common scale. */
function scaledValue(column: ScaledColumn, synthSide: boolean, i: number): number {
  if (column.kind === 'codes') return (synthSide ? column.synth : column.real)[i]!;
  const side = synthSide ? column.synth : column.real;
  if (side.missing[i] === 1) return NaN;
  return column.range === 0 ? 0 : (side.values[i]! - column.lo) / column.range;
}

/** Rows `rows` of one side as a row-major matrix on the common scale (the few rows the distances read). */
function gatherRows(columns: ScaledColumn[], synthSide: boolean, rows: Uint32Array): Float64Array {
  const m = columns.length;
  const out = new Float64Array(rows.length * m);
  rows.forEach((row, k) => {
    for (let j = 0; j < m; j++) out[k * m + j] = scaledValue(columns[j]!, synthSide, row);
  });
  return out;
}

const HASH_BITS = new Float64Array(1);
const HASH_WORDS = new Uint32Array(HASH_BITS.buffer);

/** One step of MurmurHash3's 32-bit body (Appleby 2011): mixes word k into the running hash h. */
function mixWord(h: number, k: number): number {
  k = Math.imul(k, 0xcc9e2d51);
  k = (k << 15) | (k >>> 17);
  h ^= Math.imul(k, 0x1b873593);
  h = (h << 13) | (h >>> 19);
  return (Math.imul(h, 5) + 0xe6546b64) | 0;
}

/**
 * A 32-bit hash of a row's scaled values, equal for rows the checks call equal: every missing value
 * hashes alike, and −0 as 0 (the two compare equal). MurmurHash3's body and finaliser over the
 * 64 bits of each value.
 */
function rowHash(columns: ScaledColumn[], synthSide: boolean, i: number): number {
  let h = 0x2545f491;
  for (const column of columns) {
    const v = scaledValue(column, synthSide, i);
    if (Number.isNaN(v)) {
      h = mixWord(mixWord(h, 0x7ff80000), 0x7ff80000);
      continue;
    }
    HASH_BITS[0] = v === 0 ? 0 : v;
    h = mixWord(mixWord(h, HASH_WORDS[0]!), HASH_WORDS[1]!);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Whether two rows are equal in every column: numbers equal (−0 = 0), codes equal, missing equal to missing. */
function rowsEqual(columns: ScaledColumn[], aSynth: boolean, a: number, bSynth: boolean, b: number): boolean {
  for (const column of columns) {
    const x = scaledValue(column, aSynth, a);
    const y = scaledValue(column, bSynth, b);
    if (x !== y && !(Number.isNaN(x) && Number.isNaN(y))) return false;
  }
  return true;
}

/**
 * Exact matches without a key per row: every row of both tables gets a number, its hash in the high
 * bits and its position (real rows first, then synthetic ones) in the low bits, exact in a double
 * (< 2^53); one numeric sort brings equal hashes together, and within each run of equal hashes the
 * rows are split into classes of truly equal rows (a collision of hashes only makes a run longer).
 * A class with r real and s synthetic rows adds s synthetic rows matching a real one when r ≥ 1 and
 * r real rows with a real duplicate when r ≥ 2. Memory: one double per row of both tables.
 */
function exactMatches(
  columns: ScaledColumn[],
  nReal: number,
  nSynth: number,
  maxHashBits: number,
): { synthMatches: number; realDuplicates: number } {
  const total = nReal + nSynth;
  const idBits = Math.max(1, Math.ceil(Math.log2(total)));
  const hashBits = Math.min(maxHashBits, 53 - idBits);
  const idScale = 2 ** idBits;
  const keys = new Float64Array(total);
  for (let id = 0; id < total; id++) {
    const synthSide = id >= nReal;
    const hash = rowHash(columns, synthSide, synthSide ? id - nReal : id) >>> (32 - hashBits);
    keys[id] = hash * idScale + id;
  }
  keys.sort();
  let synthMatches = 0;
  let realDuplicates = 0;
  const classes: { id: number; real: number; synth: number }[] = [];
  const settle = () => {
    for (const c of classes) {
      if (c.real >= 1) synthMatches += c.synth;
      if (c.real >= 2) realDuplicates += c.real;
    }
    classes.length = 0;
  };
  let runHash = -1;
  for (let k = 0; k < total; k++) {
    const key = keys[k]!;
    const hash = Math.floor(key / idScale);
    const id = key - hash * idScale;
    if (hash !== runHash) {
      settle();
      runHash = hash;
    }
    const synthSide = id >= nReal;
    const row = synthSide ? id - nReal : id;
    let found = classes.find((c) =>
      rowsEqual(columns, c.id >= nReal, c.id >= nReal ? c.id - nReal : c.id, synthSide, row),
    );
    if (found === undefined) {
      found = { id, real: 0, synth: 0 };
      classes.push(found);
    }
    if (synthSide) found.synth++;
    else found.real++;
  }
  settle();
  return { synthMatches, realDuplicates };
}

/**
 * The exact-match counts of disclosureDiagnostics, keeping at most `maxHashBits` bits of each row's
 * hash (fewer bits make more rows share a run: tests use it to check that runs are split exactly).
 */
export function exactMatchCounts(
  real: Table,
  synth: Table,
  maxHashBits = 32,
): { synthMatches: number; realDuplicates: number } {
  return exactMatches(scaleColumns(real, synth), real.nRows, synth.nRows, maxHashBits);
}

/**
 * Gower (1971) distance between row a of `rowsA` and row b of `rowsB`, scaled by m:
 * Σ_j δ_j with δ_j = |x − y| for range-scaled numeric values, 0/1 mismatch for categories,
 * 0 when both are missing and 1 when exactly one is. Stops early once the sum reaches `stopAt`.
 */
function scaledGowerDistance(
  rowsA: Float64Array,
  a: number,
  rowsB: Float64Array,
  b: number,
  m: number,
  isNumeric: Uint8Array,
  stopAt: number,
): number {
  let sum = 0;
  for (let j = 0; j < m && sum < stopAt; j++) {
    const x = rowsA[a * m + j]!;
    const y = rowsB[b * m + j]!;
    if (isNumeric[j] === 1) {
      const xMissing = Number.isNaN(x);
      const yMissing = Number.isNaN(y);
      sum += xMissing || yMissing ? (xMissing && yMissing ? 0 : 1) : Math.abs(x - y);
    } else if (x !== y) {
      sum += 1;
    }
  }
  return sum;
}

/**
 * Distance of each query row to its closest reference row, sorted. Row k of `queries` is row
 * queryIds[k] of its table, row p of `reference` is real row referenceIds[p]; with
 * `excludeSameRow` (real queries) a query is not compared with itself.
 *
 * Search: over the numeric columns without a missing value in either matrix (the projected ones),
 * Σ_j |x_j − y_j| ≥ |Σ_j x_j − Σ_j y_j| (triangle inequality), and every other column adds a term
 * ≥ 0, so a reference row whose projected sum differs from the query's by at least the best distance
 * so far cannot be closer. The reference rows are sorted by that sum once; each query walks outward
 * from its own sum, nearest sums first, and stops when both sides are that far. The bound is widened
 * by `slack`, more than the rounding of the sums (values in [0, 1], at most m of them), so a row is
 * skipped only when its distance as computed is ≥ the best: the results are those of comparing
 * with every reference row. Without a projected column every reference row is compared.
 */
function closestDistances(
  queries: Float64Array,
  queryIds: Uint32Array,
  reference: Float64Array,
  referenceIds: Uint32Array,
  m: number,
  isNumeric: Uint8Array,
  excludeSameRow: boolean,
): Float64Array {
  const nRef = referenceIds.length;
  const projected = projectedColumns(queries, reference, m, isNumeric);
  const out = new Float64Array(queryIds.length);
  if (projected.length === 0) {
    queryIds.forEach((q, k) => {
      let best = Infinity;
      for (let p = 0; p < nRef; p++) {
        if (excludeSameRow && referenceIds[p] === q) continue;
        const d = scaledGowerDistance(queries, k, reference, p, m, isNumeric, best);
        if (d < best) best = d;
        if (best === 0) break;
      }
      out[k] = best / m;
    });
    return out.sort();
  }
  const refSums = Float64Array.from({ length: nRef }, (_, p) => projectedSum(reference, p, m, projected));
  const order = Uint32Array.from({ length: nRef }, (_, p) => p).sort((a, b) => refSums[a]! - refSums[b]!);
  const sortedSums = Float64Array.from(order, (p) => refSums[p]!);
  // The reference rows in that order, so that the walk reads memory in sequence.
  const sortedRef = new Float64Array(reference.length);
  order.forEach((p, i) => sortedRef.set(reference.subarray(p * m, p * m + m), i * m));
  const sortedIds = Uint32Array.from(order, (p) => referenceIds[p]!);
  const slack = 4 * m * m * Number.EPSILON;
  queryIds.forEach((q, k) => {
    const sum = projectedSum(queries, k, m, projected);
    let hi = firstAtLeast(sortedSums, sum);
    let lo = hi - 1;
    let best = Infinity;
    while (best > 0) {
      const gapLo = lo >= 0 ? sum - sortedSums[lo]! : Infinity;
      const gapHi = hi < nRef ? sortedSums[hi]! - sum : Infinity;
      const takeLo = gapLo <= gapHi;
      if ((takeLo ? gapLo : gapHi) - slack >= best) break;
      const i = takeLo ? lo-- : hi++;
      if (excludeSameRow && sortedIds[i] === q) continue;
      const d = scaledGowerDistance(queries, k, sortedRef, i, m, isNumeric, best);
      if (d < best) best = d;
    }
    out[k] = best / m;
  });
  return out.sort();
}

/** The numeric columns with no missing value (NaN) in either row-major matrix. */
function projectedColumns(a: Float64Array, b: Float64Array, m: number, isNumeric: Uint8Array): number[] {
  const columns: number[] = [];
  for (let j = 0; j < m; j++) {
    if (isNumeric[j] !== 1) continue;
    let complete = true;
    for (const matrix of [a, b]) {
      for (let i = j; i < matrix.length && complete; i += m) if (Number.isNaN(matrix[i]!)) complete = false;
    }
    if (complete) columns.push(j);
  }
  return columns;
}

/** Σ over the projected columns of row r of a row-major matrix with m columns. */
function projectedSum(matrix: Float64Array, r: number, m: number, projected: number[]): number {
  let sum = 0;
  for (const j of projected) sum += matrix[r * m + j]!;
  return sum;
}

/** The first index of an ascending array whose value is ≥ x (its length when none is). */
function firstAtLeast(sorted: Float64Array, x: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function summarize(sortedDistances: Float64Array): DistanceSummary {
  return { median: quantileSorted(sortedDistances, 0.5), p05: quantileSorted(sortedDistances, 0.05) };
}

/**
 * Disclosure sanity checks of a synthetic table against the real one. NOT differentially private:
 * they read the real rows and are for the data holder only (DISCLOSURE_LABEL travels with the result).
 *
 * - Exact matches: share of synthetic rows identical to some real row in every column (numbers equal,
 *   categories by token, missing equal to missing), beside the same share of real rows among the
 *   other real rows as a baseline (discrete data has natural duplicates).
 * - Distance to closest record (DCR; e.g. Park et al. 2018, "Data synthesis based on GANs", §5.3):
 *   Gower (1971) distance d = (1/m) Σ_j δ_j with δ_j = |x − y| / range_j for numeric columns (pooled
 *   non-missing range), 0/1 mismatch for categorical ones, and δ_j = 1 when exactly one side is
 *   missing. Median and 5th percentile (Hyndman–Fan type 7) of synthetic→real DCR, beside real→real
 *   leave-one-out DCR on the same reference rows: synthetic rows much closer to real rows than real
 *   rows are to each other suggest copying. At most DISCLOSURE_MAX_QUERY_ROWS rows of each table are
 *   queried against at most DISCLOSURE_MAX_REFERENCE_ROWS real rows, drawn without replacement with
 *   `rng`, so the cost is O(1000 · 10000 · m) at most; DCRs against a subsample are slightly larger
 *   than against all real rows, equally for both directions.
 * Memory: one double per row of both tables for the exact matches (exactMatches), the token-aligned
 * codes of categorical columns, and the sampled rows; no copy of the numeric columns, no key per row.
 * Throws when either table has fewer than two rows.
 */
export function disclosureDiagnostics(real: Table, synth: Table, rng: Rng): DisclosureDiagnostics {
  if (real.nRows < 2 || synth.nRows < 1)
    throw new RangeError('Disclosure checks need at least two real rows and one synthetic row.');
  const columns = scaleColumns(real, synth);
  const m = columns.length;
  const isNumeric = Uint8Array.from(columns, (column) => (column.kind === 'numeric' ? 1 : 0));
  const { synthMatches, realDuplicates } = exactMatches(columns, real.nRows, synth.nRows, 32);

  const referenceRows = sampleIndicesWithoutReplacement(real.nRows, DISCLOSURE_MAX_REFERENCE_ROWS, rng);
  const synthQueries = sampleIndicesWithoutReplacement(synth.nRows, DISCLOSURE_MAX_QUERY_ROWS, rng);
  const realQueries = sampleIndicesWithoutReplacement(real.nRows, DISCLOSURE_MAX_QUERY_ROWS, rng);
  const reference = gatherRows(columns, false, referenceRows);
  const synthToReal = closestDistances(
    gatherRows(columns, true, synthQueries),
    synthQueries,
    reference,
    referenceRows,
    m,
    isNumeric,
    false,
  );
  const realToReal = closestDistances(
    gatherRows(columns, false, realQueries),
    realQueries,
    reference,
    referenceRows,
    m,
    isNumeric,
    true,
  );
  const realSummary = summarize(realToReal);
  let below = 0;
  for (const d of synthToReal) if (d < realSummary.p05) below++;

  return {
    label: DISCLOSURE_LABEL,
    differentiallyPrivate: false,
    exactMatches: {
      synthRowsMatchingReal: synthMatches,
      synthShare: synthMatches / synth.nRows,
      realRowsWithRealDuplicate: realDuplicates,
      realShare: realDuplicates / real.nRows,
    },
    distanceToClosestRecord: {
      synthToReal: summarize(synthToReal),
      realToReal: realSummary,
      synthShareBelowRealP05: below / synthToReal.length,
      queriedSynthRows: synthQueries.length,
      queriedRealRows: realQueries.length,
      referenceRealRows: referenceRows.length,
      maxQueryRows: DISCLOSURE_MAX_QUERY_ROWS,
      maxReferenceRows: DISCLOSURE_MAX_REFERENCE_ROWS,
    },
  };
}
