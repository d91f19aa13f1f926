import type { CategoricalColumn, Column, NumericColumn, Schema, Table } from '../../table/types';
import { incompleteColumn } from '../common/coding/encode-rows';

/** m of a missing numeric value: with u = ½ it lies at distance exactly 1 from every present (u, 0). */
export const MISSING_NUMERIC_MARK = Math.sqrt(3) / 2;
/** Scale of a one-hot block: two different levels lie at distance exactly 1. */
export const ONE_HOT_SCALE = Math.SQRT1_2;

/**
 * A numeric column's block: coordinates (u, m) at `offset`, `offset + 1`; a complete column (the schema
 * says it cannot be missing) has u alone, no missing mark.
 */
export interface NumericBlock {
  kind: 'numeric';
  name: string;
  offset: number;
  lo: number;
  hi: number;
  integer: boolean;
  complete: boolean;
}

/**
 * A categorical column's block: one coordinate per declared level, then one for missing unless the
 * column is complete (the schema says it cannot be missing).
 */
export interface CategoricalBlock {
  kind: 'categorical';
  name: string;
  offset: number;
  categories: string[];
  complete: boolean;
}

export type EncodedBlock = NumericBlock | CategoricalBlock;

/**
 * The schema-only encoding of the rows: every encoded column is a block of diameter at most 1, so
 * two rows lie at most √p apart (p encoded columns), whatever the data.
 * - numeric: u = clamp((x − lo)/(hi − lo), 0, 1) and m = 0; missing → u = ½, m = √3/2;
 * - categorical: one-hot over the declared levels and missing, times 1/√2; undeclared → missing.
 * A column the schema says cannot be missing (`canBeMissing: false`) has no missing coordinate (u
 * alone, or the one-hot over its levels); a missing value there is refused, naming the column.
 * The optional label column is not encoded: its levels (and missing, unless complete) are the classes.
 */
export interface ClustmixEncoding {
  blocks: EncodedBlock[];
  /** Encoded dimension d. */
  dimension: number;
  /** Encoded columns p. */
  columns: number;
  /** Coordinates of the numeric u values (for the spread s_k). */
  numericCoordinates: number[];
  /** Upper end of each coordinate's range (the lower end is 0): the box centroids live in. */
  boxUpper: Float64Array;
  /** The label column, or null; `complete` when it cannot be missing (no missing class). */
  label: { name: string; categories: string[]; complete: boolean } | null;
  /** Number of classes: label levels + missing (levels alone for a complete label), or 1 without a label. */
  classes: number;
}

/**
 * The encoding from the schema alone, or the problems that prevent one (numeric column without
 * bounds, categorical without categories, unknown or non-categorical label).
 */
export function planEncoding(
  schema: Schema,
  label: string,
): { encoding: ClustmixEncoding | null; problems: string[] } {
  const problems: string[] = [];
  const blocks: EncodedBlock[] = [];
  let offset = 0;
  let labelSpec: ClustmixEncoding['label'] = null;
  if (label !== '') {
    const column = schema.columns.find((c) => c.name === label);
    if (!column)
      problems.push(
        `The label \`${label}\` is not a column of the schema: name a categorical column or leave it empty.`,
      );
    else if (column.type !== 'categorical')
      problems.push(`The label \`${label}\` is numeric: the label must be a categorical column.`);
    else if ((column.categories ?? []).length === 0)
      problems.push(`needs categories for the label column \`${label}\`: declare them in the schema.`);
    else
      labelSpec = {
        name: label,
        categories: [...column.categories!],
        complete: column.canBeMissing === false,
      };
  }
  for (const column of schema.columns) {
    if (column.name === label) continue;
    // A complete column (canBeMissing false in the schema) has no missing coordinate; absent means one.
    const complete = column.canBeMissing === false;
    if (column.type === 'numeric') {
      const bounds = column.bounds;
      if (!bounds) {
        problems.push(`needs bounds for numeric column \`${column.name}\`: declare them in the schema.`);
        continue;
      }
      const [lo, hi] = bounds;
      if (!Number.isFinite(lo) || !Number.isFinite(hi) || !(lo < hi)) {
        problems.push(
          `needs bounds lower < upper for numeric column \`${column.name}\`; got [${lo}, ${hi}].`,
        );
        continue;
      }
      blocks.push({
        kind: 'numeric',
        name: column.name,
        offset,
        lo,
        hi,
        integer: column.integer === true,
        complete,
      });
      offset += complete ? 1 : 2;
    } else {
      const categories = column.categories ?? [];
      if (categories.length === 0) {
        problems.push(
          `needs categories for categorical column \`${column.name}\`: declare them in the schema.`,
        );
        continue;
      }
      blocks.push({ kind: 'categorical', name: column.name, offset, categories: [...categories], complete });
      offset += categories.length + (complete ? 0 : 1);
    }
  }
  if (problems.length > 0) return { encoding: null, problems };
  const boxUpper = new Float64Array(offset);
  const numericCoordinates: number[] = [];
  for (const block of blocks) {
    if (block.kind === 'numeric') {
      boxUpper[block.offset] = 1;
      if (!block.complete) boxUpper[block.offset + 1] = MISSING_NUMERIC_MARK;
      numericCoordinates.push(block.offset);
    } else {
      const width = categoricalWidth(block);
      for (let j = 0; j < width; j++) boxUpper[block.offset + j] = ONE_HOT_SCALE;
    }
  }
  return {
    encoding: {
      blocks,
      dimension: offset,
      columns: blocks.length,
      numericCoordinates,
      boxUpper,
      label: labelSpec,
      classes: labelSpec ? labelSpec.categories.length + (labelSpec.complete ? 0 : 1) : 1,
    },
    problems,
  };
}

/** Coordinates of a categorical block: its levels, and the missing one unless the column is complete. */
export function categoricalWidth(block: CategoricalBlock): number {
  return block.categories.length + (block.complete ? 0 : 1);
}

/**
 * Encoded rows (row-major n × d) and each row's class (0 without a label; the last class is missing
 * unless the label is complete).
 */
export interface EncodedRows {
  n: number;
  dimension: number;
  values: Float64Array;
  classOfRow: Uint32Array;
}

function columnNamed(table: Table, name: string): Column {
  const column = table.columns.find((c) => c.name === name);
  if (!column) throw new Error(`the table has no column \`${name}\` named in the schema.`);
  return column;
}

/** Index of each dictionary code among the declared categories; undeclared → the missing level. */
function levelOfCodes(column: CategoricalColumn, categories: string[]): Uint32Array {
  const index = new Map(categories.map((category, i) => [category, i]));
  return Uint32Array.from(column.dictionary, (value) => index.get(value) ?? categories.length);
}

/**
 * The level of one row; a missing (or undeclared) value is `missingLevel`, or, in a complete column
 * (no missing level: `complete` set), an InputError naming the column.
 */
function levelOfRow(
  column: CategoricalColumn,
  levelOfCode: Uint32Array,
  row: number,
  missingLevel: number,
  complete: boolean,
): number {
  const level = column.missing[row] === 1 ? missingLevel : (levelOfCode[column.codes[row]!] ?? missingLevel);
  if (complete && level === missingLevel) incompleteColumn(column.name);
  return level;
}

/**
 * Every row in the encoding (a fixed map per row from the schema, so one replaced row changes one
 * encoded row and nothing else). Cost O(n·d).
 */
export function encodeRows(table: Table, encoding: ClustmixEncoding): EncodedRows {
  const n = table.nRows;
  const d = encoding.dimension;
  const values = new Float64Array(n * d);
  for (const block of encoding.blocks) {
    const column = columnNamed(table, block.name);
    if (block.kind === 'numeric') {
      if (column.kind !== 'numeric')
        throw new Error(`column \`${block.name}\` is categorical in the table but numeric in the schema.`);
      encodeNumericColumn(column, block, values, d);
    } else {
      if (column.kind !== 'categorical')
        throw new Error(`column \`${block.name}\` is numeric in the table but categorical in the schema.`);
      const levels = levelOfCodes(column, block.categories);
      const missingLevel = block.categories.length;
      for (let i = 0; i < n; i++) {
        values[i * d + block.offset + levelOfRow(column, levels, i, missingLevel, block.complete)] =
          ONE_HOT_SCALE;
      }
    }
  }
  const classOfRow = new Uint32Array(n);
  if (encoding.label) {
    const column = columnNamed(table, encoding.label.name);
    if (column.kind !== 'categorical')
      throw new Error(
        `column \`${encoding.label.name}\` is numeric in the table but categorical in the schema.`,
      );
    const levels = levelOfCodes(column, encoding.label.categories);
    const missingLevel = encoding.label.categories.length;
    const complete = encoding.label.complete;
    for (let i = 0; i < n; i++) classOfRow[i] = levelOfRow(column, levels, i, missingLevel, complete);
  }
  return { n, dimension: d, values, classOfRow };
}

function encodeNumericColumn(column: NumericColumn, block: NumericBlock, out: Float64Array, d: number): void {
  // Halves, exactly: (x − lo)/(hi − lo) without overflow for declared bounds near ±Number.MAX_VALUE,
  // where x − lo could overflow to ∞ and ∞/∞ = NaN.
  const halfLo = block.lo / 2;
  const halfWidth = block.hi / 2 - halfLo;
  for (let i = 0; i < column.values.length; i++) {
    const x = column.values[i]!;
    if (column.missing[i] === 1 || Number.isNaN(x)) {
      if (block.complete) incompleteColumn(block.name);
      out[i * d + block.offset] = 0.5;
      out[i * d + block.offset + 1] = MISSING_NUMERIC_MARK;
    } else {
      out[i * d + block.offset] = Math.min(1, Math.max(0, (x / 2 - halfLo) / halfWidth));
    }
  }
}
