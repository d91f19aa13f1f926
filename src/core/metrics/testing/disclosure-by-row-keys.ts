// The disclosure checks as first written: every row of both tables in row-major Float64Arrays and a
// string key per row in a Map (memory O(rows · columns) doubles plus a string per row). Kept as the
// reference that disclosure.test.ts compares the typed-array version with, result for result.
import type { Rng } from '../../rng/types';
import { quantileSorted } from '../../stats/quantile-sorted';
import type { Table } from '../../table/types';
import { alignCategoricalCodes, alignColumnsByName } from '../align-columns';
import { sampleIndicesWithoutReplacement } from '../sample-indices';
import {
  DISCLOSURE_LABEL,
  DISCLOSURE_MAX_QUERY_ROWS,
  DISCLOSURE_MAX_REFERENCE_ROWS,
  type DisclosureDiagnostics,
  type DistanceSummary,
} from '../disclosure';

/**
 * Both tables as row-major matrices on a common scale: numeric columns divided by the pooled
 * non-missing range (NaN = missing; all 0 when the range is 0), categorical columns as token-aligned
 * codes with missing as its own code.
 */
function encodeForDistance(real: Table, synth: Table) {
  const pairs = alignColumnsByName(real, synth);
  const m = pairs.length;
  const isNumeric = new Uint8Array(m);
  const realRows = new Float64Array(real.nRows * m);
  const synthRows = new Float64Array(synth.nRows * m);
  pairs.forEach((pair, j) => {
    if (pair.real.kind === 'numeric' && pair.synth.kind === 'numeric') {
      isNumeric[j] = 1;
      let lo = Infinity;
      let hi = -Infinity;
      for (const column of [pair.real, pair.synth]) {
        for (let i = 0; i < column.values.length; i++) {
          if (column.missing[i] === 1) continue;
          lo = Math.min(lo, column.values[i]!);
          hi = Math.max(hi, column.values[i]!);
        }
      }
      const range = hi > lo ? hi - lo : 0;
      const fill = (column: typeof pair.real & { kind: 'numeric' }, out: Float64Array) => {
        for (let i = 0; i < column.values.length; i++) {
          out[i * m + j] = column.missing[i] === 1 ? NaN : range === 0 ? 0 : (column.values[i]! - lo) / range;
        }
      };
      fill(pair.real, realRows);
      fill(pair.synth, synthRows);
    } else if (pair.real.kind === 'categorical' && pair.synth.kind === 'categorical') {
      const aligned = alignCategoricalCodes(pair.real, pair.synth);
      aligned.realCodes.forEach((code, i) => (realRows[i * m + j] = code));
      aligned.synthCodes.forEach((code, i) => (synthRows[i * m + j] = code));
    }
  });
  return { m, isNumeric, realRows, synthRows };
}

/** Row key for exact matching: the encoded values, missing as "NA". */
function rowKey(rows: Float64Array, i: number, m: number): string {
  let key = '';
  for (let j = 0; j < m; j++) {
    const v = rows[i * m + j]!;
    key += (Number.isNaN(v) ? 'NA' : String(v)) + '|';
  }
  return key;
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

function closestDistances(
  queries: Float64Array,
  queryRows: Uint32Array,
  reference: Float64Array,
  referenceRows: Uint32Array,
  m: number,
  isNumeric: Uint8Array,
  excludeSameIndex: boolean,
): Float64Array {
  const out = new Float64Array(queryRows.length);
  queryRows.forEach((q, k) => {
    let best = Infinity;
    for (const r of referenceRows) {
      if (excludeSameIndex && r === q) continue;
      const d = scaledGowerDistance(queries, q, reference, r, m, isNumeric, best);
      if (d < best) best = d;
      if (best === 0) break;
    }
    out[k] = best / m;
  });
  return out.sort();
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
 * Throws when either table has fewer than two rows.
 */
export function disclosureByRowKeys(real: Table, synth: Table, rng: Rng): DisclosureDiagnostics {
  if (real.nRows < 2 || synth.nRows < 1)
    throw new RangeError('Disclosure checks need at least two real rows and one synthetic row.');
  const { m, isNumeric, realRows, synthRows } = encodeForDistance(real, synth);

  const realKeyCounts = new Map<string, number>();
  const realKeys: string[] = [];
  for (let i = 0; i < real.nRows; i++) {
    const key = rowKey(realRows, i, m);
    realKeys.push(key);
    realKeyCounts.set(key, (realKeyCounts.get(key) ?? 0) + 1);
  }
  let synthMatches = 0;
  for (let i = 0; i < synth.nRows; i++) if (realKeyCounts.has(rowKey(synthRows, i, m))) synthMatches++;
  let realDuplicates = 0;
  for (const key of realKeys) if (realKeyCounts.get(key)! > 1) realDuplicates++;

  const referenceRows = sampleIndicesWithoutReplacement(real.nRows, DISCLOSURE_MAX_REFERENCE_ROWS, rng);
  const synthQueries = sampleIndicesWithoutReplacement(synth.nRows, DISCLOSURE_MAX_QUERY_ROWS, rng);
  const realQueries = sampleIndicesWithoutReplacement(real.nRows, DISCLOSURE_MAX_QUERY_ROWS, rng);
  const synthToReal = closestDistances(synthRows, synthQueries, realRows, referenceRows, m, isNumeric, false);
  const realToReal = closestDistances(realRows, realQueries, realRows, referenceRows, m, isNumeric, true);
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
