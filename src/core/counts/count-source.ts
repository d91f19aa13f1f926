import type { ColumnCoding } from '../mechanisms/common/coding/column-coding';
import type { SparseCellCounts } from '../cells/sparse-cell-counts';

/**
 * Where a run's exact counts come from. A mechanism that reads the data only through counts over the
 * coded domain (the histogram and marginal families, MST, AIM) states the counts it needs as a
 * CountQueryPlan, built from the schema's codings and the parameters before any data is read; a
 * source computes exactly those counts, wherever the data lives (in memory, DuckDB, a ClickHouse
 * cluster, or files of query results). The source adds no privacy step: the counts are exact, and only
 * the mechanism's noisy steps turn them into anything that leaves the run.
 */
export interface CountSource {
  /** Where the counts are computed, in words for the release report ("in memory", "DuckDB on big.parquet"). */
  readonly where: string;
  /** The number of rows n (public under replace-one neighbours, as for an in-memory table). */
  rowCount(): Promise<number>;
  /** Every count the plan names, exactly. */
  counts(plan: CountQueryPlan): Promise<PlannedCounts>;
  /** Frees what the source holds (a database connection); idempotent. */
  close(): Promise<void>;
}

/**
 * The counts a run needs, fixed by the schema and the parameters: the codings of the columns (value →
 * level, column-coding.ts) and the attribute sets whose marginal counts are read, each a list of
 * indices into `codings`. `cells: true` asks for the full cross-tabulation (sparse).
 */
export interface CountQueryPlan {
  codings: readonly ColumnCoding[];
  cells: boolean;
  marginals: readonly (readonly number[])[];
}

/** The exact counts of a plan, read synchronously by the mechanism. */
export interface PlannedCounts {
  n: number;
  /** The full cross-tabulation, cells sorted (cell = Σ level_j · stride_j, last column fastest); when asked. */
  cells?: SparseCellCounts;
  /**
   * The marginal on a planned attribute set: a dense vector over its cells (strides over the set in
   * the given order, last fastest; countCells in models/pgm/factor-index.ts). Throws for a set the plan did
   * not name, so a mechanism cannot read a count outside its declared query set.
   */
  marginal(attrs: readonly number[]): Float64Array;
}

/** The key of an attribute set in a plan ("0,3,5"). */
export function attributeSetKey(attrs: readonly number[]): string {
  return attrs.join(',');
}

/** PlannedCounts over a map of marginals; the error names the set a mechanism asked for outside its plan. */
export function plannedCounts(
  n: number,
  marginals: ReadonlyMap<string, Float64Array>,
  cells?: SparseCellCounts,
): PlannedCounts {
  return {
    n,
    ...(cells === undefined ? {} : { cells }),
    marginal(attrs) {
      const found = marginals.get(attributeSetKey(attrs));
      if (found === undefined) {
        throw new Error(`the marginal on attributes [${attrs.join(', ')}] is not in the run's count plan.`);
      }
      return found;
    },
  };
}

/** The number of cells of the marginal on `attrs`. */
export function marginalCells(codings: readonly ColumnCoding[], attrs: readonly number[]): number {
  return attrs.reduce((product, a) => product * codings[a]!.levels, 1);
}

/** Strides of a marginal's cells over `attrs` in order, last fastest. */
export function marginalStrides(codings: readonly ColumnCoding[], attrs: readonly number[]): number[] {
  const strides = new Array<number>(attrs.length);
  let stride = 1;
  for (let q = attrs.length - 1; q >= 0; q--) {
    strides[q] = stride;
    stride *= codings[attrs[q]!]!.levels;
  }
  return strides;
}
