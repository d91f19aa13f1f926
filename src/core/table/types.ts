/**
 * Where a schema value came from: stated by the user as public knowledge, or read from the data
 * (convenient, not private). The format leaves room for further sources, e.g. a value learned with
 * an accounted DP step (DESIGN.md §2), without another change of shape.
 */
export type FieldSource = 'declared' | 'inferred';

/** The public facts a column schema can state (schema-facts.ts). */
export type SchemaFact = 'type' | 'bounds' | 'integer' | 'categories';

/** The values that carry a source: the facts, with bounds split into their two ends. */
export type SchemaPart = 'type' | 'lower' | 'upper' | 'integer' | 'categories';

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
}

export interface NumericColumnSchema {
  name: string;
  type: 'numeric';
  /** Public [lower, upper] bounds; values outside are clamped and counted. */
  bounds?: [number, number];
  /** Values are whole numbers; synthetic values are rounded. */
  integer?: boolean;
  /** The least trusted source of the column's values; `sources` names the values whose source differs. */
  source: FieldSource;
  sources?: FactSources;
}

export interface CategoricalColumnSchema {
  name: string;
  type: 'categorical';
  /** Public list of levels; values outside it are counted and reported. */
  categories?: string[];
  /** The least trusted source of the column's values; `sources` names the values whose source differs. */
  source: FieldSource;
  sources?: FactSources;
}

export type ColumnSchema = NumericColumnSchema | CategoricalColumnSchema;

/** The schema JSON of DESIGN.md §2, read and written by the studio and the CLI alike. */
export interface Schema {
  version: 1;
  columns: ColumnSchema[];
  /** Tokens read as a missing value. */
  missing: string[];
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
