import type { Column, Table } from '../table/types';
import { ksTwoSampleStatisticSorted } from '../stats/ks-two-sample';
import { meanAndSampleSdIgnoringMissing } from '../stats/sample-moments';
import { wassersteinOneSorted } from '../stats/wasserstein-one';
import { alignColumnsByName } from './align-columns';
import { DEFAULT_TVD_BINS, encodeMarginalCells, type EncodedMarginalColumn } from './marginal-cells';
import { tvdOfEncodedSubset } from './tvd';

/** A real-versus-synthetic pair of numbers. */
export interface RealSynthPair<T> {
  real: T;
  synth: T;
}

/** One bar of a marginal overlay: shares of rows (missing included in the denominator). */
export interface MarginalBar {
  label: string;
  /** 'bin' and 'level' are data cells, 'missing' the missing cell, 'other' the pooled rare levels. */
  kind: 'bin' | 'level' | 'missing' | 'other';
  real: number;
  synth: number;
}

interface ColumnComparisonBase {
  name: string;
  /** One-way TVD of the column (numeric: equal-width bins; missing its own cell), as tvdKWay(…, 1). */
  tvd: number;
  missingRate: RealSynthPair<number>;
  /** Shares per cell for overlay charts. */
  marginal: MarginalBar[];
}

export interface NumericColumnComparison extends ColumnComparisonBase {
  kind: 'numeric';
  /** Two-sample Kolmogorov–Smirnov statistic on the non-missing values; null if a side has none. */
  ks: number | null;
  /** Wasserstein-1 distance in the column's units on the non-missing values; null if a side has none. */
  wasserstein: number | null;
  /** wasserstein / (pooled max − pooled min); null when the range is 0 or a side has no values. */
  wassersteinRangeNormalized: number | null;
  mean: RealSynthPair<number | null>;
  /** Sample standard deviation (divisor n − 1). */
  sd: RealSynthPair<number | null>;
}

export interface CategoricalColumnComparison extends ColumnComparisonBase {
  kind: 'categorical';
}

export type ColumnComparison = NumericColumnComparison | CategoricalColumnComparison;

/** At most this many bars per categorical column; rarer levels are pooled into one 'other' bar. */
export const MARGINAL_MAX_LEVEL_BARS = 50;

function missingRate(column: Column, nRows: number): number {
  let missing = 0;
  for (let i = 0; i < nRows; i++) missing += column.missing[i] === 1 ? 1 : 0;
  return nRows === 0 ? 0 : missing / nRows;
}

function sortedNonMissing(column: Column & { kind: 'numeric' }): Float64Array {
  let count = 0;
  for (let i = 0; i < column.values.length; i++) if (column.missing[i] !== 1) count++;
  const out = new Float64Array(count);
  let k = 0;
  for (let i = 0; i < column.values.length; i++) if (column.missing[i] !== 1) out[k++] = column.values[i]!;
  return out.sort();
}

function cellShares(encoded: EncodedMarginalColumn, nReal: number, nSynth: number) {
  const real = new Float64Array(encoded.cellCount);
  const synth = new Float64Array(encoded.cellCount);
  for (let i = 0; i < encoded.realCells.length; i++) real[encoded.realCells[i]!]!++;
  for (let i = 0; i < encoded.synthCells.length; i++) synth[encoded.synthCells[i]!]!++;
  for (let c = 0; c < encoded.cellCount; c++) {
    real[c]! /= nReal;
    synth[c]! /= nSynth;
  }
  return { real, synth };
}

function formatBinLabel(lo: number, hi: number, bins: number, j: number): string {
  if (hi === lo) return String(lo);
  const width = (hi - lo) / bins;
  const left = lo + j * width;
  const right = j === bins - 1 ? hi : lo + (j + 1) * width;
  return `[${left.toPrecision(4)}, ${right.toPrecision(4)}${j === bins - 1 ? ']' : ')'}`;
}

/**
 * Bars for an overlay chart: numeric columns one bar per equal-width bin (the same bins as the TVD)
 * then the missing cell if any row is missing; categorical columns one bar per level, most frequent
 * (pooled shares) first, with levels beyond MARGINAL_MAX_LEVEL_BARS − 1 pooled into 'other'.
 */
function marginalBars(
  encoded: EncodedMarginalColumn,
  bins: number,
  nReal: number,
  nSynth: number,
): MarginalBar[] {
  const { real, synth } = cellShares(encoded, nReal, nSynth);
  const missingCode = encoded.cellCount - 1;
  const bars: MarginalBar[] = [];
  if (encoded.kind === 'numeric') {
    const { lo, hi } = encoded.range!;
    const usedBins = hi === lo ? 1 : bins;
    for (let j = 0; j < usedBins; j++) {
      bars.push({ label: formatBinLabel(lo, hi, bins, j), kind: 'bin', real: real[j]!, synth: synth[j]! });
    }
  } else {
    const tokens = encoded.tokens!;
    const order = tokens
      .map((_, code) => code)
      .filter((code) => real[code]! > 0 || synth[code]! > 0)
      .sort((a, b) => real[b]! + synth[b]! - (real[a]! + synth[a]!) || (tokens[a]! < tokens[b]! ? -1 : 1));
    const shown =
      order.length > MARGINAL_MAX_LEVEL_BARS ? order.slice(0, MARGINAL_MAX_LEVEL_BARS - 1) : order;
    for (const code of shown)
      bars.push({ label: tokens[code]!, kind: 'level', real: real[code]!, synth: synth[code]! });
    if (shown.length < order.length) {
      let otherReal = 0;
      let otherSynth = 0;
      for (const code of order.slice(shown.length)) {
        otherReal += real[code]!;
        otherSynth += synth[code]!;
      }
      bars.push({
        label: `${order.length - shown.length} other levels`,
        kind: 'other',
        real: otherReal,
        synth: otherSynth,
      });
    }
  }
  if (real[missingCode]! > 0 || synth[missingCode]! > 0) {
    bars.push({ label: 'missing', kind: 'missing', real: real[missingCode]!, synth: synth[missingCode]! });
  }
  return bars;
}

/**
 * Column-by-column comparison of a real and a synthetic table, in the real table's column order:
 * - every column: one-way TVD ½ Σ |p − q| over cells (numeric columns in `bins` equal-width bins over
 *   the pooled range, missing its own cell; reference/README.md "TVD"), missing rates, overlay bars;
 * - numeric columns, on non-missing values: the two-sample Kolmogorov–Smirnov statistic
 *   sup |F_r − F_s| and the Wasserstein-1 distance ∫ |F_r − F_s| dx (as scipy.stats.ks_2samp and
 *   wasserstein_distance), means and sample standard deviations.
 * Categories are matched by token across the two dictionaries. Cost O(m · n log n).
 */
export function compareColumns(real: Table, synth: Table, opts?: { bins?: number }): ColumnComparison[] {
  const bins = opts?.bins ?? DEFAULT_TVD_BINS;
  const encoded = encodeMarginalCells(real, synth, bins);
  const pairs = alignColumnsByName(real, synth);
  return pairs.map((pair, j): ColumnComparison => {
    const encodedColumn = encoded.columns[j]!;
    const base = {
      name: pair.name,
      tvd: tvdOfEncodedSubset(encoded, [j]),
      missingRate: { real: missingRate(pair.real, real.nRows), synth: missingRate(pair.synth, synth.nRows) },
      marginal: marginalBars(encodedColumn, bins, real.nRows, synth.nRows),
    };
    if (pair.real.kind !== 'numeric' || pair.synth.kind !== 'numeric')
      return { ...base, kind: 'categorical' };
    const sortedReal = sortedNonMissing(pair.real);
    const sortedSynth = sortedNonMissing(pair.synth);
    const bothObserved = sortedReal.length > 0 && sortedSynth.length > 0;
    const wasserstein = bothObserved ? wassersteinOneSorted(sortedReal, sortedSynth) : null;
    const { lo, hi } = encodedColumn.range!;
    const realMoments = meanAndSampleSdIgnoringMissing(pair.real.values, pair.real.missing);
    const synthMoments = meanAndSampleSdIgnoringMissing(pair.synth.values, pair.synth.missing);
    return {
      ...base,
      kind: 'numeric',
      ks: bothObserved ? ksTwoSampleStatisticSorted(sortedReal, sortedSynth) : null,
      wasserstein,
      wassersteinRangeNormalized: wasserstein !== null && hi > lo ? wasserstein / (hi - lo) : null,
      mean: { real: realMoments.mean, synth: synthMoments.mean },
      sd: { real: realMoments.sd, synth: synthMoments.sd },
    };
  });
}
