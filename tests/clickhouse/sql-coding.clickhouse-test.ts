import { beforeAll, describe, expect, inject, it } from 'vitest';
import { levelExpression, sqlIdentifier } from '../../src/core/counts/sql-coding';
import { planColumnCodings } from '../../src/core/mechanisms/common/coding/column-coding';
import { columnsForCodings, levelsOfColumn } from '../../src/core/mechanisms/common/coding/encode-rows';
import { buildTable } from '../../src/core/table/build-table';
import type { RawTable } from '../../src/core/table/csv-read';
import type { ColumnSchema, Schema } from '../../src/core/table/types';
import {
  categoricalEdgeTokens,
  generator,
  NUMERIC_ODD_TOKENS,
  numericEdgeValues,
} from '../counts/coding-edges';

/**
 * The SQL coding on ClickHouse (Debian's 18.16) against the in-memory coder, row by row: numeric
 * columns stored as text tokens and as Float64 (inserted as exact binary doubles), categorical ones
 * as String, on every edge of the coding.
 */
const url = () => `http://127.0.0.1:${inject('clickhouseHttpPorts')[0]}`;
async function query(sql: string, body?: BodyInit): Promise<string> {
  const target = body === undefined ? `${url()}/` : `${url()}/?${new URLSearchParams({ query: sql })}`;
  const response = await fetch(target, { method: 'POST', body: body ?? sql });
  const text = await response.text();
  if (!response.ok) throw new Error(text);
  return text;
}
const tsv = (token: string) => token.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n');

const realColumn: ColumnSchema = { name: 'x', type: 'numeric', bounds: [-1.3, 10.7], source: 'declared' };
const integerColumn: ColumnSchema = {
  name: 'k',
  type: 'numeric',
  bounds: [-3.5, 20.2],
  integer: true,
  source: 'declared',
};
const categoryColumn: ColumnSchema = {
  name: 'c',
  type: 'categorical',
  categories: ['a', 'b"q', 'c\\d', "e'f", 'NA2'],
  source: 'declared',
};
const otherColumn: ColumnSchema = {
  name: 'o',
  type: 'categorical',
  categories: ['x', 'y', '(other)'],
  other: '(other)',
  source: 'declared',
};
const schema: Schema = {
  version: 1,
  missing: ['', 'NA'],
  columns: [realColumn, integerColumn, categoryColumn, otherColumn],
};
const fixed = { rule: 'fixed' as const, fixedBins: 7, perColumn: {}, problems: [] };

beforeAll(async () => {
  await query('CREATE DATABASE IF NOT EXISTS coding');
});

function memoryLevels(tokens: string[][]): number[][] {
  const raw: RawTable = {
    fileName: 'edges',
    header: schema.columns.map((c) => c.name),
    columns: tokens,
    nRows: tokens[0]!.length,
    delimiter: ',',
  };
  const { table } = buildTable(raw, schema);
  const { codings } = planColumnCodings(schema, fixed, 1);
  const columns = columnsForCodings(table, codings);
  return codings.map((coding, j) => Array.from(levelsOfColumn(columns[j]!, coding)));
}

async function engineLevels(
  table: string,
  storage: (name: string) => 'text' | 'number',
): Promise<number[][]> {
  const { codings } = planColumnCodings(schema, fixed, 1);
  const selects = codings.map((coding) =>
    levelExpression(
      'clickhouse',
      schema,
      coding,
      sqlIdentifier('clickhouse', coding.name),
      storage(coding.name),
    ),
  );
  const text = await query(`SELECT ${selects.join(', ')} FROM ${table} ORDER BY i FORMAT TabSeparated`);
  const rows = text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => line.split('\t').map(Number));
  return codings.map((_, j) => rows.map((row) => row[j]!));
}

describe('SQL coding in ClickHouse equals the in-memory coder', () => {
  it('categorical columns as String; numeric columns stored as text refused', async () => {
    const { codings } = planColumnCodings(schema, fixed, 1);
    const random = generator(21);
    const lists = [
      [...numericEdgeValues(schema, realColumn, codings[0]!, random).map(String), ...NUMERIC_ODD_TOKENS],
      [...numericEdgeValues(schema, integerColumn, codings[1]!, random).map(String), ...NUMERIC_ODD_TOKENS],
      categoricalEdgeTokens(categoryColumn),
      categoricalEdgeTokens(otherColumn),
    ];
    const length = Math.max(...lists.map((list) => list.length));
    const tokens = lists.map((list) => Array.from({ length }, (_, i) => list[i % list.length]!));
    await query('DROP TABLE IF EXISTS coding.text_edges');
    await query(
      'CREATE TABLE coding.text_edges (i UInt32, x String, k String, c String, o String) ENGINE = MergeTree() ORDER BY i',
    );
    const body =
      Array.from({ length }, (_, i) =>
        [String(i), ...tokens.map((column) => tsv(column[i]!))].join('\t'),
      ).join('\n') + '\n';
    await query('INSERT INTO coding.text_edges FORMAT TabSeparated', body);
    // The server's text-to-number conversion is not exact, so a numeric column stored as text is refused.
    await expect(engineLevels('coding.text_edges', () => 'text')).rejects.toThrow(
      /stored as text in ClickHouse.*Float64/,
    );
    const memory = memoryLevels(tokens);
    const categorical = [2, 3].map((j) =>
      levelExpression(
        'clickhouse',
        schema,
        codings[j]!,
        sqlIdentifier('clickhouse', codings[j]!.name),
        'text',
      ),
    );
    const text = await query(
      `SELECT ${categorical.join(', ')} FROM coding.text_edges ORDER BY i FORMAT TabSeparated`,
    );
    const rows = text
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => line.split('\t').map(Number));
    expect(rows.map((row) => row[0])).toEqual(memory[2]);
    expect(rows.map((row) => row[1])).toEqual(memory[3]);
  });

  it('numeric columns as Float64 (exact doubles, NULL missing)', async () => {
    const { codings } = planColumnCodings(schema, fixed, 1);
    const random = generator(22);
    const xs = numericEdgeValues(schema, realColumn, codings[0]!, random);
    const ks = numericEdgeValues(schema, integerColumn, codings[1]!, random);
    const length = Math.max(xs.length, ks.length);
    const x = Array.from({ length }, (_, i) => (i % 11 === 0 ? null : xs[i % xs.length]!));
    const k = Array.from({ length }, (_, i) => (i % 13 === 0 ? null : ks[i % ks.length]!));
    await query('DROP TABLE IF EXISTS coding.typed_edges');
    await query(
      'CREATE TABLE coding.typed_edges (i UInt32, x Nullable(Float64), k Nullable(Float64), c String, o String) ENGINE = MergeTree() ORDER BY i',
    );
    // RowBinary: each double's own 8 bytes, so the engine holds exactly the values the coder is asked about.
    const parts: Uint8Array[] = [];
    const encoder = new TextEncoder();
    for (let i = 0; i < length; i++) {
      const row = new DataView(new ArrayBuffer(4 + 9 + 9));
      row.setUint32(0, i, true);
      let offset = 4;
      for (const value of [x[i]!, k[i]!]) {
        row.setUint8(offset++, value === null ? 1 : 0);
        if (value !== null) {
          row.setFloat64(offset, value, true);
          offset += 8;
        }
      }
      parts.push(new Uint8Array(row.buffer, 0, offset));
      for (const text of ['a', 'x']) parts.push(Uint8Array.of(text.length), encoder.encode(text));
    }
    await query('INSERT INTO coding.typed_edges FORMAT RowBinary', new Blob(parts as BlobPart[]));
    const tokens = [
      x.map((v) => (v === null ? '' : String(v))),
      k.map((v) => (v === null ? '' : String(v))),
      x.map(() => 'a'),
      x.map(() => 'x'),
    ];
    const memory = memoryLevels(tokens);
    const engine = await engineLevels('coding.typed_edges', (name) =>
      name === 'x' || name === 'k' ? 'number' : 'text',
    );
    memory.forEach((levels, j) => expect(engine[j], schema.columns[j]!.name).toEqual(levels));
  });
});
