import type { SparseCellCounts } from '../cells/sparse-cell-counts';
import { domainCellCount } from '../mechanisms/common/coding/column-coding';
import { InputError } from '../table/errors';
import { marginalsFromCells } from './marginals-from-cells';
import type { Schema } from '../table/types';
import { countQueries, type CountQuery, type SqlRelation } from './count-queries';
import {
  attributeSetKey,
  marginalCells,
  plannedCounts,
  type CountQueryPlan,
  type CountSource,
  type PlannedCounts,
} from './count-source';

/**
 * How a source reads a plan's marginals: `marginals`, one GROUP BY per attribute set; `cells`, one
 * GROUP BY over every coded column (the distinct coded rows with their multiplicities), the marginals
 * summed here; `auto`, cells when the full cross-tabulation has at most FULL_TABLE_CELL_LIMIT cells (a
 * bound on the result's size fixed by the schema, whatever the data). The choice changes the speed,
 * never a count.
 */
export type CountStrategy = 'auto' | 'cells' | 'marginals';
export const FULL_TABLE_CELL_LIMIT = 10_000_000;

function usesCellStrategy(plan: CountQueryPlan, strategy: CountStrategy): boolean {
  if (plan.marginals.length === 0 || strategy === 'marginals') return false;
  const cells = domainCellCount(plan.codings);
  if (strategy === 'cells') return cells <= 2 ** 32;
  return plan.marginals.length > 1 && cells <= FULL_TABLE_CELL_LIMIT;
}

/** Runs one count query and gives its result rows: [count] for `rows`, [cell, count] otherwise. */
export interface CountQueryRunner {
  run(query: CountQuery): Promise<(readonly (number | bigint | string | null)[])[]>;
  close(): Promise<void>;
}

/** A whole number from a result cell (DuckDB gives bigint, ClickHouse's JSON text); refuses anything else. */
export function wholeNumber(value: number | bigint | string | null, what: string): number {
  const number = typeof value === 'number' ? value : Number(value);
  if (!Number.isSafeInteger(number) || number < 0) {
    throw new Error(`${what}: expected a whole number ≥ 0, got ${String(value)}.`);
  }
  return number;
}

/**
 * A count source over any SQL engine: it runs the plan's queries (count-queries.ts) and assembles
 * their results into the same arrays the in-memory source gives. Every result is checked: cells inside
 * the domain, each cell once, counts summing to n.
 */
export function sqlCountSource(
  where: string,
  schema: Schema,
  relation: SqlRelation,
  runner: CountQueryRunner,
  strategy: CountStrategy = 'auto',
): CountSource {
  let n: number | undefined;
  const rowCount = async () => {
    if (n === undefined) {
      const rows = await runner.run(
        countQueries(schema, { codings: [], cells: false, marginals: [] }, relation)[0]!,
      );
      n = wholeNumber(rows[0]?.[0] ?? NaN, 'the row count');
    }
    return n;
  };
  return {
    where,
    rowCount,
    async counts(asked) {
      // One scan for the full cross-tabulation instead of one per marginal, when it is small enough.
      const fromCells = usesCellStrategy(asked, strategy);
      const plan = fromCells ? { codings: asked.codings, cells: true, marginals: [] } : asked;
      const queries = countQueries(schema, plan, relation);
      const results = new Map<string, (readonly (number | bigint | string | null)[])[]>();
      for (const query of queries) {
        if (query.kind === 'rows' && n !== undefined) continue;
        results.set(query.name, await runner.run(query));
      }
      if (n === undefined) n = wholeNumber(results.get('rows')?.[0]?.[0] ?? NaN, 'the row count');
      const counts = assembleCounts(plan, queries, n, (name) => results.get(name)!);
      if (!fromCells) return counts;
      const marginals = marginalsFromCells(asked.codings, counts.cells!, asked.marginals);
      return plannedCounts(n, marginals, asked.cells ? counts.cells : undefined);
    },
    close: () => runner.close(),
  };
}

/** The plan's counts from the result rows of its queries (from an engine or from files). */
export function assembleCounts(
  plan: CountQueryPlan,
  queries: readonly CountQuery[],
  n: number,
  resultOf: (name: string) => readonly (readonly (number | bigint | string | null)[])[],
): PlannedCounts {
  let cells: SparseCellCounts | undefined;
  const marginals = new Map<string, Float64Array>();
  for (const query of queries) {
    if (query.kind === 'rows') continue;
    const domain =
      query.kind === 'cells'
        ? marginalCells(
            plan.codings,
            plan.codings.map((_, j) => j),
          )
        : marginalCells(plan.codings, query.attrs!);
    const rows = resultOf(query.name);
    const pairs = rows.map((row, i) => {
      const what = `${query.name}, result row ${i + 1}`;
      if (row[0] === null || row[0] === '\\N') {
        throw new InputError(
          `a row has a missing value in a column the schema says cannot be missing (one of ${query.columns.map((c) => `\`${c}\``).join(', ')}): ` +
            'mark the column as one that can be missing, or remove such rows.',
        );
      }
      const cell = wholeNumber(row[0] ?? NaN, `${what}, cell`);
      if (cell >= domain)
        throw new Error(`${what}: cell ${cell} is outside the ${domain} cells of the query.`);
      return [cell, wholeNumber(row[1] ?? NaN, `${what}, count`)] as const;
    });
    pairs.sort((a, b) => a[0] - b[0]);
    let total = 0;
    pairs.forEach(([cell, count], i) => {
      if (i > 0 && pairs[i - 1]![0] === cell) throw new Error(`${query.name}: cell ${cell} appears twice.`);
      total += count;
    });
    if (total !== n) throw new Error(`${query.name}: the counts sum to ${total}, not to the row count ${n}.`);
    if (query.kind === 'cells') {
      const nonEmpty = pairs.filter(([, count]) => count > 0);
      cells = {
        cells: Uint32Array.from(nonEmpty, ([cell]) => cell),
        counts: Uint32Array.from(nonEmpty, ([, count]) => count),
      };
    } else {
      const dense = new Float64Array(domain);
      for (const [cell, count] of pairs) dense[cell] = count;
      marginals.set(attributeSetKey(query.attrs!), dense);
    }
  }
  return plannedCounts(n, marginals, cells);
}
