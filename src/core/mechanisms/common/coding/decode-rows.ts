import type { Rng } from '../../../rng/types';
import { uniformBigInt, uniformInt } from '../../../rng/uniform-int';
import type { Column, Table } from '../../../table/types';
import { isShaped, shapedNumericValue } from './bin-shape';
import { cellStrides, missingLevelOf, type ColumnCoding } from './column-coding';

/**
 * One synthetic column from the level of each row (post-processing of a DP output):
 * - the missing level → a missing value (NaN with the flag set, or code 0 with the flag set); a
 *   complete column has no missing level, so it never yields a missing value;
 * - a categorical level → that category (the dictionary is the declared category list);
 * - a real bin j → lo + (j + U)·(hi − lo)/bins with U uniform on [0, 1), kept ≤ hi;
 * - an integer bin → a uniform integer among the integers of the bin, so values stay whole and in bounds;
 * - with point masses or quantile bins (bin-shape.ts): a point-mass level → exactly its value, a
 *   quantile bin → uniform within its learned edges, integer bins skipping the point masses.
 * Cost O(rows).
 */
export function syntheticColumnFromLevels(
  rng: Rng,
  levels: Uint8Array | Uint16Array | Uint32Array,
  coding: ColumnCoding,
  into?: ColumnScratch,
): Column {
  const n = levels.length;
  const missing = into === undefined ? new Uint8Array(n) : into.missing.subarray(0, n).fill(0);
  const missingLevel = missingLevelOf(coding) ?? -1;
  if (coding.kind === 'categorical') {
    const codes = into === undefined ? new Uint32Array(n) : into.codes.subarray(0, n).fill(0);
    for (let i = 0; i < n; i++) {
      if (levels[i] === missingLevel) missing[i] = 1;
      else codes[i] = levels[i]!;
    }
    return { kind: 'categorical', name: coding.name, codes, dictionary: [...coding.categories], missing };
  }
  const values = into === undefined ? new Float64Array(n) : into.values.subarray(0, n);
  const shaped = isShaped(coding);
  for (let i = 0; i < n; i++) {
    const level = levels[i]!;
    if (level === missingLevel) {
      missing[i] = 1;
      values[i] = NaN;
    } else if (shaped) {
      values[i] = shapedNumericValue(rng, level, coding);
    } else if (coding.kind === 'real') {
      const width = (coding.hi - coding.lo) / coding.bins;
      values[i] = Math.min(coding.hi, coding.lo + (level + rng.nextFloat()) * width);
    } else {
      const start = integerBinStart(level, coding.count, coding.bins);
      const end = integerBinStart(level + 1, coding.count, coding.bins);
      const size = end - start;
      // Wide bins (bounds learned far apart hold more than 2^32 integers) draw as a bigint.
      const offset = size <= 2 ** 32 ? uniformInt(rng, size) : Number(uniformBigInt(rng, BigInt(size)));
      values[i] = coding.first + start + offset;
    }
  }
  return { kind: 'numeric', name: coding.name, values, missing };
}

/**
 * Arrays a decoded column may be written into instead of new ones (each at least as long as the
 * levels): for a decoding whose values are dropped, e.g. to advance a generator over them.
 */
export interface ColumnScratch {
  values: Float64Array;
  codes: Uint32Array;
  missing: Uint8Array;
}

/** Scratch arrays for decoding up to `rows` rows of a column of this coding. */
export function columnScratch(coding: ColumnCoding, rows: number): ColumnScratch {
  const categorical = coding.kind === 'categorical';
  return {
    values: new Float64Array(categorical ? 0 : rows),
    codes: new Uint32Array(categorical ? rows : 0),
    missing: new Uint8Array(rows),
  };
}

/** Offset of the first integer of bin j when `count` integers are split into `bins` runs: ceil(j·count/bins). */
export function integerBinStart(bin: number, count: number, bins: number): number {
  return Math.floor((bin * count + bins - 1) / bins);
}

/** The level of column j in every row, read off the mixed-radix cell indices (into `into` when given). Cost O(rows). */
export function levelsFromCells(
  cellOfRow: Uint32Array,
  codings: readonly ColumnCoding[],
  j: number,
  into?: Uint32Array,
): Uint32Array {
  const stride = cellStrides(codings)[j]!;
  const radix = codings[j]!.levels;
  const levels = into === undefined ? new Uint32Array(cellOfRow.length) : into.subarray(0, cellOfRow.length);
  for (let i = 0; i < cellOfRow.length; i++) levels[i] = Math.floor(cellOfRow[i]! / stride) % radix;
  return levels;
}

/** A synthetic table with one column per coding, in coding (schema) order. Cost O(rows · columns). */
export function tableFromCells(rng: Rng, cellOfRow: Uint32Array, codings: readonly ColumnCoding[]): Table {
  const columns = codings.map((coding, j) =>
    syntheticColumnFromLevels(rng, levelsFromCells(cellOfRow, codings, j), coding),
  );
  return { nRows: cellOfRow.length, columns };
}
