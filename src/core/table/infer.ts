import type { CategoricalColumnSchema, ColumnSchema, NumericColumnSchema, Schema } from './types';
import type { RawTable } from './csv-read';
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
 * Scans one column over all files: numeric iff every non-missing token matches the normative pattern
 * (reference/README.md §Common preprocessing 3) and at least one token is present.
 * Returns the numeric facts, or `{ numeric: false }` at the first token that is not a number.
 */
function scanNumeric(tokenLists: string[][], missing: ReadonlySet<string>): NumericScan | { numeric: false } {
  let min = Infinity;
  let max = -Infinity;
  let integer = true;
  let seen = 0;
  for (const tokens of tokenLists) {
    for (let i = 0; i < tokens.length; i++) {
      const token = tokens[i]!;
      if (missing.has(token)) continue;
      if (!isNumericToken(token)) return { numeric: false };
      const value = parseNumericToken(token);
      seen++;
      if (value < min) min = value;
      if (value > max) max = value;
      if (integer && !Number.isInteger(value)) integer = false;
    }
  }
  return seen === 0 ? { numeric: false } : { numeric: true, min, max, integer, seen };
}

/** Distinct non-missing tokens of a column over all files, sorted by Unicode code point. */
function distinctTokensByCodePoint(tokenLists: string[][], missing: ReadonlySet<string>): string[] {
  const distinct = new Set<string>();
  for (const tokens of tokenLists) {
    for (let i = 0; i < tokens.length; i++) {
      const token = tokens[i]!;
      if (!missing.has(token)) distinct.add(token);
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
function checkSameColumns(raws: RawTable[]): void {
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
 * Every field is marked source "inferred" (read from the data, so not public knowledge).
 * Columns follow the first file's header. O(total tokens).
 */
export function inferSchema(raws: RawTable | RawTable[], opts: InferSchemaOptions = {}): Schema {
  const files = Array.isArray(raws) ? raws : [raws];
  if (files.length === 0) throw new Error('inferSchema needs at least one file.');
  checkSameColumns(files);
  const missingTokens = opts.missing ?? [...DEFAULT_MISSING_TOKENS];
  const missing = new Set(missingTokens);
  const maxCategories = opts.maxCategories ?? Infinity;
  const columns: ColumnSchema[] = files[0]!.header.map((name) => {
    const tokenLists = files.map((file) => file.columns[file.header.indexOf(name)]!);
    const scan = scanNumeric(tokenLists, missing);
    if (scan.numeric) return inferNumericColumn(name, scan);
    return inferCategoricalColumn(name, distinctTokensByCodePoint(tokenLists, missing), maxCategories);
  });
  return { version: 1, columns, missing: missingTokens };
}
