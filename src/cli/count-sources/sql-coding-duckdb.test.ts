import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { numericThresholds } from '../../core/counts/coder-probe';
import { countQueries } from '../../core/counts/count-queries';
import { memoryCountSource } from '../../core/counts/memory-count-source';
import { levelExpression, sqlIdentifier } from '../../core/counts/sql-coding';
import { planColumnCodings, type ColumnCoding } from '../../core/mechanisms/common/coding/column-coding';
import { columnsForCodings, levelsOfColumn } from '../../core/mechanisms/common/coding/encode-rows';
import { buildTable } from '../../core/table/build-table';
import { parseCsv } from '../../core/table/csv-read';
import type { ColumnSchema, Schema } from '../../core/table/types';
import { duckDbFileCountSource, duckDbFileRelation, openDuckDb } from './duckdb';

/**
 * The SQL coding against the in-memory coder on the same data: every row's level from DuckDB equals
 * levelsOfColumn(buildTable(file)), for CSV text and for typed (DOUBLE) columns, on values at every
 * edge (each threshold and its neighbouring doubles, bounds, −0, ±1e308, half-integers, blanks,
 * missing tokens, non-numbers, unknown categories, quotes and backslashes) and on random schemas.
 */

let folder: string;
let connection: Awaited<ReturnType<typeof openDuckDb>>;
beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'dpsynth-sql-coding-'));
  connection = await openDuckDb({ threads: 1 });
});
afterAll(() => {
  connection.closeSync();
  rmSync(folder, { recursive: true, force: true });
});

/** A 32-bit generator for the test's own data (mulberry32): fixed seeds, no Math.random. */
function generator(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const nextUp = (x: number) => {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x === 0 ? 0 : x);
  const bits = view.getBigInt64(0);
  view.setBigInt64(0, x >= 0 ? bits + 1n : bits - 1n);
  return view.getFloat64(0);
};
const nextDown = (x: number) => -nextUp(-x);

function csvField(token: string): string {
  return `"${token.replace(/"/g, '""')}"`;
}

/** Tokens of a numeric column at every edge of its coding. */
function numericEdgeTokens(
  schema: Schema,
  column: ColumnSchema,
  coding: ColumnCoding,
  random: () => number,
): string[] {
  const { thresholds } = numericThresholds(schema, column, coding);
  const values: number[] = [0, -0, 1e308, -1e308, 5e-324, -5e-324, 2 ** 53, -(2 ** 53)];
  for (const t of thresholds) values.push(t, nextUp(t), nextDown(t));
  if (column.type === 'numeric' && column.bounds) {
    for (const bound of column.bounds)
      values.push(bound, nextUp(bound), nextDown(bound), bound + 0.5, bound - 0.5);
  }
  for (let k = -40; k <= 40; k++) values.push(k / 2, k / 2 + 1e-9, k / 2 - 1e-9);
  const [lo, hi] = column.type === 'numeric' && column.bounds ? column.bounds : [-10, 10];
  for (let i = 0; i < 200; i++) values.push(lo - 2 + (hi - lo + 4) * random());
  const tokens = values.map((value) => String(value));
  tokens.push(
    '',
    'NA',
    'abc',
    '1e5',
    '.5',
    '+3',
    '1.',
    '-0',
    '0x10',
    ' 1',
    '1,5',
    '1E-3',
    '-.25e1',
    'NaN',
    'null',
  );
  return tokens;
}

function categoricalEdgeTokens(column: ColumnSchema): string[] {
  const listed = column.type === 'categorical' ? (column.categories ?? []) : [];
  return [...listed, ...listed, '', 'NA', 'unknown', 'a"b', 'back\\slash', "it's", 'A', ' a', 'null', 'NaN'];
}

/** Levels of every row: in memory (buildTable + levelsOfColumn) and from DuckDB over the CSV file. */
async function bothLevels(schema: Schema, rows: string[][], name: string) {
  const { codings, problems } = planColumnCodings(
    schema,
    { rule: 'fixed', fixedBins: 7, perColumn: {}, problems: [] },
    rows.length,
  );
  expect(problems).toEqual([]);
  const text =
    [
      schema.columns.map((column) => csvField(column.name)).join(','),
      ...rows.map((row) => row.map(csvField).join(',')),
    ].join('\n') + '\n';
  const path = join(folder, `${name}.csv`);
  writeFileSync(path, text);
  const { table } = buildTable(parseCsv(text, { fileName: path }), schema);
  const columns = columnsForCodings(table, codings);
  const memory = codings.map((coding, j) => Array.from(levelsOfColumn(columns[j]!, coding)));
  const relation = await duckDbFileRelation(connection, path, schema);
  const selects = codings.map(
    (coding, j) =>
      `${levelExpression('duckdb', schema, coding, sqlIdentifier('duckdb', coding.name), relation.storage(coding.name))} AS l${j}`,
  );
  const result = await connection.runAndReadAll(`SELECT ${selects.join(', ')} FROM ${relation.from}`);
  const engine = codings.map(() => [] as number[]);
  for (const row of result.getRowsJS()) row.forEach((value, j) => engine[j]!.push(Number(value)));
  return { memory, engine, codings, path, table };
}

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

describe('SQL coding in DuckDB equals the in-memory coder', () => {
  it('on every edge, CSV read as text', async () => {
    const schema: Schema = {
      version: 1,
      missing: ['', 'NA'],
      columns: [realColumn, integerColumn, categoryColumn, otherColumn],
    };
    const random = generator(7);
    const plan = planColumnCodings(schema, { rule: 'fixed', fixedBins: 7, perColumn: {}, problems: [] }, 1);
    const lists = [
      numericEdgeTokens(schema, realColumn, plan.codings[0]!, random),
      numericEdgeTokens(schema, integerColumn, plan.codings[1]!, random),
      categoricalEdgeTokens(categoryColumn),
      categoricalEdgeTokens(otherColumn),
    ];
    const length = Math.max(...lists.map((list) => list.length));
    const rows = Array.from({ length }, (_, i) => lists.map((list) => list[i % list.length]!));
    const { memory, engine } = await bothLevels(schema, rows, 'edges');
    for (let j = 0; j < memory.length; j++) expect(engine[j], `column ${j}`).toEqual(memory[j]);
    // The edges reach every level of every column, the missing level included.
    plan.codings.forEach((coding, j) => expect(new Set(memory[j]).size).toBe(coding.levels));
  });

  it('on random schemas and values (20 seeds)', async () => {
    for (let seed = 1; seed <= 20; seed++) {
      const random = generator(seed);
      const lo = (random() - 0.5) * 10 ** Math.floor(random() * 8);
      const hi = lo + random() * 10 ** Math.floor(random() * 8) + 1e-6;
      const columns: ColumnSchema[] = [
        { name: 'r', type: 'numeric', bounds: [lo, hi], source: 'declared' },
        {
          name: 'i',
          type: 'numeric',
          bounds: [Math.floor(lo), Math.floor(lo) + 1 + Math.floor(random() * 40)],
          integer: true,
          source: 'declared',
        },
      ];
      const schema: Schema = { version: 1, missing: ['', 'NA'], columns };
      const plan = planColumnCodings(schema, { rule: 'fixed', fixedBins: 7, perColumn: {}, problems: [] }, 1);
      const lists = columns.map((column, j) => numericEdgeTokens(schema, column, plan.codings[j]!, random));
      const length = Math.max(...lists.map((list) => list.length));
      const rows = Array.from({ length }, (_, i) => lists.map((list) => list[i % list.length]!));
      const { memory, engine } = await bothLevels(schema, rows, `random-${seed}`);
      for (let j = 0; j < memory.length; j++)
        expect(engine[j], `seed ${seed}, column ${j}`).toEqual(memory[j]);
    }
  });

  it('on typed DOUBLE and integer columns, NULL as missing', async () => {
    const schema: Schema = {
      version: 1,
      missing: ['', 'NA'],
      columns: [
        realColumn,
        integerColumn,
        { name: 'g', type: 'categorical', categories: ['0', '1', '2'], source: 'declared' },
      ],
    };
    const plan = planColumnCodings(schema, { rule: 'fixed', fixedBins: 7, perColumn: {}, problems: [] }, 1);
    const random = generator(99);
    const xs = numericEdgeTokens(schema, realColumn, plan.codings[0]!, random).filter(
      (t) => /^[-+]?[\d.]/.test(t) && Number.isFinite(Number(t)),
    );
    const values = xs.map((token) => Number(token));
    await connection.run('CREATE OR REPLACE TABLE typed (x DOUBLE, k DOUBLE, g BIGINT)');
    const literal = (v: number | null) => (v === null ? 'NULL' : `CAST('${String(v)}' AS DOUBLE)`);
    const rows = values.map(
      (v, i) =>
        [
          v,
          i % 9 === 0 || !Number.isFinite(v * 3) ? null : Math.round(v * 3) / 2,
          i % 7 === 0 ? null : i % 4,
        ] as const,
    );
    await connection.run(
      `INSERT INTO typed VALUES ${rows.map(([x, k, g]) => `(${literal(x)}, ${literal(k)}, ${g === null ? 'NULL' : g})`).join(', ')}`,
    );
    const selects = plan.codings.map(
      (coding, j) =>
        `${levelExpression('duckdb', schema, coding, sqlIdentifier('duckdb', coding.name), 'number')} AS l${j}`,
    );
    const engine = (await connection.runAndReadAll(`SELECT ${selects.join(', ')} FROM typed`))
      .getRowsJS()
      .map((row) => row.map(Number));
    // In memory: each value as the token JavaScript writes for it (String(v) reads back as v), NULL as ''.
    const text =
      ['x,k,g', ...rows.map((row) => row.map((v) => (v === null ? '' : String(v))).join(','))].join('\n') +
      '\n';
    const { table } = buildTable(parseCsv(text), schema);
    const columns = columnsForCodings(table, plan.codings);
    plan.codings.forEach((coding, j) => {
      expect(
        engine.map((row) => row[j]),
        `column ${coding.name}`,
      ).toEqual(Array.from(levelsOfColumn(columns[j]!, coding)));
    });
  });

  it('counts (cells and marginals) through DuckDB equal the in-memory counts', async () => {
    const schema: Schema = {
      version: 1,
      missing: ['', 'NA'],
      columns: [realColumn, integerColumn, categoryColumn, otherColumn],
    };
    const random = generator(3);
    const cats = ['a', 'b"q', 'c\\d', "e'f", 'NA2', '', 'zz'];
    const rows = Array.from({ length: 3000 }, () => [
      String(-3 + 16 * random()),
      random() < 0.05 ? 'NA' : String(Math.round(-6 + 30 * random())),
      cats[Math.floor(random() * cats.length)]!,
      ['x', 'y', 'w', '(other)', ''][Math.floor(random() * 5)]!,
    ]);
    const { codings, path, table } = await bothLevels(schema, rows, 'counts');
    const plan = { codings, cells: true, marginals: [[0], [1, 2], [3, 0, 2], []] };
    const memory = await memoryCountSource(table).counts(plan);
    // Every strategy: one GROUP BY per marginal, the full cross-tabulation summed here, and the choice.
    for (const strategy of ['marginals', 'cells', 'auto'] as const) {
      const source = await duckDbFileCountSource(path, schema, strategy);
      try {
        expect(await source.rowCount()).toBe(3000);
        const engine = await source.counts(plan);
        expect(engine.n).toBe(memory.n);
        expect(engine.cells, strategy).toEqual(memory.cells);
        for (const attrs of plan.marginals)
          expect(engine.marginal(attrs), strategy).toEqual(memory.marginal(attrs));
        expect(() => engine.marginal([1])).toThrow(/not in the run's count plan/);
      } finally {
        await source.close();
      }
    }
    expect(
      countQueries(schema, plan, { dialect: 'duckdb', from: 't', storage: () => 'text' }).map((q) => q.name),
    ).toEqual(['rows', 'cells', 'marginal-1', 'marginal-2', 'marginal-3', 'marginal-4']);
  });
});

describe('a column the schema says cannot be missing', () => {
  it('refuses a missing value in memory exactly when the SQL counts refuse it, and codes alike otherwise', async () => {
    const complete: ColumnSchema = { ...integerColumn, canBeMissing: false } as ColumnSchema;
    const completeCategory: ColumnSchema = { ...categoryColumn, canBeMissing: false } as ColumnSchema;
    const schema: Schema = { version: 1, missing: ['', 'NA'], columns: [complete, completeCategory] };
    for (const [name, rows] of [
      [
        'complete-ok',
        [
          ['1', 'a'],
          ['7.5', 'b"q'],
          ['-9', "e'f"],
        ],
      ],
      [
        'complete-missing-number',
        [
          ['1', 'a'],
          ['NA', 'a'],
        ],
      ],
      [
        'complete-missing-category',
        [
          ['1', 'a'],
          ['2', ''],
        ],
      ],
    ] as const) {
      const text = ['k,c', ...rows.map((row) => row.map(csvField).join(','))].join('\n') + '\n';
      const path = join(folder, `${name}.csv`);
      writeFileSync(path, text);
      const { codings } = planColumnCodings(
        schema,
        { rule: 'fixed', fixedBins: 7, perColumn: {}, problems: [] },
        rows.length,
      );
      const plan = { codings, cells: true, marginals: [[0], [1]] };
      const { table } = buildTable(parseCsv(text), schema);
      let memory: Awaited<ReturnType<ReturnType<typeof memoryCountSource>['counts']>> | Error;
      try {
        memory = await memoryCountSource(table).counts(plan);
      } catch (error) {
        memory = error as Error;
      }
      const source = await duckDbFileCountSource(path, schema);
      try {
        if (memory instanceof Error) {
          await expect(source.counts(plan), name).rejects.toThrow(/cannot be missing/);
        } else {
          const engine = await source.counts(plan);
          expect(engine.cells, name).toEqual(memory.cells);
          expect(engine.marginal([1]), name).toEqual(memory.marginal([1]));
        }
      } finally {
        await source.close();
      }
    }
  });
});
