import { cellStrides } from '../mechanisms/common/coding/column-coding';
import type { Schema } from '../table/types';
import { attributeSetKey, marginalStrides, type CountQueryPlan } from './count-source';
import { levelExpression, sqlIdentifier, type ColumnStorage, type SqlDialect } from './sql-coding';

/** Where the rows are, as a query names them: a FROM item and how each column is stored. */
export interface SqlRelation {
  dialect: SqlDialect;
  /** A FROM item: a table name, or DuckDB's read_parquet('…') / read_csv(…). */
  from: string;
  storage(column: string): ColumnStorage;
}

/** One count query: its name (the results file of `synth --counts`), what it counts, and its SQL. */
export interface CountQuery {
  name: string;
  /** `rows`: one row, column `count`. `cells`/`marginal`: columns `cell`, `count`, one row per non-empty cell. */
  kind: 'rows' | 'cells' | 'marginal';
  /** For marginals: the attribute set (indices into the plan's codings). */
  attrs?: number[];
  /** Column names counted, in order (for people reading the query). */
  columns: string[];
  sql: string;
}

/**
 * The queries of a plan: n, then the full cross-tabulation (when asked), then one GROUP BY per
 * marginal. Each is a function of the schema, the codings and the parameters only: no query depends
 * on the data, so the set of counts read is fixed before any data is read. The cell number is
 * Σ level_j · stride_j over the counted columns (last fastest), as in memory.
 */
export function countQueries(schema: Schema, plan: CountQueryPlan, relation: SqlRelation): CountQuery[] {
  const { dialect } = relation;
  const level = (j: number) => {
    const coding = plan.codings[j]!;
    return levelExpression(
      dialect,
      schema,
      coding,
      sqlIdentifier(dialect, coding.name),
      relation.storage(coding.name),
    );
  };
  const grouped = (attrs: readonly number[], strides: readonly number[]) => {
    const terms = attrs.map((a, q) => `(${level(a)}) * ${strides[q]}`);
    const cell = terms.length === 0 ? '0' : terms.join(' + ');
    const wide = dialect === 'clickhouse' ? `toUInt64(${cell})` : `CAST(${cell} AS BIGINT)`;
    return (
      `SELECT cell, count(*) AS count FROM (SELECT ${wide} AS cell FROM ${relation.from}) AS coded ` +
      'GROUP BY cell ORDER BY cell'
    );
  };
  const all = plan.codings.map((_, j) => j);
  const queries: CountQuery[] = [
    { name: 'rows', kind: 'rows', columns: [], sql: `SELECT count(*) AS count FROM ${relation.from}` },
  ];
  if (plan.cells) {
    queries.push({
      name: 'cells',
      kind: 'cells',
      columns: plan.codings.map((coding) => coding.name),
      sql: grouped(all, cellStrides(plan.codings)),
    });
  }
  plan.marginals.forEach((attrs, k) => {
    queries.push({
      name: `marginal-${k + 1}`,
      kind: 'marginal',
      attrs: [...attrs],
      columns: attrs.map((a) => plan.codings[a]!.name),
      sql: grouped(attrs, marginalStrides(plan.codings, attrs)),
    });
  });
  return queries;
}

/** Marginal query names by attribute set, for reading results back. */
export function marginalQueryNames(queries: readonly CountQuery[]): Map<string, string> {
  return new Map(
    queries
      .filter((query) => query.kind === 'marginal')
      .map((query) => [attributeSetKey(query.attrs!), query.name]),
  );
}
