import type { ColumnCoding } from '../mechanisms/common/coding/column-coding';
import { InputError } from '../table/errors';
import { NUMERIC_TOKEN_PATTERN } from '../table/numeric-token';
import type { Schema } from '../table/types';
import { categoryLevels, numericThresholds } from './coder-probe';

/** The SQL engines the coding compiles for; `ansi` is for any other engine (run by the user). */
export type SqlDialect = 'duckdb' | 'clickhouse' | 'ansi';
export const SQL_DIALECTS: readonly SqlDialect[] = ['duckdb', 'clickhouse', 'ansi'];

/**
 * How a column is stored in the engine: `text` holds the file's tokens (a CSV read as text: NULL is
 * the empty token), `number` a numeric type (NULL and NaN are missing; a categorical column stored as
 * an integer is compared by its decimal text, "3").
 */
export type ColumnStorage = 'text' | 'number';

/** String literal: ClickHouse reads backslash escapes in literals, the others only doubled quotes. */
export function sqlString(dialect: SqlDialect, value: string): string {
  if (dialect === 'clickhouse') return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
  return `'${value.replace(/'/g, "''")}'`;
}

/** A quoted identifier (a column or table name). */
export function sqlIdentifier(dialect: SqlDialect, name: string): string {
  if (dialect === 'clickhouse') return `\`${name.replace(/\\/g, '\\\\').replace(/`/g, '\\`')}\``;
  return `"${name.replace(/"/g, '""')}"`;
}

/**
 * A double, exactly: its shortest round-trip decimal (String(x)) parsed by the engine's correctly
 * rounded text-to-double conversion, never a decimal literal (DuckDB reads 0.1 as DECIMAL); in
 * ClickHouse its 64 bits reinterpreted.
 */
function sqlDouble(dialect: SqlDialect, value: number): string {
  const text = sqlString(dialect, String(value));
  if (dialect === 'clickhouse') {
    // ClickHouse's toFloat64('…') is not correctly rounded (18.16): the double's own bits instead.
    const view = new DataView(new ArrayBuffer(8));
    view.setFloat64(0, value);
    return `reinterpretAsFloat64(reinterpretAsString(toUInt64(${view.getBigUint64(0)})))`;
  }
  return `CAST(${text} AS ${dialect === 'duckdb' ? 'DOUBLE' : 'DOUBLE PRECISION'})`;
}

function toDouble(dialect: SqlDialect, expression: string): string {
  if (dialect === 'clickhouse') return `toFloat64(${expression})`;
  return `CAST(${expression} AS ${dialect === 'duckdb' ? 'DOUBLE' : 'DOUBLE PRECISION'})`;
}

function toText(dialect: SqlDialect, expression: string): string {
  if (dialect === 'clickhouse') return `toString(${expression})`;
  return `CAST(${expression} AS VARCHAR${dialect === 'ansi' ? '(4000)' : ''})`;
}

function isNan(dialect: SqlDialect, expression: string): string | undefined {
  if (dialect === 'clickhouse') return `isNaN(${expression})`;
  if (dialect === 'duckdb') return `isnan(${expression})`;
  return undefined; // ansi: NaN must be stored as NULL (README)
}

/** The normative numeric token (numeric-token.ts) as a whole-string match. */
function isNumericTokenSql(dialect: SqlDialect, token: string): string {
  const pattern = NUMERIC_TOKEN_PATTERN.source;
  if (dialect === 'clickhouse') return `match(${token}, ${sqlString(dialect, pattern)})`;
  if (dialect === 'duckdb') return `regexp_full_match(${token}, ${sqlString(dialect, pattern)})`;
  throw new InputError(
    'a numeric column stored as text needs the duckdb dialect; in other engines give it a numeric type.',
  );
}

/**
 * level = base + #{k : x ≥ t_k} as a balanced tree of comparisons (depth log₂ of the thresholds),
 * so a row passes a handful of comparisons whatever the number of levels.
 */
function thresholdTree(dialect: SqlDialect, x: string, base: number, thresholds: readonly number[]): string {
  const node = (lo: number, hi: number): string => {
    if (lo === hi) return String(base + lo);
    const middle = (lo + hi) >> 1;
    return (
      `CASE WHEN ${x} < ${sqlDouble(dialect, thresholds[middle]!)} ` +
      `THEN ${node(lo, middle)} ELSE ${node(middle + 1, hi)} END`
    );
  };
  return node(0, thresholds.length);
}

/**
 * The SQL expression giving the level of `column` under `coding` for every row, compiled from the
 * in-memory coder's answers (coder-probe.ts): equal to levelsOfColumn(buildTable(file)) on the same
 * values. `ref` is the column as the query names it.
 */
export function levelExpression(
  dialect: SqlDialect,
  schema: Schema,
  coding: ColumnCoding,
  ref: string,
  storage: ColumnStorage,
): string {
  const column = schema.columns.find((candidate) => candidate.name === coding.name);
  if (column === undefined) throw new Error(`the schema has no column \`${coding.name}\`.`);
  if (coding.kind === 'categorical') {
    const { levelOfToken, otherLevel } = categoryLevels(schema, column, coding);
    const token = storage === 'text' ? `COALESCE(${ref}, '')` : toText(dialect, ref);
    const sqlLevel = (level: number | null) => (level === null ? 'NULL' : String(level));
    const cases = [...levelOfToken]
      .filter(([, level]) => level !== otherLevel)
      .map(([value, level]) => `WHEN ${token} = ${sqlString(dialect, value)} THEN ${sqlLevel(level)}`);
    // NULL: in a CSV read as text, the empty token; in a typed column, a missing value.
    const nullToken = storage === 'text' ? '' : schema.missing[0];
    const nullLevel =
      nullToken !== undefined && levelOfToken.has(nullToken)
        ? levelOfToken.get(nullToken)!
        : storage === 'text'
          ? otherLevel
          : null;
    const missingCase = storage === 'number' ? `WHEN ${ref} IS NULL THEN ${sqlLevel(nullLevel)} ` : '';
    if (cases.length === 0) return sqlLevel(otherLevel);
    return `CASE ${missingCase}${cases.join(' ')} ELSE ${sqlLevel(otherLevel)} END`;
  }
  const { base, thresholds, missingLevel: missing } = numericThresholds(schema, column, coding);
  const missingLevel = missing === null ? 'NULL' : String(missing);
  if (storage === 'number') {
    const nan = isNan(dialect, ref);
    return (
      `CASE WHEN ${ref} IS NULL${nan === undefined ? '' : ` OR ${nan}`} THEN ${missingLevel} ` +
      `ELSE ${thresholdTree(dialect, toDouble(dialect, ref), base, thresholds)} END`
    );
  }
  const token = `COALESCE(${ref}, '')`;
  const missingTokens = schema.missing.map((value) => sqlString(dialect, value));
  const isMissing =
    missingTokens.length === 0 ? '' : `WHEN ${token} IN (${missingTokens.join(', ')}) THEN ${missingLevel} `;
  if (dialect === 'clickhouse') {
    throw new InputError(
      `numeric column \`${coding.name}\` is stored as text in ClickHouse. Its text-to-number conversion is not ` +
        'correctly rounded on every release (18.16 reads "7.27142857142857" one unit in the last place off), so ' +
        "levels could differ from the in-memory reader's: store the column as Float64 (Nullable(Float64) for " +
        'missing values).',
    );
  }
  const parsed = toDouble(dialect, token);
  return (
    `CASE ${isMissing}WHEN NOT ${isNumericTokenSql(dialect, token)} THEN ${missingLevel} ` +
    `ELSE ${thresholdTree(dialect, parsed, base, thresholds)} END`
  );
}
