import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { COUNT_MECHANISMS, countSourceProblems } from '../../core/counts/count-mechanisms';
import { countQueries } from '../../core/counts/count-queries';
import { countsFolderPlan } from '../../core/counts/counts-files';
import { SQL_DIALECTS, type SqlDialect } from '../../core/counts/sql-coding';
import { getMechanism, parseMechanismId } from '../../core/mechanisms/registry';
import { resolveParams } from '../../core/mechanisms/params';
import type { PublicContext } from '../../core/mechanisms/types';
import { decodeCsvBytes } from '../../core/table/csv-read';
import { InputError } from '../../core/table/errors';
import { parseSchemaJson } from '../../core/table/schema-json';
import { readUserFile, type CliIo } from '../io';
import { UsageError } from '../errors';
import type { ParsedArgs } from '../args';
import { parseParamFlags } from '../synth-options';

/**
 * `dpsynth counts --print-sql`: the count queries of a run, for any SQL engine. The queries follow
 * from the schema, the mechanism, its parameters and n only; the user runs them where the data lives
 * and passes their results to `synth --counts DIR` (format: core/counts/counts-files.ts).
 */
export const countsCommand = {
  options: {
    'print-sql': { type: 'boolean' },
    dialect: { type: 'string' },
    schema: { type: 'string' },
    mechanism: { type: 'string' },
    param: { type: 'string', multiple: true },
    rows: { type: 'string' },
    table: { type: 'string' },
    'out-dir': { type: 'string' },
  } as const,
  run(args: ParsedArgs, io: CliIo) {
    const v = args.values;
    if (v['print-sql'] !== true) throw new UsageError('dpsynth counts needs --print-sql.');
    if (args.positionals.length > 0) throw new UsageError('dpsynth counts --print-sql reads no data file.');
    for (const required of ['schema', 'mechanism', 'rows', 'table'] as const) {
      if (v[required] === undefined) throw new UsageError(`dpsynth counts --print-sql needs --${required}.`);
    }
    const dialect = String(v.dialect ?? 'ansi') as SqlDialect;
    if (!SQL_DIALECTS.includes(dialect)) {
      throw new UsageError(`--dialect must be one of ${SQL_DIALECTS.join(', ')}; got '${dialect}'.`);
    }
    const rowsText = String(v.rows);
    const n = Number(rowsText);
    if (!/^\d+$/.test(rowsText) || !Number.isSafeInteger(n) || n < 1) {
      throw new InputError(`--rows must be the table's row count, a whole number ≥ 1; got '${rowsText}'.`);
    }
    const mechanismId = parseMechanismId(String(v.mechanism));
    const mechanism = getMechanism(mechanismId);
    const countMechanism = COUNT_MECHANISMS[mechanismId];
    if (countMechanism === undefined) {
      throw new InputError(`${mechanismId} ${countSourceProblems(mechanismId, 'printed SQL')[0]!}`);
    }
    const schemaPath = String(v.schema);
    const schema = parseSchemaJson(
      decodeCsvBytes(readUserFile(schemaPath, 'schema'), schemaPath),
      schemaPath,
    );
    const params = resolveParams(mechanism, parseParamFlags((v.param as string[] | undefined) ?? []));
    const context: PublicContext = { n, schema, epsilon: 1, delta: 0, releases: 1, seeded: false };
    const problems = mechanism.check(schema, params, context);
    if (problems.length > 0) {
      throw new InputError(`${mechanism.id} cannot run on ${schemaPath}:\n  - ${problems.join('\n  - ')}`);
    }
    const plan = countMechanism.countPlan(schema, params, context);
    // Numeric columns are read as numbers (NULL or NaN missing), categorical ones as text (NULL = "").
    const queries = countQueries(schema, plan, {
      dialect,
      from: String(v.table),
      storage: (name) =>
        schema.columns.find((c) => c.name === name)?.type === 'numeric' ? 'number' : 'text',
    });
    const outDir = v['out-dir'] === undefined ? undefined : String(v['out-dir']);
    if (outDir !== undefined) {
      mkdirSync(outDir, { recursive: true });
      const manifest = countsFolderPlan(mechanism.id, params, n, plan, queries);
      writeFileSync(join(outDir, 'plan.json'), `${JSON.stringify(manifest, null, 1)}\n`);
      for (const query of queries) writeFileSync(join(outDir, `${query.name}.sql`), `${query.sql};\n`);
    }
    for (const query of queries) {
      const what = query.kind === 'rows' ? 'the row count' : `counts of ${query.columns.join(' × ')}`;
      io.out(
        `-- ${query.name}.csv (header ${query.kind === 'rows' ? 'count' : 'cell,count'}): ${what}\n${query.sql};\n\n`,
      );
    }
  },
};
