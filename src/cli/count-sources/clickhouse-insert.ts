import type { SyntheticRows } from '../../core/mechanisms/types';
import { sqlIdentifier } from '../../core/counts/sql-coding';
import type { Schema, Table } from '../../core/table/types';
import { clickHouseQuery, parseClickHouseAddress } from './clickhouse';

/** True for an output named as a ClickHouse table (clickhouse://host:port/db.table). */
export function isClickHouseAddress(text: string): boolean {
  return text.startsWith('clickhouse://');
}

/** One TabSeparated field: NULL as \N, backslash, tab and line breaks escaped. */
function tsvField(value: string | null): string {
  if (value === null) return '\\N';
  return value.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n').replace(/\r/g, '\\r');
}

/** The rows of one block as TabSeparated text. O(rows · columns). */
export function tabSeparatedBlock(block: Table): string {
  const lines: string[] = [];
  for (let i = 0; i < block.nRows; i++) {
    const fields = block.columns.map((column) => {
      if (column.missing[i] === 1) return '\\N';
      if (column.kind === 'numeric') return String(column.values[i]! === 0 ? 0 : column.values[i]!);
      return tsvField(column.dictionary[column.codes[i]!]!);
    });
    lines.push(fields.join('\t'));
  }
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
}

/**
 * Inserts a synthetic dataset into a ClickHouse table, block by block in one streamed INSERT (the
 * client holds one block at a time). The table is created when it does not exist (numeric columns
 * Nullable(Float64), categorical Nullable(String), MergeTree); an existing table (a Distributed one
 * over shards, say) must have the schema's column names.
 */
export async function insertIntoClickHouse(
  out: string,
  rows: SyntheticRows,
  schema: Schema,
  onRows: (rowsDone: number) => void,
): Promise<void> {
  const address = parseClickHouseAddress(out);
  const table = `${sqlIdentifier('clickhouse', address.database)}.${sqlIdentifier('clickhouse', address.table)}`;
  const columns = schema.columns
    .map(
      (c) =>
        `${sqlIdentifier('clickhouse', c.name)} Nullable(${c.type === 'numeric' ? 'Float64' : 'String'})`,
    )
    .join(', ');
  await clickHouseQuery(
    address,
    `CREATE TABLE IF NOT EXISTS ${table} (${columns}) ENGINE = MergeTree() ORDER BY tuple()`,
  );
  const names = schema.columns.map((c) => sqlIdentifier('clickhouse', c.name)).join(', ');
  const blocks = rows.blocks()[Symbol.iterator]();
  const encoder = new TextEncoder();
  let done = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const next = blocks.next();
      if (next.done) {
        controller.close();
        return;
      }
      done += next.value.nRows;
      onRows(done);
      controller.enqueue(encoder.encode(tabSeparatedBlock(next.value)));
    },
  });
  await clickHouseQuery(address, `INSERT INTO ${table} (${names}) FORMAT TabSeparated`, body);
}
