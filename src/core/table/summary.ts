import type { CategoricalColumn, NumericColumn, Table } from './types';

/** What the studio's column card shows about one column. Computed from the real data: not DP, not for release. */
export interface ColumnSummary {
  name: string;
  kind: 'numeric' | 'categorical';
  /** Share of rows with a missing value, in [0, 1]. */
  missingRate: number;
  /** Distinct non-missing values. */
  distinct: number;
  min?: number;
  max?: number;
  mean?: number;
  /** Sample standard deviation (divisor n − 1); absent with fewer than two values. */
  sd?: number;
  /** Most frequent categories, most frequent first (ties in dictionary order). */
  topCategories?: { value: string; count: number }[];
  /** Numeric: equal-width bins over [min, max] (one bin per value for small integer ranges). Categorical: top categories, then "(other)". */
  histogram: { label: string; count: number }[];
}

export interface SummarizeOptions {
  /** Number of histogram bins for numeric columns (default 20). */
  bins?: number;
  /** Number of top categories listed (default 10). */
  top?: number;
}

const OTHER_LABEL = '(other)';

/** Short number for a bin label: four significant digits, no trailing zeros. */
function formatBinEdge(value: number): string {
  return String(Number(value.toPrecision(4)));
}

/**
 * Mean and sample standard deviation by the two-pass algorithm (Chan, Golub & LeVeque 1983, "Algorithms
 * for computing the sample variance", §2): mean = Σx/n, then s² = Σ(x − mean)² / (n − 1). The second pass
 * avoids the cancellation of the one-pass Σx² − n·mean² formula. O(n).
 */
function meanAndSampleSd(values: Float64Array, missing: Uint8Array): { n: number; mean: number; sd: number } {
  let n = 0;
  let sum = 0;
  for (let i = 0; i < values.length; i++) {
    if (missing[i] === 1) continue;
    n++;
    sum += values[i]!;
  }
  const mean = n > 0 ? sum / n : NaN;
  let squares = 0;
  for (let i = 0; i < values.length; i++) {
    if (missing[i] === 1) continue;
    const deviation = values[i]! - mean;
    squares += deviation * deviation;
  }
  return { n, mean, sd: n > 1 ? Math.sqrt(squares / (n - 1)) : NaN };
}

/**
 * Histogram of the non-missing values: one bin per integer when every value is whole and the range
 * holds at most `bins` integers; otherwise `bins` equal-width bins [a, b) over [min, max], the last
 * one closed. O(n).
 */
function numericHistogram(
  column: NumericColumn,
  min: number,
  max: number,
  bins: number,
  allWhole: boolean,
): { label: string; count: number }[] {
  const { values, missing } = column;
  if (allWhole && max - min + 1 <= bins) {
    const counts = new Array<number>(max - min + 1).fill(0);
    for (let i = 0; i < values.length; i++) if (missing[i] === 0) counts[values[i]! - min]!++;
    return counts.map((count, k) => ({ label: String(min + k), count }));
  }
  const width = (max - min) / bins;
  const counts = new Array<number>(bins).fill(0);
  for (let i = 0; i < values.length; i++) {
    if (missing[i] === 1) continue;
    const bin = Math.min(bins - 1, Math.floor((values[i]! - min) / width));
    counts[bin]!++;
  }
  return counts.map((count, k) => {
    const lower = min + k * width;
    const upper = k === bins - 1 ? max : min + (k + 1) * width;
    const close = k === bins - 1 ? ']' : ')';
    return { label: `[${formatBinEdge(lower)}, ${formatBinEdge(upper)}${close}`, count };
  });
}

function summarizeNumeric(column: NumericColumn, nRows: number, bins: number): ColumnSummary {
  const { values, missing } = column;
  let min = Infinity;
  let max = -Infinity;
  let allWhole = true;
  const distinct = new Set<number>();
  for (let i = 0; i < values.length; i++) {
    if (missing[i] === 1) continue;
    const value = values[i]!;
    if (value < min) min = value;
    if (value > max) max = value;
    if (allWhole && !Number.isInteger(value)) allWhole = false;
    distinct.add(value);
  }
  const { n, mean, sd } = meanAndSampleSd(values, missing);
  const summary: ColumnSummary = {
    name: column.name,
    kind: 'numeric',
    missingRate: nRows > 0 ? (nRows - n) / nRows : 0,
    distinct: distinct.size,
    histogram: [],
  };
  if (n === 0) return summary;
  summary.min = min;
  summary.max = max;
  summary.mean = mean;
  if (n > 1) summary.sd = sd;
  summary.histogram =
    min === max
      ? [{ label: formatBinEdge(min), count: n }]
      : numericHistogram(column, min, max, bins, allWhole);
  return summary;
}

function summarizeCategorical(column: CategoricalColumn, nRows: number, top: number): ColumnSummary {
  const counts = new Array<number>(column.dictionary.length).fill(0);
  let present = 0;
  for (let i = 0; i < column.codes.length; i++) {
    if (column.missing[i] === 1) continue;
    counts[column.codes[i]!]!++;
    present++;
  }
  const ranked = column.dictionary
    .map((value, code) => ({ value, count: counts[code]! }))
    .filter((entry) => entry.count > 0)
    .sort((a, b) => b.count - a.count);
  const topCategories = ranked.slice(0, top);
  const histogram = topCategories.map((entry) => ({ label: entry.value, count: entry.count }));
  const otherCount = present - topCategories.reduce((sum, entry) => sum + entry.count, 0);
  if (otherCount > 0) histogram.push({ label: OTHER_LABEL, count: otherCount });
  return {
    name: column.name,
    kind: 'categorical',
    missingRate: nRows > 0 ? (nRows - present) / nRows : 0,
    distinct: ranked.length,
    topCategories,
    histogram,
  };
}

/**
 * Per-column summaries for the studio's column cards: missing rate, distinct count, range, mean and
 * sample sd, top categories and a histogram. Reads the real data: for the data holder's eyes only.
 * O(rows × columns).
 */
export function summarizeTable(table: Table, opts: SummarizeOptions = {}): ColumnSummary[] {
  const bins = Math.max(1, Math.floor(opts.bins ?? 20));
  const top = Math.max(1, Math.floor(opts.top ?? 10));
  return table.columns.map((column) =>
    column.kind === 'numeric'
      ? summarizeNumeric(column, table.nRows, bins)
      : summarizeCategorical(column, table.nRows, top),
  );
}
