/** Where a schema field came from: stated by the user as public knowledge, or read from the data. */
export type FieldSource = 'declared' | 'inferred';

/** The public facts a column schema can state (schema-facts.ts). */
export type SchemaFact = 'type' | 'bounds' | 'integer' | 'categories';

export interface NumericColumnSchema {
  name: string;
  type: 'numeric';
  /** Public [lower, upper] bounds; values outside are clamped and counted. */
  bounds?: [number, number];
  /** Values are whole numbers; synthetic values are rounded. */
  integer?: boolean;
  source: FieldSource;
  /** With source "inferred": the facts of this column the user declared; the others were read from the data. */
  declaredFields?: SchemaFact[];
}

export interface CategoricalColumnSchema {
  name: string;
  type: 'categorical';
  /** Public list of levels; values outside it are counted and reported. */
  categories?: string[];
  source: FieldSource;
  /** With source "inferred": the facts of this column the user declared; the others were read from the data. */
  declaredFields?: SchemaFact[];
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
