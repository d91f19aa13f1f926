import type { Column, Table } from '../table/types';
import { ksTwoSampleStatisticSorted } from '../stats/ks-two-sample';
import { meanAndSampleSdIgnoringMissing } from '../stats/sample-moments';
import { wassersteinOneSorted } from '../stats/wasserstein-one';
import { alignColumnsByName } from './align-columns';
import { encodeColumnCells } from './column-cells';
import { DEFAULT_TVD_BINS, encodeMarginalCells } from './marginal-cells';
import { MARGINAL_MAX_LEVEL_BARS, marginalOverlay } from './marginal-overlay';
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

export { MARGINAL_MAX_LEVEL_BARS };

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

/** The overlay bars of one column (core marginalOverlay, the studio's charts), with the report's `synth` key. */
function marginalBars(real: Table, synth: Table, name: string, bins: number): MarginalBar[] {
  return marginalOverlay(encodeColumnCells(real, [synth], name, bins)).map((bar) => ({
    label: bar.label,
    kind: bar.kind,
    real: bar.real,
    synth: bar.synthetic,
  }));
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
      marginal: marginalBars(real, synth, pair.name, bins),
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
