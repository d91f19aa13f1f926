import { decodeCsvBytes, parseCsv } from '../../core/table/csv-read';
import { parseSchemaJson, checkSchemaMatchesHeader } from '../../core/table/schema-json';
import { buildTable } from '../../core/table/build-table';
import { writeCsv } from '../../core/table/csv-write';
import { getMechanism, mechanismIds } from '../../core/mechanisms/registry';
import { resolveParams } from '../../core/mechanisms/params';
import type { PublicContext } from '../../core/mechanisms/types';
import { parseBudget } from '../../core/privacy/budget';
import { buildReleaseReport } from '../../core/privacy/report';
import { makeRng } from '../../core/rng/make-rng';
import { InputError } from '../../core/table/errors';
import { readUserFile, type CliIo } from '../io';
import type { ParsedArgs } from '../run-cli';
import { UsageError } from '../errors';
import { formatClaim } from '../format-claim';
import { APP_VERSION } from '../../core/version';
import { releasePaths } from '../release-paths';

/** `dpsynth synth`: one DP run from a CSV and a declared schema to synthetic CSV(s) and a release report. */
export const synthCommand = {
  options: {
    schema: { type: 'string' },
    mechanism: { type: 'string' },
    epsilon: { type: 'string' },
    delta: { type: 'string' },
    releases: { type: 'string' },
    param: { type: 'string', multiple: true },
    seed: { type: 'string' },
    out: { type: 'string' },
    report: { type: 'string' },
    'drop-incomplete-rows': { type: 'boolean' },
    'escape-formulas': { type: 'boolean' },
  } as const,
  async run(args: ParsedArgs, io: CliIo) {
    const v = args.values;
    const [dataPath, extra] = args.positionals;
    if (!dataPath || extra) throw new UsageError('dpsynth synth takes exactly one CSV file.');
    for (const required of ['schema', 'mechanism', 'epsilon', 'out'] as const) {
      if (v[required] === undefined) throw new UsageError(missingOptionMessage(required));
    }
    const mechanismId = String(v.mechanism);
    const mechanism = getMechanism(mechanismId);
    if (!mechanism) {
      throw new InputError(`unknown mechanism '${mechanismId}'. Known: ${mechanismIds().join(', ')}.`);
    }
    const budget = parseBudget(String(v.epsilon), v.delta === undefined ? 0 : String(v.delta));
    const releases = parseReleases(v.releases);
    const params = resolveParams(mechanism, parseParamFlags((v.param as string[] | undefined) ?? []));
    const seed = v.seed === undefined ? undefined : String(v.seed);

    const schemaPath = String(v.schema);
    const schema = parseSchemaJson(
      decodeCsvBytes(readUserFile(schemaPath, 'schema'), schemaPath),
      schemaPath,
    );
    const raw = parseCsv(decodeCsvBytes(readUserFile(dataPath, 'CSV'), dataPath), {
      fileName: dataPath,
      onProgress: (f) => io.progress?.(f * 0.3, 'reading'),
    });
    checkSchemaMatchesHeader(schema, raw.header, dataPath);

    const dropIncompleteRows = Boolean(v['drop-incomplete-rows']);
    const { table, report: validation } = buildTable(raw, schema, { dropIncompleteRows });
    for (const message of validation.messages) io.err(`dpsynth: ${dataPath}: ${message}\n`);

    const context: PublicContext = {
      n: table.nRows,
      schema,
      epsilon: String(v.epsilon),
      delta: v.delta === undefined ? 0 : String(v.delta),
      releases,
      seeded: seed !== undefined,
    };
    const problems = mechanism.check(schema, params, context);
    if (problems.length > 0) {
      throw new InputError(`${mechanism.id} cannot run on ${schemaPath}:\n  - ${problems.join('\n  - ')}`);
    }
    const release = await mechanism.run(table, schema, params, {
      ...context,
      rng: makeRng(seed),
      progress: (f, message) => io.progress?.(0.3 + 0.6 * f, message ?? mechanism.id),
      signal: { aborted: false },
    });
    if (dropIncompleteRows) {
      release.claim.assumptions.push(
        `${validation.droppedIncompleteRows} incomplete rows were dropped before synthesis (--drop-incomplete-rows). ` +
          `The guarantee is for the remaining ${table.nRows} complete rows as the dataset, with that count ` +
          'treated as public; it does not cover a change that turns a complete row of the file into an ' +
          'incomplete one (or back), since that changes n.',
      );
    }

    const outPaths = releasePaths(String(v.out), release.datasets.length);
    release.datasets.forEach((dataset, i) => {
      io.writeFile(outPaths[i]!, writeCsv(dataset, { escapeFormulas: Boolean(v['escape-formulas']) }));
    });
    const reportPath = v.report === undefined ? undefined : String(v.report);
    const report = buildReleaseReport({
      appVersion: APP_VERSION,
      schema,
      mechanism,
      params,
      claim: release.claim,
      rows: table.nRows,
      releases: release.datasets.length,
      seeded: seed !== undefined,
      budget,
      notes: dropIncompleteRows
        ? [
            `rows counts the complete rows the mechanism saw: ${validation.droppedIncompleteRows} of ` +
              `${table.nRows + validation.droppedIncompleteRows} rows in ${dataPath} were dropped as incomplete.`,
          ]
        : [],
    });
    if (reportPath) io.writeFile(reportPath, `${JSON.stringify(report, null, 2)}\n`);
    io.progress?.(1, 'done');
    io.err(
      `dpsynth: wrote ${outPaths.join(', ')}${reportPath ? ` and ${reportPath}` : ''}\n${formatClaim(release.claim)}`,
    );
  },
};

function missingOptionMessage(option: string): string {
  if (option === 'schema') {
    return (
      'dpsynth synth needs --schema s.json. Create one with `dpsynth schema data.csv > s.json`, replace the ' +
      'inferred bounds and categories with public knowledge, and mark them "declared".'
    );
  }
  return `dpsynth synth needs --${option}.`;
}

function parseReleases(value: unknown): number {
  if (value === undefined) return 1;
  const text = String(value);
  const m = Number(text);
  if (!/^\d+$/.test(text) || !Number.isInteger(m) || m < 1 || m > 1000) {
    throw new InputError(`--releases must be a whole number between 1 and 1000; got '${text}'.`);
  }
  return m;
}

/** Turns repeated `--param key=value` flags into a map of raw strings. */
export function parseParamFlags(flags: string[]): Record<string, string> {
  const result: Record<string, string> = {};
  for (const flag of flags) {
    const eq = flag.indexOf('=');
    if (eq <= 0) throw new InputError(`--param needs key=value; got '${flag}'.`);
    const key = flag.slice(0, eq);
    if (key in result) throw new InputError(`--param ${key} is given twice.`);
    result[key] = flag.slice(eq + 1);
  }
  return result;
}
