import type { ColumnSchema, Schema } from '../../../table/types';
import { integersInBounds, scottBinCountFromPublicRange } from './bin-count-rules';
import type { BinningChoice } from './binning-params';
import { formatCount } from '../../../format/format-count';
import { candidatePointMasses, pointLevelCount, pointMassesOf } from './bin-shape';
import type { ColumnCoding, PointCandidates, QuantileEdges } from './coding-types';

export type { CategoricalCoding, ColumnCoding, IntegerBinCoding, RealBinCoding } from './coding-types';

/** The missing-value level of a coding, or undefined when the column is complete (no such level). */
export function missingLevelOf(coding: ColumnCoding): number | undefined {
  return coding.complete ? undefined : coding.levels - 1;
}

/** The levels that hold values (categories or bins): all levels but the missing one. */
export function valueLevelsOf(coding: ColumnCoding): number {
  return coding.complete ? coding.levels : coding.levels - 1;
}

/** Mechanisms refuse domains larger than this many cells (memory and time of the cell loop). */
export const DOMAIN_CELL_LIMIT = 20_000_000;

/** The codings of all schema columns, or the sentences saying why they cannot be built. */
export interface CodingPlan {
  codings: ColumnCoding[];
  problems: string[];
}

/**
 * Whole-number columns holding at most this many integers in their bounds get one level per integer
 * under the default binning (a public constant, like the bounds it is compared with).
 */
export const INTEGER_LEVEL_CAP = 256;

/**
 * True when the default binning gives this whole-number column one level per integer: `bins` is 0
 * (Scott's rule), `columnBins` does not name it, and its bounds hold at most INTEGER_LEVEL_CAP
 * integers (and at most the lowered cap when the cross-tabulation had to be made smaller).
 */
export function hasLevelPerInteger(
  column: { name?: string; bounds: [number, number]; integer?: boolean },
  choice: BinningChoice,
): boolean {
  if (!column.integer || choice.rule !== 'scott') return false;
  if (column.name !== undefined && choice.perColumn[column.name] !== undefined) return false;
  const count = integersInBounds(column.bounds[0], column.bounds[1]);
  return count <= Math.min(INTEGER_LEVEL_CAP, choice.scottCap ?? Infinity);
}

/**
 * The number of bins the binning choice gives a numeric column with these bounds. A whole-number
 * column gets runs of whole integers, never more bins than integers, and one level per integer
 * under the default binning when it holds at most INTEGER_LEVEL_CAP of them (hasLevelPerInteger).
 */
export function numericBinCount(
  column: { name?: string; bounds: [number, number]; integer?: boolean },
  choice: BinningChoice,
  n: number,
): number {
  const named = column.name === undefined ? undefined : choice.perColumn[column.name];
  const scott = Math.min(scottBinCountFromPublicRange(n), choice.scottCap ?? Infinity);
  const wanted = named ?? (choice.rule === 'fixed' ? choice.fixedBins : scott);
  if (!column.integer) return wanted;
  const count = integersInBounds(column.bounds[0], column.bounds[1]);
  if (hasLevelPerInteger(column, choice)) return Math.max(1, count);
  return Math.max(1, Math.min(wanted, count));
}

/**
 * Codings for every schema column, in schema order. Numeric columns need declared or inferred
 * bounds lo < hi (an integer column needs at least one integer inside them); categorical columns
 * need a non-empty category list. Each unmet need is one sentence in `problems`.
 */
export function planColumnCodings(schema: Schema, choice: BinningChoice, n: number): CodingPlan {
  const codings: ColumnCoding[] = [];
  const problems: string[] = [...choice.problems];
  for (const name of Object.keys(choice.perColumn)) {
    const column = schema.columns.find((candidate) => candidate.name === name);
    if (column === undefined) problems.push(`columnBins names \`${name}\`, which is not in the schema.`);
    else if (column.type !== 'numeric') problems.push(`columnBins names \`${name}\`, which is not numeric.`);
  }
  for (const column of schema.columns) {
    const coding = codingOfColumn(column, choice, n);
    if (typeof coding === 'string') problems.push(coding);
    else codings.push(coding);
  }
  return { codings, problems };
}

function codingOfColumn(column: ColumnSchema, choice: BinningChoice, n: number): ColumnCoding | string {
  // A complete column (canBeMissing false in the schema) has no missing level; absent means one.
  const complete = column.canBeMissing === false;
  const missing = complete ? 0 : 1;
  const completeness = complete ? { complete: true as const } : {};
  if (column.type === 'categorical') {
    const categories = column.categories ?? [];
    if (categories.length === 0) {
      return `needs categories for categorical column \`${column.name}\`: declare them in the schema.`;
    }
    return {
      kind: 'categorical',
      name: column.name,
      categories: [...categories],
      levels: categories.length + missing,
      ...completeness,
    };
  }
  if (!column.bounds)
    return `needs bounds for numeric column \`${column.name}\`: declare them in the schema.`;
  const [lo, hi] = column.bounds;
  if (!Number.isFinite(lo) || !Number.isFinite(hi) || !(lo < hi)) {
    return `needs bounds lower < upper for numeric column \`${column.name}\`; got [${lo}, ${hi}].`;
  }
  const bins = numericBinCount(
    { name: column.name, bounds: [lo, hi], integer: column.integer === true },
    choice,
    n,
  );
  if (column.integer) {
    const count = integersInBounds(lo, hi);
    if (count === 0) {
      return `needs at least one whole number inside the bounds of integer column \`${column.name}\`; got [${lo}, ${hi}].`;
    }
    // A column with one level per integer already gives every value its own level.
    const shape = bins < count ? binShapeOf(column, choice) : {};
    return {
      kind: 'integer',
      name: column.name,
      first: Math.ceil(lo),
      count,
      bins,
      levels: bins + pointLevelCount(shape) + missing,
      ...completeness,
      ...shape,
    };
  }
  const shape = binShapeOf(column, choice);
  return {
    kind: 'real',
    name: column.name,
    lo,
    hi,
    bins,
    levels: bins + pointLevelCount(shape) + missing,
    ...completeness,
    ...shape,
  };
}

/**
 * The point masses (declared in the schema) and the quantile marker (from the binning parameter) of a
 * numeric column, each only when present, so that codings without them stay as they were.
 */
function binShapeOf(
  column: ColumnSchema,
  choice: BinningChoice,
): { points?: number[]; candidates?: PointCandidates; quantile?: QuantileEdges } {
  const points = pointMassesOf(column);
  // With quantile bins and a detection threshold, the public candidates not declared get levels too.
  const candidates =
    choice.method === 'quantile' && (choice.pointMassShare ?? 0) > 0
      ? candidatePointMasses(column).filter((v) => !points.includes(v))
      : [];
  return {
    ...(points.length > 0 ? { points } : {}),
    ...(candidates.length > 0 ? { candidates: { values: candidates } } : {}),
    ...(choice.method === 'quantile' ? { quantile: {} } : {}),
  };
}

/** The number of cells of the full cross-tabulation: the product of the columns' level counts. */
export function domainCellCount(codings: readonly ColumnCoding[]): number {
  return codings.reduce((product, coding) => product * coding.levels, 1);
}

/** The sentence `check` returns when the cross-tabulation is too large, or undefined when it fits. */
export function domainLimitProblem(
  codings: readonly ColumnCoding[],
  limit = DOMAIN_CELL_LIMIT,
): string | undefined {
  const cells = domainCellCount(codings);
  if (cells <= limit) return undefined;
  const shape = codings.map((coding) => `${coding.name} ${coding.levels}`).join(' × ');
  const shown = cells < 1e15 ? formatCount(cells) : cells.toExponential(2);
  return (
    `the cross-tabulation has ${shown} cells (${shape}, each count including the missing-value cell), ` +
    `more than the limit of ${formatCount(limit)}: choose fewer bins (a smaller \`bins\` or \`columnBins\`) ` +
    'or synthesize fewer columns.'
  );
}

/** Mixed-radix strides: cell = Σ level_j · stride_j, with the last column varying fastest. */
export function cellStrides(codings: readonly ColumnCoding[]): number[] {
  const strides = new Array<number>(codings.length);
  let stride = 1;
  for (let j = codings.length - 1; j >= 0; j--) {
    strides[j] = stride;
    stride *= codings[j]!.levels;
  }
  return strides;
}
