import type { Rng } from '../../rng/types';
import { uniformBigInt, uniformInt } from '../../rng/uniform-int';
import type { Column, Table } from '../../table/types';
import { cellStrides, type ColumnCoding } from './column-coding';

/**
 * One synthetic column from the level of each row (post-processing of a DP output):
 * - the missing level → a missing value (NaN with the flag set, or code 0 with the flag set);
 * - a categorical level → that category (the dictionary is the declared category list);
 * - a real bin j → lo + (j + U)·(hi − lo)/bins with U uniform on [0, 1), kept ≤ hi;
 * - an integer bin → a uniform integer among the integers of the bin, so values stay whole and in bounds.
 * Cost O(rows).
 */
export function syntheticColumnFromLevels(
  rng: Rng,
  levels: Uint8Array | Uint16Array | Uint32Array,
  coding: ColumnCoding,
): Column {
  const n = levels.length;
  const missing = new Uint8Array(n);
  const missingLevel = coding.levels - 1;
  if (coding.kind === 'categorical') {
    const codes = new Uint32Array(n);
    for (let i = 0; i < n; i++) {
      if (levels[i] === missingLevel) missing[i] = 1;
      else codes[i] = levels[i]!;
    }
    return { kind: 'categorical', name: coding.name, codes, dictionary: [...coding.categories], missing };
  }
  const values = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const level = levels[i]!;
    if (level === missingLevel) {
      missing[i] = 1;
      values[i] = NaN;
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

/** Offset of the first integer of bin j when `count` integers are split into `bins` runs: ceil(j·count/bins). */
export function integerBinStart(bin: number, count: number, bins: number): number {
  return Math.floor((bin * count + bins - 1) / bins);
}

/** The level of column j in every row, read off the mixed-radix cell indices. Cost O(rows). */
export function levelsFromCells(
  cellOfRow: Uint32Array,
  codings: readonly ColumnCoding[],
  j: number,
): Uint32Array {
  const stride = cellStrides(codings)[j]!;
  const radix = codings[j]!.levels;
  const levels = new Uint32Array(cellOfRow.length);
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
