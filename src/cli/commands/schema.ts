import { appendFileSync, closeSync, openSync, readSync } from 'node:fs';
import { basename } from 'node:path';
import { DEFAULT_DOMAIN_DELTA } from '../../core/domain/domain-defaults';
import { formatPlanTable, refusalMessage, type DomainPlan } from '../../core/domain/domain-plan';
import { learnDomain, planLearning } from '../../core/domain/learn-domain';
import { DEFAULT_SEARCH_RANGE } from '../../core/domain/search-grid';
import { parseCsv } from '../../core/table/csv-read';
import { parseBudget } from '../../core/privacy/budget';
import { formatBudget, ledgerLine, type LedgerEntry } from '../../core/privacy/ledger';
import { roundUpRational } from '../../core/privacy/round-up';
import { parseRational } from '../../core/rng/rational';
import { makeRng } from '../../core/rng/make-rng';
import { decodeCsvBytes } from '../../core/table/csv-read';
import type { TableSource } from '../../core/table/table-source';
import { InputError } from '../../core/table/errors';
import { inferSchema, DEFAULT_MISSING_TOKENS } from '../../core/table/infer';
import { checkSchemaMatchesHeader, parseSchemaJson, schemaToJson } from '../../core/table/schema-json';
import type { Schema } from '../../core/table/types';
import { readCsvFile, readUserFile, type CliIo } from '../io';
import type { ParsedArgs } from '../args';
import { UsageError } from '../errors';
import { checkOutputPaths } from '../output-files';

/**
 * `dpsynth schema data.csv`: prints the schema inferred from the data (every field marked
 * "inferred"); with --private, learns every fact that is not declared with DP instead (marked
 * "dp", its cost recorded in the schema's domainBudget).
 */
export const schemaCommand = {
  options: {
    missing: { type: 'string' },
    private: { type: 'boolean' },
    epsilon: { type: 'string' },
    delta: { type: 'string' },
    quantiles: { type: 'string' },
    'search-range': { type: 'string' },
    split: { type: 'string' },
    schema: { type: 'string' },
    seed: { type: 'string' },
    ledger: { type: 'string' },
    plan: { type: 'boolean' },
    rows: { type: 'string' },
    force: { type: 'boolean' },
  } as const,
  async run(args: ParsedArgs, io: CliIo) {
    const v = args.values;
    const [path, extra] = args.positionals;
    if (!path || extra) throw new UsageError('dpsynth schema takes exactly one CSV file.');
    const privateOnly = [
      'epsilon',
      'delta',
      'quantiles',
      'search-range',
      'split',
      'seed',
      'ledger',
      'plan',
      'rows',
      'force',
    ] as const;
    if (!v.private) {
      const given = privateOnly.filter((option) => v[option] !== undefined);
      if (given.length > 0) {
        throw new UsageError(`--${given[0]} goes with --private (learn the domain with DP).`);
      }
    }
    if (v.rows !== undefined && !v.plan) {
      throw new UsageError('--rows goes with --plan (the plan for n rows, without reading the data).');
    }
    if (v.private && v.plan) {
      planOnly(path, v, io);
      return;
    }
    const raw = await readCsvFile(path, { onProgress: (f) => io.progress?.(f, 'reading') });
    const start =
      v.schema === undefined
        ? undefined
        : readStartSchema(String(v.schema), raw, path, v.missing !== undefined);
    const missing =
      start?.missing ??
      (v.missing === undefined ? [...DEFAULT_MISSING_TOKENS] : parseTokenList(String(v.missing)));
    const inferred = inferSchema(raw, { missing });
    if (!v.private) {
      if (start !== undefined)
        throw new UsageError('--schema goes with --private (learn what it does not declare).');
      io.out(`${schemaToJson(inferred)}\n`);
      io.err(
        `dpsynth: every field above was read from ${path}, so it is marked "inferred". Replace bounds and categories ` +
          'with public knowledge and mark them "declared" before synthesizing, or learn them with DP: ' +
          `dpsynth schema ${path} --private --epsilon 0.1 --delta 1e-6.\n`,
      );
      return;
    }
    if (v.epsilon === undefined) {
      throw new UsageError(
        'dpsynth schema --private needs --epsilon E, the budget for learning the domain (e.g. 0.1).',
      );
    }
    const epsilon = String(v.epsilon);
    // δ only pays for category lists; 1e-6 by default, as in the studio. An explicit 0 is refused
    // by learnDomain when a list may have to be learned, saying why.
    const delta = v.delta === undefined ? DEFAULT_DOMAIN_DELTA : String(v.delta);
    parseBudget(epsilon, delta); // the budget's own message for a bad ε or δ
    const ledgerPath = v.ledger === undefined ? undefined : String(v.ledger);
    if (ledgerPath !== undefined) {
      checkOutputPaths([{ path: ledgerPath, what: 'the ledger' }], [{ path, what: 'the data file' }], true);
    }
    const seed = v.seed === undefined ? undefined : String(v.seed);
    const options = learnOptions(v, epsilon, delta);
    // The plan first, from public facts only (the header, n, ε, δ, the grid, what --schema
    // declares): printed, and a refusal ends here, with nothing reserved, drawn or written.
    const plan = planOf(start ?? bareSchema(raw.header, missing), raw.nRows, options);
    io.err(`dpsynth: the plan for ${raw.nRows} rows (public facts only):\n${formatPlanTable(plan)}\n`);
    if (plan.failing.length > 0 && v.force !== true)
      throw new InputError(refusalMessage(plan), { file: path });
    const { schema, steps, warnings } = learnDomain(
      raw,
      start ?? inferred,
      { ...options, ...(v.force === true ? { force: true } : {}) },
      makeRng(seed),
    );
    const spent = {
      epsilon: roundUpRational(
        steps.reduce((s, step) => s.add(parseRational(step.epsilon)), parseRational(0)),
      ),
      delta: roundUpRational(steps.reduce((s, step) => s.add(parseRational(step.delta)), parseRational(0))),
    };
    if (ledgerPath !== undefined) appendDomainEntry(ledgerPath, schema, spent, path);
    io.out(`${schemaToJson(schema)}\n`);
    for (const warning of warnings) io.err(`warning: ${warning}\n`);
    io.err(
      `dpsynth: ${steps.length} fact${steps.length === 1 ? '' : 's'} of ${path} learned with DP, marked "dp": ` +
        `${formatBudget(spent)} spent (recorded in "domainBudget"; every run on this schema adds it to its claim)` +
        (ledgerPath === undefined ? '' : `, counted in the ledger ${ledgerPath}`) +
        '.\n' +
        (seed === undefined
          ? ''
          : 'dpsynth: a seed was set, so this schema is reproducible and not for release.\n'),
    );
  },
};

type SchemaValues = ParsedArgs['values'];

/** The learning options the command line gives (also the plan's). */
function learnOptions(v: SchemaValues, epsilon: string, delta: string) {
  return {
    epsilon,
    delta,
    ...(v.quantiles === undefined ? {} : { quantiles: parseQuantiles(String(v.quantiles)) }),
    searchRange:
      v['search-range'] === undefined ? DEFAULT_SEARCH_RANGE : parseRange(String(v['search-range'])),
    ...(v.split === undefined ? {} : { weights: parseSplit(String(v.split)) }),
  };
}

/** The plan learnDomain makes first for these options (the same function, the same checks). */
function planOf(schema: Schema, n: number, options: ReturnType<typeof learnOptions>): DomainPlan {
  return planLearning(schema, n, options).plan;
}

/** A schema of the header's columns with nothing declared: the plan then learns every fact. */
function bareSchema(header: readonly string[], missing: string[]): Schema {
  return {
    version: 1,
    columns: header.map((name) => ({ name, type: 'categorical' as const, source: 'inferred' as const })),
    missing,
  };
}

/**
 * `schema --private --plan`: prints the plan (fact, share of ε, predicted quality) and whether it
 * would learn (exit 0) or refuse (exit 2), spending nothing. With --rows N only the header line is
 * read; without it the data file is read for its number of rows only (public under replace-one).
 */
function planOnly(path: string, v: SchemaValues, io: CliIo): void {
  if (v.epsilon === undefined) throw new UsageError('dpsynth schema --plan needs --epsilon E.');
  if (v.ledger !== undefined || v.seed !== undefined || v.force !== undefined) {
    throw new UsageError('--plan spends nothing: --ledger, --seed and --force do not apply.');
  }
  const epsilon = String(v.epsilon);
  const delta = v.delta === undefined ? DEFAULT_DOMAIN_DELTA : String(v.delta);
  parseBudget(epsilon, delta);
  let n: number;
  let header: string[];
  if (v.rows !== undefined) {
    const text = String(v.rows);
    if (!/^[1-9]\d*$/.test(text))
      throw new UsageError(`--rows takes a whole number of rows >= 1; got '${text}'.`);
    n = Number(text);
    header = readHeader(path);
  } else {
    const counted = countRows(path);
    n = counted.n;
    header = counted.header;
  }
  const start = v.schema === undefined ? undefined : readDeclared(String(v.schema), header, path);
  const missing = v.missing === undefined ? [...DEFAULT_MISSING_TOKENS] : parseTokenList(String(v.missing));
  const plan = planOf(start ?? bareSchema(header, missing), n, learnOptions(v, epsilon, delta));
  io.out(
    `The plan for ${n} rows at ε = ${epsilon}, δ = ${delta} (nothing read from the data, nothing spent):\n`,
  );
  io.out(`${formatPlanTable(plan)}\n`);
  if (plan.failing.length > 0)
    throw new InputError(
      refusalMessage(plan).replace(' Nothing was read from the data and nothing was spent.', ''),
      { file: path },
    );
  io.out(
    `Every fact meets its floor: dpsynth schema ${path} --private --epsilon ${epsilon} would learn them.\n`,
  );
}

/** The declared schema of --schema, checked against the header (no data read). */
function readDeclared(schemaPath: string, header: string[], dataPath: string): Schema {
  const schema = parseSchemaJson(decodeCsvBytes(readUserFile(schemaPath, 'schema'), schemaPath), schemaPath);
  checkSchemaMatchesHeader(schema, header, dataPath);
  return schema;
}

/** The header of a CSV file from its first line only (the rest of the file is not read). */
function readHeader(path: string): string[] {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    throw new InputError(`${path}: no such CSV file. Check the path and try again.`, { file: path });
  }
  const buffer = new Uint8Array(1 << 16);
  let length: number;
  try {
    length = readSync(fd, buffer, 0, buffer.length, 0);
  } finally {
    closeSync(fd);
  }
  const text = decodeCsvBytes(buffer.subarray(0, length), path);
  let quoted = false;
  let end = -1;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') quoted = !quoted;
    else if ((c === '\n' || c === '\r') && !quoted) {
      end = i;
      break;
    }
  }
  if (end < 0) throw new InputError(`${path}: no header line in its first 64 KiB.`, { file: path });
  const line = text.slice(0, end);
  // Parsed with a copy of itself as the one row the reader asks for: only the header is kept.
  return parseCsv(`${line}\n${line}\n`, { fileName: path }).header;
}

/** The header and the number of data rows, counted by reading the file's records (values unused). */
function countRows(path: string): { n: number; header: string[] } {
  const table = parseCsv(decodeCsvBytes(readUserFile(path, 'CSV'), path), { fileName: path });
  return { n: table.nRows, header: table.header };
}

/** The starting schema: its declared facts are kept; the columns must be the file's. */
function readStartSchema(
  schemaPath: string,
  raw: TableSource,
  dataPath: string,
  missingGiven: boolean,
): Schema {
  if (missingGiven)
    throw new UsageError(
      '--missing and --schema both set the missing tokens; give the tokens in the schema.',
    );
  const schema = parseSchemaJson(decodeCsvBytes(readUserFile(schemaPath, 'schema'), schemaPath), schemaPath);
  checkSchemaMatchesHeader(schema, raw.header, dataPath);
  if (schema.domainBudget !== undefined) {
    throw new InputError(
      `${schemaPath} already has facts learned with DP; learn the remaining facts from a schema that declares ` +
        'what is public, or keep this one.',
      { file: schemaPath },
    );
  }
  return schema;
}

/** The ledger line of a learning: kind "domain", `at` the schema's learnedAt, so runs count it once. */
function appendDomainEntry(
  ledgerPath: string,
  schema: Schema,
  spent: { epsilon: number; delta: number },
  dataPath: string,
) {
  const entry: LedgerEntry = {
    kind: 'domain',
    at: schema.domainBudget!.learnedAt,
    mechanism: 'domain',
    epsilon: spent.epsilon,
    delta: spent.delta,
    runs: 1,
    what: `schema facts of ${basename(dataPath)} learned with DP`,
    // Domain learning reads n and is metered under replace-one (core/domain/learn-domain.ts).
    neighbouring: 'replace-one',
  };
  try {
    appendFileSync(ledgerPath, ledgerLine(entry));
  } catch (error) {
    throw new InputError(`${ledgerPath}: the ledger cannot be written (${(error as Error).message}).`, {
      file: ledgerPath,
    });
  }
}

/** "0.025,0.975" → ["0.025", "0.975"]. */
function parseQuantiles(text: string): [string, string] {
  const parts = text.split(',').map((part) => part.trim());
  if (parts.length !== 2 || parts.some((part) => part === '')) {
    throw new UsageError(`--quantiles takes two numbers, e.g. 0.025,0.975; got '${text}'.`);
  }
  return [parts[0]!, parts[1]!];
}

/** "-1e6,1e6" → [-1e6, 1e6]. */
function parseRange(text: string): [number, number] {
  const parts = text.split(',').map((part) => Number(part.trim()));
  if (parts.length !== 2 || !parts.every(Number.isFinite) || !(parts[0]! < parts[1]!)) {
    throw new UsageError(
      `--search-range takes two numbers lower,upper with lower < upper, e.g. -1e6,1e6; got '${text}'.`,
    );
  }
  return [parts[0]!, parts[1]!];
}

/** "age=2,sex=1" → { age: 2, sex: 1 }: relative shares of the domain budget per column. */
function parseSplit(text: string): Record<string, number> {
  // No prototype: a column named `__proto__` or `constructor` is an ordinary key.
  const weights: Record<string, number> = Object.create(null) as Record<string, number>;
  for (const item of text.split(',')) {
    const match = /^\s*(.+?)\s*=\s*(\d+)\s*$/.exec(item);
    if (match === null || Number(match[2]) < 1) {
      throw new UsageError(
        `--split takes column=share pairs with whole shares >= 1, e.g. age=2,sex=1; got '${item}'.`,
      );
    }
    weights[match[1]!] = Number(match[2]);
  }
  return weights;
}

/** Splits a comma-separated token list; `""` stands for the empty token. */
export function parseTokenList(text: string): string[] {
  return text.split(',').map((t) => (t === '""' ? '' : t));
}
