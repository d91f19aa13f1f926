import { renameSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { sqlIdentifier, sqlString } from '../../core/counts/sql-coding';
import type { Schema } from '../../core/table/types';
import { openDuckDb } from './duckdb';

/**
 * Copies a synthetic CSV (as dpsynth wrote it) to a Parquet file with DuckDB, streaming: numeric columns
 * as DOUBLE (an empty cell is NULL), categorical ones as text. Written under a temporary name and
 * renamed when complete.
 */
export async function copyCsvToParquet(csvPath: string, parquetPath: string, schema: Schema): Promise<void> {
  const connection = await openDuckDb();
  const temporary = join(dirname(parquetPath), `.${basename(parquetPath)}.${process.pid}.partial.parquet`);
  try {
    const columns = schema.columns
      .map((column) => {
        const name = sqlIdentifier('duckdb', column.name);
        return column.type === 'numeric' ? `CAST(NULLIF(${name}, '') AS DOUBLE) AS ${name}` : name;
      })
      .join(', ');
    await connection.run(
      `COPY (SELECT ${columns} FROM read_csv(${sqlString('duckdb', csvPath)}, header = true, all_varchar = true, ` +
        `delim = ',', quote = '"', escape = '"')) TO ${sqlString('duckdb', temporary)} (FORMAT parquet)`,
    );
    renameSync(temporary, parquetPath);
  } finally {
    rmSync(temporary, { force: true });
    connection.closeSync();
  }
}
