/**
 * The types of a column's coding (column-coding.ts plans them, bin-shape.ts shapes the numeric ones),
 * on one side of both so neither imports the other's types.
 */

/**
 * How one column maps to a finite set of levels 0 … levels − 1, built from the schema and the
 * parameters only (privacy rule 2). The last level, `levels − 1`, is the missing-value cell unless
 * the schema says the column cannot be missing (`canBeMissing: false`, then `complete` is set and
 * there is no such level). Whether a column has one never depends on the data, only on the schema.
 */
export type ColumnCoding = CategoricalCoding | RealBinCoding | IntegerBinCoding;

/** A categorical column: level c is categories[c]; level categories.length is "missing" unless complete. */
export interface CategoricalCoding {
  kind: 'categorical';
  name: string;
  categories: string[];
  levels: number;
  /** Set when the schema says the column cannot be missing: no missing level. */
  complete?: true;
}

/** A real-valued numeric column: `bins` equal-width bins over [lo, hi], then the missing level. */
export interface RealBinCoding {
  kind: 'real';
  name: string;
  lo: number;
  hi: number;
  bins: number;
  levels: number;
  /** Set when the schema says the column cannot be missing: no missing level. */
  complete?: true;
  /** Point masses and quantile bins, when the schema or the parameters ask for them (bin-shape.ts). */
  points?: number[];
  candidates?: PointCandidates;
  quantile?: QuantileEdges;
}

/**
 * An integer numeric column: the integers first … first + count − 1 inside the bounds split into
 * `bins` runs of consecutive integers whose sizes differ by at most one (bin j starts at
 * first + ceil(j·count/bins)), then the missing level. bins ≤ count, so no bin is empty of integers.
 */
export interface IntegerBinCoding {
  kind: 'integer';
  name: string;
  first: number;
  count: number;
  bins: number;
  levels: number;
  /** Set when the schema says the column cannot be missing: no missing level. */
  complete?: true;
  /** Point masses and quantile bins, when the schema or the parameters ask for them (bin-shape.ts). */
  points?: number[];
  candidates?: PointCandidates;
  quantile?: QuantileEdges;
}

/**
 * Quantile binning of a numeric coding: the column's `bins` bins have edges learned by a DP step at
 * run time (quantile-bins.ts). `edges` is absent in a plan (check, claim, describe never see the
 * data) and holds the bins − 1 interior edges e₁ < … < e_{B−1}, ascending, once learned:
 * - real: bin j is [e_j, e_{j+1}) with e₀ = lo, e_B = hi (the last bin closed);
 * - integer: whole-number edges, bin j holds the integers e_j … e_{j+1} − 1 with e₀ = first and
 *   e_B = first + count.
 * The number of bins, hence the domain size, is public: only the edges come from the data.
 */
export interface QuantileEdges {
  edges?: number[];
}

/**
 * Candidate point masses a DP count decides on (quantile-bins.ts, detectPointMasses): public values
 * (0 when inside the bounds, and the bounds' ends), each with a level of its own after the declared
 * point masses, so the domain size never depends on the data. `accepted` is absent in a plan and set
 * at run time: an accepted candidate is a point mass like a declared one; a rejected one keeps its
 * level closed (no value codes to it; a synthetic row drawn there is decoded as the bin holding the
 * value), and its values stay in their bins.
 */
export interface PointCandidates {
  values: number[];
  accepted?: boolean[];
}

/** A numeric coding with point masses, candidates or quantile bins. */
export type ShapedCoding = (RealBinCoding | IntegerBinCoding) & {
  points?: number[];
  candidates?: PointCandidates;
  quantile?: QuantileEdges;
};
