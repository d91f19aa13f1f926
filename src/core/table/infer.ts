import type { CategoricalColumnSchema, ColumnSchema, NumericColumnSchema, Schema } from './types';
import type { StoredColumn } from './stored-column';
import type { TableSource } from './table-source';
import { storedColumnsOf } from './table-source';
import { compareByCodePoint } from './code-point-order';
import { inputErrorAt } from './errors';
import { isNumericToken, parseNumericToken } from './numeric-token';

/** Tokens read as missing unless a schema says otherwise (DESIGN.md §2). */
export const DEFAULT_MISSING_TOKENS: readonly string[] = ['', 'NA', 'NaN', 'null'];

export interface InferSchemaOptions {
  /** Tokens read as missing; default DEFAULT_MISSING_TOKENS. */
  missing?: string[];
  /**
   * A categorical column with more distinct values than this keeps type categorical but gets no
   * `categories` list (it is probably an identifier or free text); buildTable then uses its sorted
   * distinct tokens. Default: no limit.
   */
  maxCategories?: number;
}

interface NumericScan {
  numeric: true;
  min: number;
  max: number;
  integer: boolean;
  seen: number;
}

/**
 * One column of one file: whether every non-missing token is a number in the normative syntax
 * (reference/README.md §Common preprocessing 3), and the facts of those numbers. A dictionary
 * column is scanned once per distinct token; a `numbers` column has its facts from reading
 * (scanned again only when a missing token is itself a number, which then matches by value).
 */
function scanStoredColumn(
  column: StoredColumn,
  missing: ReadonlySet<string>,
): { numbers: boolean; seen: number; min: number; max: number; integer: boolean } {
  let min = Infinity;
  let max = -Infinity;
  let integer = true;
  let seen = 0;
  if (column.mode === 'dictionary') {
    for (let k = 0; k < column.tokens.length; k++) {
      if (missing.has(column.tokens[k]!)) continue;
      const value = column.numbers[k]!;
      if (Number.isNaN(value)) return { numbers: false, seen, min, max, integer };
      seen += column.counts[k]!;
      if (value < min) min = value;
      if (value > max) max = value;
      if (integer && !Number.isInteger(value)) integer = false;
    }
    return { numbers: true, seen, min, max, integer };
  }
  if (column.otherTokens.some((token) => !missing.has(token))) {
    return { numbers: false, seen, min, max, integer };
  }
  const missingValues = new Set<number>();
  for (const token of missing) if (isNumericToken(token)) missingValues.add(parseNumericToken(token));
  if (missingValues.size === 0) {
    return {
      numbers: true,
      seen: column.numberCount,
      min: column.min,
      max: column.max,
      integer: column.allWhole,
    };
  }
  for (let i = 0; i < column.length; i++) {
    if (column.otherCodes.get(i) !== 0) continue;
    const value = column.values.get(i);
    if (missingValues.has(value)) continue;
    seen++;
    if (value < min) min = value;
    if (value > max) max = value;
    if (integer && !Number.isInteger(value)) integer = false;
  }
  return { numbers: true, seen, min, max, integer };
}

/** Numeric iff every file's column holds only numbers and missing tokens, and one number at least. */
function scanNumeric(
  columns: StoredColumn[],
  missing: ReadonlySet<string>,
): NumericScan | { numeric: false } {
  let min = Infinity;
  let max = -Infinity;
  let integer = true;
  let seen = 0;
  for (const column of columns) {
    const scan = scanStoredColumn(column, missing);
    if (!scan.numbers) return { numeric: false };
    seen += scan.seen;
    if (scan.seen === 0) continue;
    min = Math.min(min, scan.min);
    max = Math.max(max, scan.max);
    integer &&= scan.integer;
  }
  return seen === 0 ? { numeric: false } : { numeric: true, min, max, integer, seen };
}

/**
 * True when some cell of the column holds a missing token (a numeric missing token such as "-99"
 * also matches the numbers equal to it, as buildTable reads them). O(distinct tokens), or O(rows)
 * for a `numbers` column when a missing token is itself a number.
 */
function hasMissingCell(column: StoredColumn, missing: ReadonlySet<string>): boolean {
  if (column.mode === 'dictionary') {
    return column.tokens.some((token, k) => missing.has(token) && column.counts[k]! > 0);
  }
  if (column.otherTokens.some((token, k) => missing.has(token) && column.otherCounts[k]! > 0)) return true;
  const missingValues = new Set<number>();
  for (const token of missing) if (isNumericToken(token)) missingValues.add(parseNumericToken(token));
  if (missingValues.size === 0) return false;
  for (let i = 0; i < column.length; i++) {
    if (column.otherCodes.get(i) === 0 && missingValues.has(column.values.get(i))) return true;
  }
  return false;
}

/** Distinct non-missing tokens of a column over all files, sorted by Unicode code point. */
function distinctTokensByCodePoint(columns: StoredColumn[], missing: ReadonlySet<string>): string[] {
  const distinct = new Set<string>();
  for (const column of columns) {
    if (column.mode === 'dictionary') {
      for (const token of column.tokens) if (!missing.has(token)) distinct.add(token);
      continue;
    }
    for (const token of column.otherTokens) if (!missing.has(token)) distinct.add(token);
    for (let i = 0; i < column.length; i++) {
      if (column.otherCodes.get(i) === 0) {
        const token = String(column.values.get(i));
        if (!missing.has(token)) distinct.add(token);
      }
    }
  }
  return Array.from(distinct).sort(compareByCodePoint);
}

function inferNumericColumn(name: string, scan: NumericScan): NumericColumnSchema {
  // Bounds need lower < upper (schema-json.ts) and finite ends; a constant column gets none.
  const hasBounds = Number.isFinite(scan.min) && Number.isFinite(scan.max) && scan.min < scan.max;
  return {
    name,
    type: 'numeric',
    ...(hasBounds ? { bounds: [scan.min, scan.max] as [number, number] } : {}),
    integer: scan.integer,
    source: 'inferred',
  };
}

function inferCategoricalColumn(
  name: string,
  categories: string[],
  maxCategories: number,
): CategoricalColumnSchema {
  return {
    name,
    type: 'categorical',
    ...(categories.length <= maxCategories ? { categories } : {}),
    source: 'inferred',
  };
}

/** The files' headers must hold the same names; the first file's order is kept (others are matched by name). */
function checkSameColumns(raws: TableSource[]): void {
  const first = raws[0]!;
  const firstNames = new Set(first.header);
  for (const other of raws.slice(1)) {
    const otherNames = new Set(other.header);
    const missingInOther = first.header.filter((name) => !otherNames.has(name));
    const extraInOther = other.header.filter((name) => !firstNames.has(name));
    if (missingInOther.length > 0 || extraInOther.length > 0) {
      const parts: string[] = [];
      if (missingInOther.length > 0) parts.push(`lacks ${missingInOther.map((n) => `\`${n}\``).join(', ')}`);
      if (extraInOther.length > 0) parts.push(`has extra ${extraInOther.map((n) => `\`${n}\``).join(', ')}`);
      throw inputErrorAt(
        { file: other.fileName },
        `its columns differ from ${first.fileName}: it ${parts.join(' and ')}. Both files need the same column names.`,
      );
    }
  }
}

/**
 * Infers a schema from one or more files, pooled (the metrics command infers over real and synthetic
 * data together, as reference/README.md §Common preprocessing 3–4 does). Per column, over all files:
 * numeric iff every non-missing token matches NUMERIC_TOKEN_PATTERN (and one exists); integer iff all
 * those values are whole; bounds = [min, max] of the data (omitted when min = max). Otherwise
 * categorical with categories = distinct non-missing tokens sorted by code point. An all-missing column
 * is categorical with no categories. Integer codes with few levels stay numeric: no guessing.
 * `canBeMissing` is whether any file has a missing cell in the column (false: no missing level).
 * Every field is marked source "inferred" (read from the data, so not public knowledge).
 * Columns follow the first file's header. O(total tokens).
 */
export function inferSchema(raws: TableSource | TableSource[], opts: InferSchemaOptions = {}): Schema {
  const files = Array.isArray(raws) ? raws : [raws];
  if (files.length === 0) throw new Error('inferSchema needs at least one file.');
  checkSameColumns(files);
  const missingTokens = opts.missing ?? [...DEFAULT_MISSING_TOKENS];
  const missing = new Set(missingTokens);
  const maxCategories = opts.maxCategories ?? Infinity;
  const stored = files.map(storedColumnsOf);
  const columns: ColumnSchema[] = files[0]!.header.map((name) => {
    const perFile = files.map((file, f) => stored[f]![file.header.indexOf(name)]!);
    const scan = scanNumeric(perFile, missing);
    const canBeMissing = perFile.some((column) => hasMissingCell(column, missing));
    const inferred = scan.numeric
      ? inferNumericColumn(name, scan)
      : inferCategoricalColumn(name, distinctTokensByCodePoint(perFile, missing), maxCategories);
    return { ...inferred, canBeMissing };
  });
  return { version: 1, columns, missing: missingTokens };
}
