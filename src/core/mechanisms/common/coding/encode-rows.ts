import { InputError } from '../../../table/errors';
import type { Column, Table } from '../../../table/types';
import { isShaped, shapedNumericLevel } from './bin-shape';
import { cellStrides, missingLevelOf, type ColumnCoding } from './column-coding';

/**
 * The level of every row of one column under its coding (see ColumnCoding). The map from a row's
 * value to its level is fixed by the schema and parameters, so under replace-one neighbours one
 * changed row moves at most one count of any cross-tabulation built from these levels.
 * - missing (flag set, or NaN) → the missing level; in a complete column (no missing level) an
 *   InputError naming the column;
 * - numeric → clamped into the bounds, then its bin (integer columns round to the nearest integer first);
 * - categorical → its index in the declared categories; a value outside them → the missing level.
 * Cost O(nRows).
 */
export function levelsOfColumn(column: Column, coding: ColumnCoding): Uint32Array {
  const n = column.missing.length;
  const levels = new Uint32Array(n);
  // A complete column has no missing level: meeting a missing value there is an error.
  const missingLevel = missingLevelOf(coding);
  const missingValue = missingLevel === undefined ? () => incompleteColumn(coding.name) : () => missingLevel;
  if (coding.kind === 'categorical') {
    if (column.kind !== 'categorical')
      throw new Error(`column \`${coding.name}\` is numeric in the table but categorical in the schema.`);
    const categoryIndex = new Map(coding.categories.map((category, index) => [category, index]));
    const levelOfCode = column.dictionary.map((value) => categoryIndex.get(value));
    for (let i = 0; i < n; i++) {
      const level = column.missing[i] === 1 ? undefined : levelOfCode[column.codes[i]!];
      levels[i] = level ?? missingValue();
    }
    return levels;
  }
  if (column.kind !== 'numeric')
    throw new Error(`column \`${coding.name}\` is categorical in the table but numeric in the schema.`);
  for (let i = 0; i < n; i++) {
    const value = column.values[i]!;
    levels[i] = column.missing[i] === 1 || Number.isNaN(value) ? missingValue() : numericLevel(value, coding);
  }
  return levels;
}

/** The level of a missing value in a complete column: none, so an error for the data holder. */
export function incompleteColumn(name: string): never {
  throw new InputError(
    `column \`${name}\` has missing values (or categories outside the list), but the schema says it cannot ` +
      'be missing ("canBeMissing": false): mark it as one that can be missing to synthesize missing values ' +
      'as a level of their own, or drop the incomplete rows.',
    { column: name },
  );
}

/** The bin of a present numeric value; values outside the bounds land in the edge bins. */
export function numericLevel(value: number, coding: Exclude<ColumnCoding, { kind: 'categorical' }>): number {
  if (isShaped(coding)) return shapedNumericLevel(value, coding);
  if (coding.kind === 'real') {
    const position = ((value - coding.lo) / (coding.hi - coding.lo)) * coding.bins;
    return Math.min(coding.bins - 1, Math.max(0, Math.floor(position)));
  }
  const offset = Math.min(coding.count - 1, Math.max(0, Math.round(value) - coding.first));
  return Math.floor((offset * coding.bins) / coding.count);
}

/** The table column holding each coding's values, matched by name; throws when one is absent. */
export function columnsForCodings(table: Table, codings: readonly ColumnCoding[]): Column[] {
  const byName = new Map(table.columns.map((column) => [column.name, column]));
  return codings.map((coding) => {
    const column = byName.get(coding.name);
    if (!column) throw new Error(`the table has no column \`${coding.name}\` named in the schema.`);
    return column;
  });
}

/**
 * The cross-tabulation cell of every row: Σ_j level_j · stride_j (last column fastest).
 * Requires a domain of at most 2^32 cells (the mechanisms' limit is far below). Cost O(nRows · columns).
 */
export function cellOfEveryRow(table: Table, codings: readonly ColumnCoding[]): Uint32Array {
  const strides = cellStrides(codings);
  const columns = columnsForCodings(table, codings);
  const cells = new Uint32Array(table.nRows);
  codings.forEach((coding, j) => {
    const levels = levelsOfColumn(columns[j]!, coding);
    const stride = strides[j]!;
    for (let i = 0; i < cells.length; i++) cells[i] += levels[i]! * stride;
  });
  return cells;
}
