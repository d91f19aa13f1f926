import { InputError } from '../table/errors';
import type { CountQuery } from './count-queries';
import type { CountQueryPlan } from './count-source';

/**
 * The counts folder of `dpsynth counts --print-sql … --out-dir DIR` and `dpsynth synth --counts DIR`:
 * - `plan.json`: what the counts are ({"format": "dpsynth-counts", "version": 1, mechanism, params,
 *   rows, codings, queries: [{name, kind, columns, attrs?}]}), written by dpsynth;
 * - `<name>.sql`: each query, written by dpsynth, run by the user on their engine;
 * - `<name>.csv`: each query's result, saved by the user: a header line, then one line per result
 *   row, comma-separated whole numbers: `count` for `rows`, `cell,count` for the others (empty
 *   cells may be left out; each cell at most once).
 */
export interface CountsFolderPlan {
  format: 'dpsynth-counts';
  version: 1;
  mechanism: string;
  params: Record<string, unknown>;
  rows: number;
  codings: CountQueryPlan['codings'];
  queries: { name: string; kind: CountQuery['kind']; columns: string[]; attrs?: number[] }[];
}

export function countsFolderPlan(
  mechanism: string,
  params: Record<string, unknown>,
  rows: number,
  plan: CountQueryPlan,
  queries: readonly CountQuery[],
): CountsFolderPlan {
  return {
    format: 'dpsynth-counts',
    version: 1,
    mechanism,
    params,
    rows,
    codings: plan.codings,
    queries: queries.map(({ name, kind, columns, attrs }) => ({
      name,
      kind,
      columns,
      ...(attrs === undefined ? {} : { attrs }),
    })),
  };
}

/** Reads plan.json; an InputError naming the file when it is not a counts plan. */
export function parseCountsFolderPlan(text: string, file: string): CountsFolderPlan {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new InputError(`${file}: not JSON (${(error as Error).message}).`, { file });
  }
  const plan = parsed as Partial<CountsFolderPlan>;
  if (plan?.format !== 'dpsynth-counts' || plan.version !== 1 || !Array.isArray(plan.queries)) {
    throw new InputError(
      `${file}: not a dpsynth counts plan (write it with dpsynth counts --print-sql --out-dir).`,
      { file },
    );
  }
  return plan as CountsFolderPlan;
}

/**
 * The result rows of one query's CSV: a header naming the columns (`count`, or `cell,count`), then
 * whole numbers. Quotes around a field and a final line break are allowed.
 */
export function parseCountsCsv(text: string, file: string, kind: CountQuery['kind']): number[][] {
  const expected = kind === 'rows' ? ['count'] : ['cell', 'count'];
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  while (lines.length > 0 && lines.at(-1) === '') lines.pop();
  const unquote = (field: string) => field.trim().replace(/^"(.*)"$/, '$1');
  const header = (lines[0] ?? '').split(',').map((field) => unquote(field).toLowerCase());
  if (header.join(',') !== expected.join(',')) {
    throw new InputError(
      `${file}, line 1: the header must be \`${expected.join(',')}\`; got \`${lines[0] ?? ''}\`.`,
      { file, line: 1 },
    );
  }
  return lines.slice(1).map((line, i) => {
    const fields = line.split(',').map(unquote);
    if (fields.length !== expected.length || fields.some((field) => !/^\d+$/.test(field))) {
      throw new InputError(
        `${file}, line ${i + 2}: expected ${expected.length} whole number${expected.length > 1 ? 's' : ''} (${expected.join(', ')}); got \`${line}\`.`,
        { file, line: i + 2 },
      );
    }
    return fields.map(Number);
  });
}
