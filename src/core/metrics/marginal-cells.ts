import type { Column, Table } from '../table/types';
import { alignCategoricalCodes, alignColumnsByName } from './align-columns';

/** Default number of equal-width bins for numeric columns (DESIGN.md §2, CLI contract). */
export const DEFAULT_TVD_BINS = 10;

/** Cell codes in the smallest unsigned array that holds 0 … cellCount − 1. */
export type CellArray = Uint8Array | Uint16Array | Uint32Array;

/** An array of `length` cell codes able to hold codes below `cellCount`. */
function cellArray(length: number, cellCount: number): CellArray {
  if (cellCount <= 256) return new Uint8Array(length);
  if (cellCount <= 65_536) return new Uint16Array(length);
  return new Uint32Array(length);
}

/** The codes in the smallest array for `cellCount` codes (the same array when that is 32-bit). */
function compactCells(codes: Uint32Array, cellCount: number): CellArray {
  if (cellCount > 65_536) return codes;
  const out = cellArray(codes.length, cellCount);
  out.set(codes);
  return out;
}

/** One column of both tables encoded as small integer cells 0 … cellCount − 1. */
export interface EncodedMarginalColumn {
  name: string;
  kind: 'numeric' | 'categorical';
  /** Number of distinct cell codes the column can take (bins + missing, or tokens + missing). */
  cellCount: number;
  /** Cell codes, one a row: one byte a row when cellCount ≤ 256, two when ≤ 65,536. */
  realCells: CellArray;
  synthCells: CellArray;
  /** Numeric: the pooled non-missing range the bins divide (lo = hi = 0 when nothing is observed). */
  range?: { lo: number; hi: number };
  /** Categorical: the token of each cell code below the missing code. */
  tokens?: string[];
}

/** Both tables encoded once, ready for any k-way marginal. */
export interface EncodedMarginalTables {
  bins: number;
  nReal: number;
  nSynth: number;
  columns: EncodedMarginalColumn[];
}

/**
 * Equal-width bin of a numeric value over the pooled range [lo, hi] (reference/README.md "TVD",
 * normative): `min(B − 1, floor(((x − lo) / (hi − lo)) · B))`, evaluated in IEEE-754 double in
 * exactly this order so that bins match tvd_ref.py bit for bit; every value is in bin 0 when
 * hi == lo. Example: x = 5, lo = 0, hi = 10, B = 10 → 5.
 */
export function equalWidthBin(x: number, lo: number, hi: number, bins: number): number {
  if (hi === lo) return 0;
  return Math.min(bins - 1, Math.floor(((x - lo) / (hi - lo)) * bins));
}

/**
 * The smallest and largest non-missing value over all `columns` (reference/README.md "TVD": the
 * pooled range the bins divide); lo = hi = 0 when no value is observed. O(total rows).
 */
export function pooledNonMissingRange(columns: readonly (Column & { kind: 'numeric' })[]): {
  lo: number;
  hi: number;
} {
  let lo = Infinity;
  let hi = -Infinity;
  for (const column of columns) {
    for (let i = 0; i < column.values.length; i++) {
      if (column.missing[i] === 1) continue;
      const x = column.values[i]!;
      if (x < lo) lo = x;
      if (x > hi) hi = x;
    }
  }
  // No observed value at all: every cell is the missing cell, the range is irrelevant.
  return lo <= hi ? { lo, hi } : { lo: 0, hi: 0 };
}

function binNumericColumn(column: Column & { kind: 'numeric' }, lo: number, hi: number, bins: number) {
  const cells = cellArray(column.values.length, bins + 1);
  for (let i = 0; i < cells.length; i++) {
    cells[i] = column.missing[i] === 1 ? bins : equalWidthBin(column.values[i]!, lo, hi, bins);
  }
  return cells;
}

/**
 * Encodes every column of a real and a synthetic table as integer cells for marginal counting,
 * following reference/README.md "TVD": numeric columns are cut into `bins` equal-width bins over
 * the pooled (real ∪ synthetic) non-missing range with missing as cell `bins`; a categorical cell
 * is the token (categories are matched by string across the two dictionaries) with missing as its
 * own cell. Columns come in the real table's order; constant columns are kept. O(m · (n_r + n_s)).
 */
export function encodeMarginalCells(
  real: Table,
  synth: Table,
  bins: number = DEFAULT_TVD_BINS,
): EncodedMarginalTables {
  if (!Number.isInteger(bins) || bins < 1) throw new Error(`bins must be a positive integer, got ${bins}.`);
  const columns: EncodedMarginalColumn[] = alignColumnsByName(real, synth).map((pair) => {
    if (pair.real.kind === 'numeric' && pair.synth.kind === 'numeric') {
      const { lo, hi } = pooledNonMissingRange([pair.real, pair.synth]);
      return {
        name: pair.name,
        kind: 'numeric',
        cellCount: bins + 1,
        realCells: binNumericColumn(pair.real, lo, hi, bins),
        synthCells: binNumericColumn(pair.synth, lo, hi, bins),
        range: { lo, hi },
      };
    }
    if (pair.real.kind === 'categorical' && pair.synth.kind === 'categorical') {
      const aligned = alignCategoricalCodes(pair.real, pair.synth);
      return {
        name: pair.name,
        kind: 'categorical',
        cellCount: aligned.missingCode + 1,
        realCells: compactCells(aligned.realCodes, aligned.missingCode + 1),
        synthCells: compactCells(aligned.synthCodes, aligned.missingCode + 1),
        tokens: aligned.tokens,
      };
    }
    throw new Error(`Column "${pair.name}" has different kinds in the two tables.`);
  });
  return { bins, nReal: real.nRows, nSynth: synth.nRows, columns };
}
