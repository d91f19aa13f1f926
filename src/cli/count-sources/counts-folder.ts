import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CountQuery } from '../../core/counts/count-queries';
import type { CountSource } from '../../core/counts/count-source';
import { parseCountsCsv, parseCountsFolderPlan } from '../../core/counts/counts-files';
import { assembleCounts } from '../../core/counts/sql-count-source';
import { InputError } from '../../core/table/errors';

function readText(path: string, what: string): string {
  if (!existsSync(path)) {
    throw new InputError(
      `${path}: ${what} is missing. Run the query in ${path.replace(/\.csv$/, '.sql')} and save its result there.`,
      {
        file: path,
      },
    );
  }
  return readFileSync(path, 'utf8');
}

/**
 * `synth --counts DIR`: counts computed by the user on any engine from the queries of
 * `dpsynth counts --print-sql --out-dir DIR`. The folder's plan must be the run's plan (same
 * mechanism, parameters, n and codings), so results of other queries are never read as these.
 */
export function countsFolderSource(
  folder: string,
  mechanismId: string,
  params: Record<string, unknown>,
): CountSource {
  const planPath = join(folder, 'plan.json');
  const saved = parseCountsFolderPlan(readText(planPath, 'the counts plan'), planPath);
  if (saved.mechanism !== mechanismId || JSON.stringify(saved.params) !== JSON.stringify(params)) {
    throw new InputError(
      `${planPath}: the counts were planned for ${saved.mechanism} with parameters ${JSON.stringify(saved.params)}, ` +
        `not ${mechanismId} with ${JSON.stringify(params)}. Print the queries again for this run.`,
      { file: planPath },
    );
  }
  const rowsOf = (query: { name: string; kind: CountQuery['kind'] }) =>
    parseCountsCsv(
      readText(join(folder, `${query.name}.csv`), `the result of ${query.name}`),
      join(folder, `${query.name}.csv`),
      query.kind,
    );
  return {
    where: `the user's SQL engine (results in ${folder})`,
    rowCount: () => {
      const rows = rowsOf({ name: 'rows', kind: 'rows' });
      const n = rows[0]?.[0];
      if (rows.length !== 1 || n !== saved.rows) {
        throw new InputError(
          `${join(folder, 'rows.csv')}: the row count must be one line equal to the planned ${saved.rows} rows.`,
        );
      }
      return Promise.resolve(n);
    },
    counts(plan) {
      if (JSON.stringify(plan.codings) !== JSON.stringify(saved.codings)) {
        throw new InputError(
          `${planPath}: the counts were planned for another schema or binning. Print the queries again for this run.`,
          {
            file: planPath,
          },
        );
      }
      const queries = saved.queries as CountQuery[];
      const expectedSets = plan.marginals.map((attrs) => attrs.join(','));
      const savedSets = queries.filter((q) => q.kind === 'marginal').map((q) => (q.attrs ?? []).join(','));
      if (
        expectedSets.join(';') !== savedSets.join(';') ||
        plan.cells !== queries.some((q) => q.kind === 'cells')
      ) {
        throw new InputError(
          `${planPath}: the planned queries are not this run's. Print the queries again for this run.`,
          { file: planPath },
        );
      }
      return Promise.resolve(
        assembleCounts(plan, queries, saved.rows, (name) => rowsOf(queries.find((q) => q.name === name)!)),
      );
    },
    close: () => Promise.resolve(),
  };
}
