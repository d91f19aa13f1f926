import type { Column, Table } from '../table/types';
import { equalWidthBin, pooledNonMissingRange } from './marginal-cells';

/** Label of the cell that holds missing values. */
export const MISSING_CELL_LABEL = '(missing)';

/** One column of a real table and of its synthetic releases, as shared small-integer cells. */
export interface ColumnCells {
  name: string;
  kind: 'numeric' | 'categorical';
  labels: string[];
  /** The cell of missing values (the last one), or null when no table has a missing value there. */
  missingCell: number | null;
  real: Uint32Array;
  synthetic: Uint32Array[];
}

/**
 * Encodes the column `name` of `real` and of every release into the same cells, the way the
 * TVD of DESIGN.md §2 sees them: numeric values in `bins` equal-width bins over the pooled
 * non-missing range (reference/README.md "TVD"), categories matched by their token, and a
 * "(missing)" cell when any of the tables has a missing value there. The one encoding of the overlay
 * charts (marginal-overlay.ts) and the pair heatmaps. O(total rows).
 */
export function encodeColumnCells(real: Table, releases: Table[], name: string, bins = 10): ColumnCells {
  const realColumn = findColumn(real, name);
  const releaseColumns = releases.map((release) => findColumn(release, name));
  const anyMissing = [realColumn, ...releaseColumns].some((column) => column.missing.includes(1));
  if (realColumn.kind === 'numeric') {
    const numericReleases = releaseColumns.map((column) => expectKind(column, 'numeric'));
    return encodeNumeric(realColumn, numericReleases, bins, anyMissing);
  }
  const categoricalReleases = releaseColumns.map((column) => expectKind(column, 'categorical'));
  return encodeCategorical(realColumn, categoricalReleases, anyMissing);
}

/** Counts of each cell divided by the number of rows: the column's marginal shares. */
export function cellShares(cells: Uint32Array, cellCount: number): number[] {
  const counts = new Float64Array(cellCount);
  for (let i = 0; i < cells.length; i++) counts[cells[i]!]! += 1;
  const n = Math.max(1, cells.length);
  return Array.from(counts, (count) => count / n);
}

/**
 * Label of a numeric bin [lo, hi) with two significant digits of the width (width 2 → one decimal)
 * and a typographic minus sign: "−10.2 – −8.4".
 */
export function formatBinLabel(lo: number, hi: number): string {
  const width = Math.abs(hi - lo);
  const digits = width === 0 ? 2 : Math.max(0, Math.min(6, 1 - Math.floor(Math.log10(width))));
  const format = (value: number) => value.toFixed(digits).replace(/^-/, '−');
  return `${format(lo)} – ${format(hi)}`;
}

type NumericColumn = Column & { kind: 'numeric' };
type CategoricalColumn = Column & { kind: 'categorical' };

function encodeNumeric(
  real: NumericColumn,
  releases: NumericColumn[],
  bins: number,
  anyMissing: boolean,
): ColumnCells {
  const { lo, hi } = pooledNonMissingRange([real, ...releases]);
  const binCount = hi === lo ? 1 : bins;
  const width = (hi - lo) / binCount;
  const labels = Array.from({ length: binCount }, (_, b) =>
    hi === lo
      ? formatBinLabel(lo, hi)
      : formatBinLabel(lo + b * width, b === binCount - 1 ? hi : lo + (b + 1) * width),
  );
  if (anyMissing) labels.push(MISSING_CELL_LABEL);
  const encode = (column: NumericColumn) => {
    const cells = new Uint32Array(column.values.length);
    for (let i = 0; i < cells.length; i++) {
      cells[i] = column.missing[i] === 1 ? binCount : equalWidthBin(column.values[i]!, lo, hi, binCount);
    }
    return cells;
  };
  return {
    name: real.name,
    kind: 'numeric' as const,
    labels,
    missingCell: anyMissing ? binCount : null,
    real: encode(real),
    synthetic: releases.map(encode),
  };
}

function encodeCategorical(
  real: CategoricalColumn,
  releases: CategoricalColumn[],
  anyMissing: boolean,
): ColumnCells {
  const tokenIndex = new Map<string, number>();
  const labels: string[] = [];
  const mapping = (column: CategoricalColumn) =>
    Uint32Array.from(column.dictionary, (token) => {
      let index = tokenIndex.get(token);
      if (index === undefined) {
        index = labels.length;
        tokenIndex.set(token, index);
        labels.push(token);
      }
      return index;
    });
  const mappings = [real, ...releases].map(mapping);
  const missingCell = labels.length;
  if (anyMissing) labels.push(MISSING_CELL_LABEL);
  const encode = (column: CategoricalColumn, map: Uint32Array) => {
    const cells = new Uint32Array(column.codes.length);
    for (let i = 0; i < cells.length; i++)
      cells[i] = column.missing[i] === 1 ? missingCell : map[column.codes[i]!]!;
    return cells;
  };
  return {
    name: real.name,
    kind: 'categorical' as const,
    labels,
    missingCell: anyMissing ? missingCell : null,
    real: encode(real, mappings[0]!),
    synthetic: releases.map((column, r) => encode(column, mappings[r + 1]!)),
  };
}

function findColumn(table: Table, name: string): Column {
  const column = table.columns.find((candidate) => candidate.name === name);
  if (column === undefined)
    throw new Error(`The table has no column named "${name}"; pick one of its columns.`);
  return column;
}

function expectKind<K extends Column['kind']>(column: Column, kind: K): Column & { kind: K } {
  if (column.kind !== kind)
    throw new Error(
      `Column "${column.name}" is ${column.kind} in a release and ${kind} in the real table; compare tables with the same schema.`,
    );
  return column as Column & { kind: K };
}
