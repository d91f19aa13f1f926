import { decodeCsvBytes, parseCsv } from '../../core/table/csv-read';
import { parseSchemaJson, checkSchemaMatchesHeader } from '../../core/table/schema-json';
import { buildTable } from '../../core/table/build-table';
import { dropIncompleteRows } from '../../core/table/drop-incomplete-rows';
import { describeValidation } from '../../core/table/validation-report';
import { writeCsv } from '../../core/table/csv-write';
import { tableFromColumns } from '../../core/table/table-from-columns';
import type { RawTable } from '../../core/table/csv-read';
import { complementIndices } from '../../core/metrics/sample-indices';
import { splitRowsForJob } from '../../worker/holdout';
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
    'holdout-share': { type: 'string' },
    'holdout-out': { type: 'string' },
    'train-out': { type: 'string' },
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
    const holdoutOptions = parseHoldoutOptions(v);

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

    const dropIncomplete = Boolean(v['drop-incomplete-rows']);
    const built = buildTable(raw, schema);
    const completeCases = dropIncomplete ? dropIncompleteRows(built.table) : null;
    const complete = completeCases?.table ?? built.table;
    // fileRows[i]: the data row of the file behind row i of `complete`, to copy kept-back rows verbatim.
    const fileRows = completeCases?.keptRows ?? Uint32Array.from({ length: built.table.nRows }, (_, i) => i);
    const droppedIncompleteRows = built.table.nRows - complete.nRows;
    for (const message of describeValidation(built.report.columns, droppedIncompleteRows)) {
      io.err(`dpsynth: ${dataPath}: ${message}\n`);
    }

    let table = complete;
    let heldOut: Uint32Array | null = null;
    if (holdoutOptions) {
      checkHoldoutSize(holdoutOptions.share, complete.nRows);
      // The studio's split (src/worker/holdout.ts): a uniformly random subset of round(share · n) rows,
      // drawn with the seed "<seed>/holdout" when seeded so the mechanism's random stream is unchanged.
      const split = splitRowsForJob(complete, { holdoutShare: holdoutOptions.share, seed });
      table = split.train;
      heldOut = split.holdoutRows!;
    }

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
    // Public facts about the configured model (e.g. the pMSE mechanism's parameter count), before the run.
    const facts = mechanism.describe?.(params, context) ?? [];
    for (const fact of facts) io.err(`${mechanism.id}: ${fact}\n`);
    const release = await mechanism.run(table, schema, params, {
      ...context,
      rng: makeRng(seed),
      progress: (f, message) => io.progress?.(0.3 + 0.6 * f, message ?? mechanism.id),
      signal: { aborted: false },
    });
    if (dropIncomplete) {
      release.claim.assumptions.push(
        `${droppedIncompleteRows} incomplete rows were dropped before synthesis (--drop-incomplete-rows). ` +
          `The guarantee is for the remaining ${complete.nRows} complete rows as the dataset, with that count ` +
          'treated as public; it does not cover a change that turns a complete row of the file into an ' +
          'incomplete one (or back), since that changes n.',
      );
    }
    // A public warning that describe() already gave before the run is not repeated.
    for (const warning of mechanismWarnings(release.diagnostics, release.dataHolderDiagnostics)) {
      if (!facts.some((fact) => warning.includes(fact))) io.err(warning);
    }

    const outPaths = releasePaths(String(v.out), release.datasets.length);
    release.datasets.forEach((dataset, i) => {
      io.writeFile(outPaths[i]!, writeCsv(dataset, { escapeFormulas: Boolean(v['escape-formulas']) }));
    });
    const written = [...outPaths];
    const notes: string[] = [];
    if (dropIncomplete) {
      notes.push(
        `rows counts the complete rows the mechanism saw: ${droppedIncompleteRows} of ` +
          `${built.table.nRows} rows in ${dataPath} were dropped as incomplete.`,
      );
    }
    let splitSummary = '';
    if (holdoutOptions && heldOut) {
      const keptBack = pick(fileRows, heldOut);
      io.writeFile(holdoutOptions.holdoutOut, fileRowsCsv(raw, keptBack));
      written.push(holdoutOptions.holdoutOut);
      if (holdoutOptions.trainOut !== undefined) {
        const seen = pick(fileRows, complementIndices(complete.nRows, heldOut));
        io.writeFile(holdoutOptions.trainOut, fileRowsCsv(raw, seen));
        written.push(holdoutOptions.trainOut);
      }
      const split =
        `the mechanism saw ${table.nRows} of ${complete.nRows} rows; ${heldOut.length} were kept back as a ` +
        'test set and never reached it';
      notes.push(
        `${split[0]!.toUpperCase()}${split.slice(1)} (a uniformly random subset, --holdout-share ` +
          `${holdoutOptions.share}).`,
      );
      splitSummary =
        `dpsynth: ${split} (written to ${holdoutOptions.holdoutOut}` +
        (holdoutOptions.trainOut === undefined ? '' : `; the rows it saw to ${holdoutOptions.trainOut}`) +
        ').\n';
    }
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
      notes,
    });
    if (reportPath) {
      io.writeFile(reportPath, `${JSON.stringify(report, null, 2)}\n`);
      written.push(reportPath);
    }
    io.progress?.(1, 'done');
    io.err(`dpsynth: wrote ${listOf(written)}\n${splitSummary}${formatClaim(release.claim)}`);
  },
};

/** "a", "a and b", "a, b and c". */
function listOf(items: string[]): string {
  return items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)!}`;
}

/** `indices[at[k]]` for every k. */
function pick(indices: Uint32Array, at: Uint32Array): Uint32Array {
  return at.map((i) => indices[i]!);
}

/**
 * The given data rows of the file as CSV, header and cells as the file had them (the table writer
 * quotes where RFC 4180 needs it; the delimiter becomes a comma and line ends '\n').
 */
function fileRowsCsv(raw: RawTable, rows: Uint32Array): string {
  const table = tableFromColumns(
    raw.header.map((name, j) => ({
      name,
      kind: 'categorical' as const,
      values: Array.from(rows, (i) => raw.columns[j]![i]!),
    })),
  );
  return writeCsv(table);
}

interface HoldoutOptions {
  share: number;
  holdoutOut: string;
  trainOut?: string;
}

/** --holdout-share F and --holdout-out go together (with the optional --train-out); 0 < F < 1. */
function parseHoldoutOptions(v: ParsedArgs['values']): HoldoutOptions | undefined {
  const share = v['holdout-share'];
  const holdoutOut = v['holdout-out'];
  const trainOut = v['train-out'];
  if (share === undefined && holdoutOut === undefined) {
    if (trainOut !== undefined)
      throw new UsageError('--train-out needs --holdout-share F and --holdout-out test.csv.');
    return undefined;
  }
  if (share === undefined || holdoutOut === undefined) {
    throw new UsageError(
      '--holdout-share F and --holdout-out test.csv go together: the share of rows to keep back from the ' +
        'mechanism and the file they are written to.',
    );
  }
  const text = String(share);
  const f = Number(text);
  if (text.trim() === '' || !(f > 0 && f < 1)) {
    throw new UsageError(
      `--holdout-share must be a number strictly between 0 and 1, e.g. 0.2; got '${text}'.`,
    );
  }
  return {
    share: f,
    holdoutOut: String(holdoutOut),
    ...(trainOut === undefined ? {} : { trainOut: String(trainOut) }),
  };
}

/** Both parts of the split must keep at least one row. */
function checkHoldoutSize(share: number, n: number): void {
  const kept = Math.round(share * n);
  if (kept >= 1 && kept <= n - 1) return;
  throw new InputError(
    `--holdout-share ${share} of ${n} rows keeps back ${kept}, which leaves ` +
      (kept < 1 ? 'no test set' : 'no rows for the mechanism') +
      '; choose a share that leaves at least one row on each side.',
  );
}

/**
 * The mechanism's warnings, one stderr line each: `diagnostics.warnings` (from public facts, e.g.
 * ε·n/(2·releases) below 100 for the pMSE mechanism) and `dataHolderDiagnostics.mcmc.warnings`
 * (computed from the real data, e.g. R̂ above 1.1; for the data holder, not for release).
 */
function mechanismWarnings(
  diagnostics: Record<string, unknown>,
  dataHolderDiagnostics: Record<string, unknown>,
): string[] {
  const strings = (value: unknown): string[] =>
    Array.isArray(value) ? value.filter((x): x is string => typeof x === 'string') : [];
  const mcmc = dataHolderDiagnostics.mcmc;
  const fromData =
    typeof mcmc === 'object' && mcmc !== null ? strings((mcmc as { warnings?: unknown }).warnings) : [];
  return [
    ...strings(diagnostics.warnings).map((w) => `warning: ${w}\n`),
    ...fromData.map((w) => `warning (from the real data, for you only): ${w}\n`),
  ];
}

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
