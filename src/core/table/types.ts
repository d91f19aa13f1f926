/**
 * Where a schema value came from: stated by the user as public knowledge (`declared`), learned from
 * the data by a DP step whose cost the schema's `domainBudget` records and every claim that uses the
 * schema adds (`dp`), or read from the data as it is (`inferred`: convenient, not private).
 */
export type FieldSource = 'declared' | 'dp' | 'inferred';

/** The public facts a column schema can state (schema-facts.ts). */
export type SchemaFact = 'type' | 'bounds' | 'integer' | 'categories' | 'canBeMissing';

/** The values that carry a source: the facts, with bounds split into their two ends. */
export type SchemaPart = 'type' | 'lower' | 'upper' | 'integer' | 'categories' | 'canBeMissing';

/**
 * Per-fact sources of a column, where they differ from the column's `source`: the bounds as
 * [lower end, upper end]. A category list has one source: declared only when the user replaced or
 * confirmed the whole list.
 */
export interface FactSources {
  type?: FieldSource;
  bounds?: [FieldSource, FieldSource];
  integer?: FieldSource;
  categories?: FieldSource;
  canBeMissing?: FieldSource;
}

export interface NumericColumnSchema {
  name: string;
  type: 'numeric';
  /** Public [lower, upper] bounds; values outside are clamped and counted. */
  bounds?: [number, number];
  /** Values are whole numbers; synthetic values are rounded. */
  integer?: boolean;
  /**
   * Public values held by many rows (e.g. 0 for a capital gain), ascending, each inside the bounds
   * (whole for an integer column): binned mechanisms give each a level of its own that decodes to
   * exactly that value. Absent in older schema files: no point masses.
   */
  pointMasses?: number[];
  /**
   * Whether the column can hold missing values. false: the column is complete, mechanisms give it no
   * missing level, and a missing value at run time is an error naming the column. Absent (older
   * schema files) or true: a missing level, as before.
   */
  canBeMissing?: boolean;
  /** The least trusted source of the column's values; `sources` names the values whose source differs. */
  source: FieldSource;
  sources?: FactSources;
}

export interface CategoricalColumnSchema {
  name: string;
  type: 'categorical';
  /** Public list of levels; values outside it are counted and reported. */
  categories?: string[];
  /**
   * A level of `categories` that takes every value outside the list (counted for the data holder),
   * instead of the value being rejected as missing: a DP-learned list keeps the values whose noisy
   * count clears a threshold, the rest become this level, which mechanisms treat like any category.
   */
  other?: string;
  /**
   * Whether the column can hold missing values. false: the column is complete, mechanisms give it no
   * missing level, and a missing value at run time is an error naming the column. Absent (older
   * schema files) or true: a missing level, as before.
   */
  canBeMissing?: boolean;
  /** The least trusted source of the column's values; `sources` names the values whose source differs. */
  source: FieldSource;
  sources?: FactSources;
}

export type ColumnSchema = NumericColumnSchema | CategoricalColumnSchema;

/**
 * One DP step that learned a schema fact, e.g. the lower bound of `age`. Privacy values are exact
 * decimal strings ("0.025"), so that reading the schema back gives the exact rational spent.
 */
export interface DomainStep {
  /** The fact it produced, as a "column.part" path: "age.type", "age.lower", "sex.categories". */
  fact: string;
  /** What was released, in words a person can check. */
  what: string;
  epsilon: string;
  delta: string;
}

/**
 * What learning the `dp` facts of a schema spent: the steps, and their sums (sequential
 * composition). Every claim of a run on the schema adds these steps (privacy/domain-claim.ts).
 */
export interface DomainBudget {
  /** Σ ε and Σ δ of the steps, exact decimal strings. */
  epsilon: string;
  delta: string;
  /** ISO 8601 time of the learning; names it in a privacy ledger, so it is counted once. */
  learnedAt: string;
  /** Present (true) when a step drew from a seeded generator: reproducible, not for release. */
  seeded?: true;
  steps: DomainStep[];
}

/** The schema JSON of DESIGN.md §2, read and written by the studio and the CLI alike. */
export interface Schema {
  version: 1;
  columns: ColumnSchema[];
  /** Tokens read as a missing value. */
  missing: string[];
  /** Present when some facts were learned with DP (`source` "dp"): what that spent. */
  domainBudget?: DomainBudget;
}

/** Numeric column: values[i] is NaN exactly where missing[i] === 1. */
export interface NumericColumn {
  kind: 'numeric';
  name: string;
  values: Float64Array;
  missing: Uint8Array;
}

/** Categorical column: codes[i] indexes dictionary; the code is 0 and meaningless where missing[i] === 1. */
export interface CategoricalColumn {
  kind: 'categorical';
  name: string;
  codes: Uint32Array;
  dictionary: string[];
  missing: Uint8Array;
}

export type Column = NumericColumn | CategoricalColumn;

/** Columnar table: no per-row objects. All columns have nRows entries. */
export interface Table {
  nRows: number;
  columns: Column[];
}
