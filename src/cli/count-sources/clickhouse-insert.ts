import type { SyntheticRows } from '../../core/mechanisms/types';
import { sqlIdentifier } from '../../core/counts/sql-coding';
import { InputError } from '../../core/table/errors';
import type { Schema, Table } from '../../core/table/types';
import { clickHouseQuery, parseClickHouseAddress } from './clickhouse';

/** True for an output named as a ClickHouse table (clickhouse://host:port/db.table). */
export function isClickHouseAddress(text: string): boolean {
  return text.startsWith('clickhouse://');
}

/** How a target column is written in RowBinary: its kind and whether it takes NULL. */
interface TargetColumn {
  numeric: boolean;
  nullable: boolean;
}

/** The column types RowBinary is written for, from DESCRIBE TABLE; a clear error for any other. */
function targetColumn(name: string, type: string | undefined, numeric: boolean): TargetColumn {
  const wanted = numeric ? 'Float64' : 'String';
  if (type === wanted) return { numeric, nullable: false };
  if (type === `Nullable(${wanted})`) return { numeric, nullable: true };
  throw new InputError(
    `the output table's column \`${name}\` is ${type ?? 'absent'}; dpsynth writes ${numeric ? 'numeric' : 'categorical'} ` +
      `columns as ${wanted} or Nullable(${wanted}).`,
  );
}

/**
 * The rows of one block in ClickHouse's RowBinary format: doubles as their own 8 bytes (little
 * endian), so the cluster holds exactly the synthetic values (its text parsing is not correctly
 * rounded on every release); strings as a LEB128 length and UTF-8 bytes; a NULL flag byte before
 * each Nullable value. O(rows · columns).
 */
export function rowBinaryBlock(block: Table, targets: readonly TargetColumn[]): Uint8Array {
  const encoder = new TextEncoder();
  const chunks: Uint8Array[] = [];
  let size = 0;
  const push = (bytes: Uint8Array) => {
    chunks.push(bytes);
    size += bytes.length;
  };
  const byte = (value: number) => push(Uint8Array.of(value));
  for (let i = 0; i < block.nRows; i++) {
    block.columns.forEach((column, j) => {
      const target = targets[j]!;
      const missing = column.missing[i] === 1;
      if (target.nullable) byte(missing ? 1 : 0);
      if (missing && target.nullable) return;
      if (column.kind === 'numeric') {
        if (missing)
          throw new InputError(`column \`${column.name}\` has missing values; make it Nullable(Float64).`);
        const bytes = new Uint8Array(8);
        new DataView(bytes.buffer).setFloat64(0, column.values[i]!, true);
        push(bytes);
        return;
      }
      const text = encoder.encode(missing ? '' : column.dictionary[column.codes[i]!]!);
      let length = text.length;
      do {
        byte((length & 0x7f) | (length > 0x7f ? 0x80 : 0));
        length >>>= 7;
      } while (length > 0);
      push(text);
    });
  }
  const out = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.length;
  }
  return out;
}

/**
 * Inserts a synthetic dataset into a ClickHouse table, block by block in one streamed RowBinary INSERT (the
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
  const described = await clickHouseQuery(address, `DESCRIBE TABLE ${table} FORMAT TabSeparated`);
  const types = new Map(
    described
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => line.split('\t') as [string, string]),
  );
  const targets = schema.columns.map((c) => targetColumn(c.name, types.get(c.name), c.type === 'numeric'));
  const blocks = rows.blocks()[Symbol.iterator]();
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
      controller.enqueue(rowBinaryBlock(next.value, targets));
    },
  });
  await clickHouseQuery(address, `INSERT INTO ${table} (${names}) FORMAT RowBinary`, body);
}
