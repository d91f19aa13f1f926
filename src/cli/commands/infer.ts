import { formatEstimand, parseEstimand } from '../../core/inference/estimand';
import { inferFromReleases, type CombinedParameter } from '../../core/inference/release-inference';
import { buildTable } from '../../core/table/build-table';
import { decodeCsvBytes } from '../../core/table/csv-read';
import { InputError } from '../../core/table/errors';
import { inferSchema } from '../../core/table/infer';
import { checkSchemaMatchesHeader, parseSchemaJson } from '../../core/table/schema-json';
import type { Schema } from '../../core/table/types';
import { UsageError } from '../errors';
import type { StoredTable } from '../../core/table/csv-stream-read';
import { readCsvFile, readUserFile, type CliIo } from '../io';
import type { ParsedArgs } from '../args';

/** Missing tokens when no schema is given: the same as `metrics` without a schema. */
const DEFAULT_MISSING_TOKENS = ['', 'NA'];

/** A number for people: 6 significant digits, ∞ for an infinite ν. */
function show(x: number | null): string {
  return x === null ? '∞' : Number(x.toPrecision(6)).toString();
}

function jsonOf(parameter: CombinedParameter) {
  return {
    estimate: parameter.estimate,
    se: parameter.se,
    df: parameter.df,
    ci: parameter.ci,
    between: parameter.between,
    within: parameter.within,
  };
}

/**
 * `dpsynth infer synth.1.csv … synth.M.csv --estimand mean:COL | proportion:COL=LEVEL | coef:Y~X1+X2`:
 * the estimand on each release, combined by Bowen & Liu's eqs. 9–11 (../../core/inference/release-inference.ts,
 * the function the studio's inference panel calls).
 */
export const inferCommand = {
  options: {
    estimand: { type: 'string' },
    schema: { type: 'string' },
    json: { type: 'boolean' },
  } as const,
  async run(args: ParsedArgs, io: CliIo) {
    const paths = args.positionals;
    if (paths.length < 2)
      throw new UsageError('dpsynth infer takes two or more synthetic CSVs (one per release).');
    if (args.values.estimand === undefined)
      throw new UsageError('dpsynth infer needs --estimand mean:COL, proportion:COL=LEVEL or coef:Y~X1+X2.');
    const raws: StoredTable[] = [];
    for (const path of paths) raws.push(await readCsvFile(path));
    let schema: Schema;
    if (args.values.schema !== undefined) {
      const schemaPath = String(args.values.schema);
      schema = parseSchemaJson(decodeCsvBytes(readUserFile(schemaPath, 'schema'), schemaPath), schemaPath);
      raws.forEach((raw, i) => checkSchemaMatchesHeader(schema, raw.header, paths[i]!));
    } else {
      const header = raws[0]!.header;
      raws.forEach((raw, i) => {
        const same = raw.header.length === header.length && raw.header.every((h, j) => h === header[j]);
        if (!same)
          throw new InputError(
            `${paths[i]} must have the same columns as ${paths[0]}: ${header.join(', ')}.`,
            {
              file: paths[i]!,
            },
          );
      });
      // Pooled typing over the releases; bounds and categories are not needed to estimate.
      schema = inferSchema(raws, { missing: DEFAULT_MISSING_TOKENS });
      schema = {
        ...schema,
        columns: schema.columns.map((c) =>
          c.type === 'numeric'
            ? { name: c.name, type: 'numeric', source: c.source }
            : { name: c.name, type: 'categorical', source: c.source },
        ),
      };
    }
    const tables = raws.map((raw) => buildTable(raw, schema).table);
    const estimand = parseEstimand(
      String(args.values.estimand),
      schema.columns.map((c) => c.name),
    );
    const result = inferFromReleases(tables, estimand);
    if (args.values.json) {
      const body =
        estimand.kind === 'coef'
          ? {
              family: result.family,
              coefficients: result.parameters.map((p) => ({ term: p.term, ...jsonOf(p) })),
            }
          : jsonOf(result.parameters[0]!);
      io.out(
        `${JSON.stringify({ estimand: formatEstimand(estimand), releases: result.releases, level: result.level, ...body }, null, 2)}\n`,
      );
      return;
    }
    const lines = [
      `${formatEstimand(estimand)} from ${result.releases} releases (Bowen & Liu eqs. 9–11: T = B/m + W, t with ν = (m − 1)(1 + mW/B)²)`,
      ...result.parameters.map(
        (p) =>
          `${p.term}: estimate ${show(p.estimate)}, se ${show(p.se)}, ν ${show(p.df)}, ` +
          `${Math.round(result.level * 100)}% CI [${show(p.ci[0])}, ${show(p.ci[1])}]`,
      ),
    ];
    io.out(`${lines.join('\n')}\n`);
  },
};
