import { openSync, readSync, closeSync } from 'node:fs';
import { extname } from 'node:path';
import type { CountQuery, SqlRelation } from '../../core/counts/count-queries';
import type { CountSource } from '../../core/counts/count-source';
import {
  sqlCountSource,
  type CountQueryRunner,
  type CountStrategy,
} from '../../core/counts/sql-count-source';
import { sqlString, type ColumnStorage } from '../../core/counts/sql-coding';
import { detectDelimiter } from '../../core/table/csv-delimiter';
import { InputError } from '../../core/table/errors';
import type { Schema } from '../../core/table/types';

/** The DuckDB module, loaded when a run asks for it (the studio and other commands never load it). */
type DuckDbModule = typeof import('@duckdb/node-api');
type DuckDbConnection = Awaited<
  ReturnType<Awaited<ReturnType<DuckDbModule['DuckDBInstance']['create']>>['connect']>
>;

/** DuckDB's memory for a count run: it spills larger aggregations to its temporary folder. */
export const DUCKDB_MEMORY_LIMIT = '256MB';

/** An embedded DuckDB database with one connection, limited in memory and threads. */
export async function openDuckDb(options: { threads?: number } = {}): Promise<DuckDbConnection> {
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const instance = await DuckDBInstance.create(':memory:', {
    memory_limit: DUCKDB_MEMORY_LIMIT,
    threads: String(options.threads ?? 2),
    preserve_insertion_order: 'false',
  });
  return instance.connect();
}

/**
 * The FROM item of a data file: Parquet read as typed columns; CSV read with every column as text, so
 * that the file's tokens reach the coding as the in-memory reader sees them (delimiter detected the
 * same way, RFC 4180 quotes, first line the header).
 */
export function duckDbFileRelationFrom(path: string): string {
  const file = sqlString('duckdb', path);
  if (extname(path).toLowerCase() === '.parquet') return `read_parquet(${file})`;
  const delimiter = detectDelimiter(firstBytes(path));
  return (
    `read_csv(${file}, header = true, all_varchar = true, delim = ${sqlString('duckdb', delimiter)}, ` +
    `quote = '"', escape = '"', null_padding = false)`
  );
}

function firstBytes(path: string): string {
  const fd = openSync(path, 'r');
  try {
    const buffer = Buffer.alloc(1 << 16);
    const read = readSync(fd, buffer, 0, buffer.length, 0);
    return buffer
      .subarray(0, read)
      .toString('utf8')
      .replace(/^\uFEFF/, '');
  } finally {
    closeSync(fd);
  }
}

const DUCKDB_NUMBER_TYPES =
  /^(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|UTINYINT|USMALLINT|UINTEGER|UBIGINT|UHUGEINT|FLOAT|DOUBLE|DECIMAL.*)$/i;

/** A DuckDB relation over a file, with each column's storage read from the file's types. */
export async function duckDbFileRelation(
  connection: DuckDbConnection,
  path: string,
  schema: Schema,
): Promise<SqlRelation> {
  const from = duckDbFileRelationFrom(path);
  const types = new Map<string, string>();
  const described = await connection.runAndReadAll(`DESCRIBE SELECT * FROM ${from}`);
  for (const row of described.getRowsJS()) types.set(String(row[0]), String(row[1]));
  for (const column of schema.columns) {
    if (!types.has(column.name)) {
      throw new InputError(`${path}: the file has no column \`${column.name}\` named in the schema.`);
    }
  }
  return {
    dialect: 'duckdb',
    from,
    storage: (name): ColumnStorage => (DUCKDB_NUMBER_TYPES.test(types.get(name) ?? '') ? 'number' : 'text'),
  };
}

/** Runs count queries on a DuckDB connection. */
export function duckDbRunner(connection: DuckDbConnection): CountQueryRunner {
  return {
    async run(query: CountQuery) {
      const result = await connection.runAndReadAll(query.sql);
      return result.getRowsJS() as (number | bigint | string)[][];
    },
    close: async () => connection.closeSync(),
  };
}

/** `synth data.parquet|data.csv --engine duckdb`: counts computed by DuckDB, out of core. */
export async function duckDbFileCountSource(
  path: string,
  schema: Schema,
  strategy: CountStrategy = 'auto',
): Promise<CountSource> {
  const connection = await openDuckDb();
  const relation = await duckDbFileRelation(connection, path, schema);
  return sqlCountSource(`DuckDB (embedded) on ${path}`, schema, relation, duckDbRunner(connection), strategy);
}
