import type { Column, Table } from '../table/types';
import { compareByCodePoint } from '../table/code-point-order';
import type { CartInput } from './cart/cart-types';

/** The level that stands for a missing categorical value (reference/README.md, preprocessing 4). */
export const MISSING_LEVEL = '<NA>';

/** One model variable over the stacked rows of several tables, after the normative preprocessing. */
export type PooledVariable =
  | { kind: 'numeric'; name: string; values: Float64Array }
  | { kind: 'categorical'; name: string; codes: Uint32Array; levels: string[] };

/** Stacked predictors: rows of tables[0], then tables[1], … */
export interface PooledPredictors {
  rowCounts: number[];
  nRows: number;
  /** Non-constant original columns in table order, then the `<name>_NA` indicators. */
  variables: PooledVariable[];
  droppedConstant: string[];
}

/**
 * Pools the named columns of several tables (matched by name, kinds must agree) with the
 * normative preprocessing of shared/reference/README.md "Common preprocessing", as synthpop's
 * utility.gen does:
 * 4. categorical levels = distinct tokens of the pooled column sorted by Unicode code point, a
 *    missing value being the level "<NA>" (dictionaries are matched by token, unused entries ignored);
 * 5. a column with at most one distinct pooled value (missing counts as a value) is dropped;
 * 6. a numeric column with a missing value gets 0 there and an indicator `<name>_NA` (1 = missing),
 *    appended after all original columns in column order.
 *
 * `columns` (default: all columns of tables[0], in its order) selects and orders the variables.
 * Throws when a table lacks a column or kinds differ. O(total rows × columns + levels log levels).
 */
export function poolPredictors(
  tables: readonly Table[],
  options: { columns?: readonly string[] } = {},
): PooledPredictors {
  if (tables.length === 0) throw new Error('poolPredictors needs at least one table');
  const names = options.columns ?? tables[0]!.columns.map((column) => column.name);
  const rowCounts = tables.map((table) => table.nRows);
  const nRows = rowCounts.reduce((a, b) => a + b, 0);
  const variables: PooledVariable[] = [];
  const indicators: PooledVariable[] = [];
  const droppedConstant: string[] = [];
  for (const name of names) {
    const parts = tables.map((table) => {
      const column = table.columns.find((candidate) => candidate.name === name);
      if (column === undefined) throw new Error(`Column "${name}" is missing from one of the tables.`);
      return column;
    });
    const kind = parts[0]!.kind;
    if (parts.some((column) => column.kind !== kind)) {
      throw new Error(`Column "${name}" is numeric in one table and categorical in another.`);
    }
    if (kind === 'numeric') {
      const pooled = poolNumeric(name, parts as (Column & { kind: 'numeric' })[], nRows);
      if (pooled === null) droppedConstant.push(name);
      else {
        variables.push(pooled.variable);
        if (pooled.indicator !== null) indicators.push(pooled.indicator);
      }
    } else {
      const pooled = poolCategorical(name, parts as (Column & { kind: 'categorical' })[], nRows);
      if (pooled === null) droppedConstant.push(name);
      else variables.push(pooled);
    }
  }
  return { rowCounts, nRows, variables: variables.concat(indicators), droppedConstant };
}

function poolNumeric(
  name: string,
  parts: (Column & { kind: 'numeric' })[],
  nRows: number,
): { variable: PooledVariable; indicator: PooledVariable | null } | null {
  const values = new Float64Array(nRows);
  const missing = new Float64Array(nRows);
  let anyMissing = false;
  let first = NaN;
  let distinct = 0;
  let offset = 0;
  for (const column of parts) {
    const n = column.values.length;
    for (let i = 0; i < n; i++) {
      const value = column.values[i]!;
      if (column.missing[i] === 1 || Number.isNaN(value)) {
        anyMissing = true;
        missing[offset + i] = 1;
        values[offset + i] = 0;
      } else {
        values[offset + i] = value;
        if (distinct === 0) {
          first = value;
          distinct = 1;
        } else if (distinct === 1 && value !== first) distinct = 2;
      }
    }
    offset += n;
  }
  if (distinct + (anyMissing ? 1 : 0) <= 1) return null;
  return {
    variable: { kind: 'numeric', name, values },
    indicator: anyMissing ? { kind: 'numeric', name: `${name}_NA`, values: missing } : null,
  };
}

function poolCategorical(
  name: string,
  parts: (Column & { kind: 'categorical' })[],
  nRows: number,
): PooledVariable | null {
  const used = new Set<string>();
  for (const column of parts) {
    const seen = new Uint8Array(column.dictionary.length);
    for (let i = 0; i < column.codes.length; i++) {
      if (column.missing[i] === 1) used.add(MISSING_LEVEL);
      else seen[column.codes[i]!] = 1;
    }
    seen.forEach((flag, code) => {
      if (flag === 1) used.add(column.dictionary[code]!);
    });
  }
  if (used.size <= 1) return null;
  const levels = Array.from(used).sort(compareByCodePoint);
  const levelIndex = new Map(levels.map((level, index) => [level, index] as const));
  const codes = new Uint32Array(nRows);
  let offset = 0;
  for (const column of parts) {
    const mapping = Uint32Array.from(column.dictionary, (token) => levelIndex.get(token) ?? 0);
    const missingCode = levelIndex.get(MISSING_LEVEL) ?? 0;
    for (let i = 0; i < column.codes.length; i++) {
      codes[offset + i] = column.missing[i] === 1 ? missingCode : mapping[column.codes[i]!]!;
    }
    offset += column.codes.length;
  }
  return { kind: 'categorical', name, codes, levels };
}

/**
 * rpart input from pooled predictors: numeric variables as numbers, categorical variables as
 * factors with the pooled (code-point sorted) level order; labels 0 for the rows of the first
 * table, 1 for the rest (Snoke et al. 2018, Algorithm 1: real = 0, synthetic = 1), unless given.
 */
export function cartInputFromPredictors(pooled: PooledPredictors, labels?: Uint8Array): CartInput {
  const y = labels ?? new Uint8Array(pooled.nRows).fill(1, pooled.rowCounts[0] ?? 0);
  return {
    n: pooled.nRows,
    y,
    columns: pooled.variables.map((variable) =>
      variable.kind === 'numeric'
        ? { kind: 'numeric' as const, values: variable.values }
        : { kind: 'categorical' as const, codes: variable.codes, nLevels: variable.levels.length },
    ),
  };
}

/** A dense design matrix, row-major. */
export interface DesignMatrix {
  /** nRows × nColumns, row-major: X[i * nColumns + j]. */
  X: Float64Array;
  nRows: number;
  nColumns: number;
  /** R-style names: "(Intercept)", "age", "regionsouth", "age:regionsouth". */
  columnNames: string[];
  /** Index (into pooled.variables) of each term's variables; the intercept has []. */
  columnTerms: number[][];
}

interface VariableBlock {
  names: string[];
  /** Column j of the block at row i: value(i, j). */
  value(row: number, column: number): number;
}

function blockOf(variable: PooledVariable): VariableBlock {
  if (variable.kind === 'numeric') {
    const values = variable.values;
    return { names: [variable.name], value: (row) => values[row]! };
  }
  const codes = variable.codes;
  return {
    names: variable.levels.slice(1).map((level) => `${variable.name}${level}`),
    value: (row, column) => (codes[row] === column + 1 ? 1 : 0),
  };
}

/**
 * The synthpop logit design (R's model.matrix for `t ~ .` or `t ~ .^2`): intercept, each
 * variable's block (numeric: the value; categorical: treatment-coded 0/1 columns for every level
 * but the first), and with maxOrder = 1 every pairwise product of blocks i < j after all main
 * effects, in R's term order (x1:x2, x1:x3, …, x2:x3, …) and column order (within a product the
 * first variable's columns vary fastest). Columns that are constant or collinear are kept: the
 * regression detects and drops them (aliased), as glm does.
 * `rows` restricts the design to a row range of the pooled rows (e.g. one table's rows).
 * O(nRows × nColumns).
 */
export function buildDesignMatrix(
  pooled: PooledPredictors,
  options: { maxOrder?: 0 | 1; intercept?: boolean; rows?: [number, number] } = {},
): DesignMatrix {
  const maxOrder = options.maxOrder ?? 0;
  const [rowStart, rowEnd] = options.rows ?? [0, pooled.nRows];
  const blocks = pooled.variables.map(blockOf);
  const columnNames: string[] = [];
  const columnTerms: number[][] = [];
  const producers: ((row: number) => number)[] = [];
  if (options.intercept ?? true) {
    columnNames.push('(Intercept)');
    columnTerms.push([]);
    producers.push(() => 1);
  }
  blocks.forEach((block, b) => {
    block.names.forEach((name, j) => {
      columnNames.push(name);
      columnTerms.push([b]);
      producers.push((row) => block.value(row, j));
    });
  });
  if (maxOrder >= 1) {
    for (let a = 0; a < blocks.length; a++) {
      for (let b = a + 1; b < blocks.length; b++) {
        const first = blocks[a]!;
        const second = blocks[b]!;
        second.names.forEach((secondName, jb) => {
          first.names.forEach((firstName, ja) => {
            columnNames.push(`${firstName}:${secondName}`);
            columnTerms.push([a, b]);
            producers.push((row) => first.value(row, ja) * second.value(row, jb));
          });
        });
      }
    }
  }
  const nRows = rowEnd - rowStart;
  const nColumns = producers.length;
  const X = new Float64Array(nRows * nColumns);
  producers.forEach((produce, j) => {
    for (let i = 0; i < nRows; i++) X[i * nColumns + j] = produce(rowStart + i);
  });
  return { X, nRows, nColumns, columnNames, columnTerms };
}
