import { existsSync, rmSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { COUNT_MECHANISMS, countSourceProblems } from '../../core/counts/count-mechanisms';
import type { CountSource } from '../../core/counts/count-source';
import { csvChunksOfBlocks } from '../../core/table/csv-write';
import { getMechanism, parseMechanismId } from '../../core/mechanisms/registry';
import { resolveParams } from '../../core/mechanisms/params';
import type { PublicContext, ReleaseInBlocks, SyntheticRows } from '../../core/mechanisms/types';
import { parseJobBudget } from '../../core/job/job-budget';
import { mechanismSeed } from '../../core/job/job-seeds';
import { publicContextOf, runContextOf, type JobSettings } from '../../core/job/synthesis-job';
import { blockRowsOf } from '../../core/mechanisms/release-blocks';
import { buildReleaseReport } from '../../core/privacy/report';
import { decodeCsvBytes } from '../../core/table/csv-read';
import { InputError } from '../../core/table/errors';
import { isSpentBudgetError } from '../../core/privacy/spent-budget-error';
import { parseSchemaJson } from '../../core/table/schema-json';
import type { Schema } from '../../core/table/types';
import { makeRng } from '../../core/rng/make-rng';
import { APP_VERSION } from '../../core/version';
import { readUserFile, type CliIo } from '../io';
import { checkOutputPaths, writeFilesAtomically, type NamedPath, type OutputFile } from '../output-files';
import { releasePaths } from '../release-paths';
import { UsageError } from '../errors';
import { formatClaim } from '../format-claim';
import type { CliInternals, ParsedArgs } from '../args';
import { clickHouseCountSource } from '../count-sources/clickhouse';
import { countsFolderSource } from '../count-sources/counts-folder';
import { duckDbFileCountSource } from '../count-sources/duckdb';
import { insertIntoClickHouse, isClickHouseAddress } from '../count-sources/clickhouse-insert';
import { copyCsvToParquet } from '../count-sources/parquet-out';
import {
  defaultReportPath,
  listOf,
  markedNotForRelease,
  mechanismWarnings,
  missingOptionMessage,
  parseParamFlags,
  parseReleases,
  seedOption,
} from '../synth-options';
import {
  appendLedgerLines,
  ledgerSummary,
  readLedger,
  recordSpentRun,
  releaseLedgerLines,
  reportCumulative,
} from '../release-ledger';

/**
 * `synth --engine duckdb data.parquet|data.csv`, `synth --source clickhouse://…`, `synth --counts DIR`:
 * the exact counts come from where the data lives; the privacy steps, the model and the sampling run
 * here, in memory proportional to the model, and the synthetic rows go out in blocks (a CSV written
 * in pieces, a Parquet file through DuckDB, or INSERTs into a ClickHouse table). Same budget, draws
 * and claim as the run on the table in memory; the report says where the counts were computed.
 */
export async function synthFromCountSource(
  args: ParsedArgs,
  io: CliIo,
  internals: CliInternals,
): Promise<void> {
  const v = args.values;
  const blockRows = blockRowsOf({ blockRows: internals.releaseBlockRows });
  const given = (['engine', 'source', 'counts'] as const).filter((name) => v[name] !== undefined);
  if (given.length > 1)
    throw new UsageError(`give one of --engine, --source and --counts, not ${given.join(' and ')}.`);
  for (const rowOption of ['drop-incomplete-rows', 'holdout-share', 'holdout-out', 'train-out'] as const) {
    if (v[rowOption] !== undefined) {
      throw new UsageError(`--${rowOption} needs the rows in memory; it cannot be used with --${given[0]}.`);
    }
  }
  const [dataPath, extra] = args.positionals;
  if (v.engine !== undefined) {
    if (String(v.engine) !== 'duckdb')
      throw new UsageError(`--engine must be duckdb; got '${String(v.engine)}'.`);
    if (!dataPath || extra)
      throw new UsageError('dpsynth synth --engine duckdb takes exactly one data file (.parquet or .csv).');
  } else if (dataPath !== undefined) {
    throw new UsageError(`dpsynth synth --${given[0]} reads no data file; got '${dataPath}'.`);
  }
  for (const required of ['schema', 'mechanism', 'epsilon', 'out'] as const) {
    if (v[required] === undefined) throw new UsageError(missingOptionMessage(required));
  }
  const mechanismId = parseMechanismId(String(v.mechanism));
  const mechanism = getMechanism(mechanismId);
  const sourceWords =
    v.engine !== undefined
      ? `DuckDB on ${dataPath}`
      : v.source !== undefined
        ? String(v.source).replace(/\/\/[^@/]*@/, '//')
        : `the counts in ${String(v.counts)}`;
  const refusal = countSourceProblems(mechanismId, sourceWords);
  if (refusal.length > 0) throw new InputError(`${mechanismId} ${refusal[0]!}`);
  const countMechanism = COUNT_MECHANISMS[mechanismId]!;
  const delta = v.delta === undefined ? '0' : String(v.delta);
  const budget = parseJobBudget({ epsilon: String(v.epsilon), delta });
  const releases = parseReleases(v.releases);
  const params = resolveParams(mechanism, parseParamFlags((v.param as string[] | undefined) ?? []));
  const seed = seedOption(v.seed);
  const schemaPath = String(v.schema);
  const ledgerPath = v.ledger === undefined ? undefined : String(v.ledger);

  const out = String(v.out);
  const toClickHouse = isClickHouseAddress(out);
  if (toClickHouse && v.report === undefined) {
    throw new UsageError(
      'with --out clickhouse://…, name the release report file with --report report.json.',
    );
  }
  if (toClickHouse && releases > 1)
    throw new UsageError('--out clickhouse://… takes one release (--releases 1).');
  const outBase = toClickHouse || seed === undefined ? out : markedNotForRelease(out);
  const outPaths = toClickHouse ? [] : releasePaths(outBase, releases);
  const reportPath = v.report === undefined ? defaultReportPath(outBase) : String(v.report);
  const outputs: NamedPath[] = [
    ...outPaths.map((path, i) => ({
      path,
      what: releases === 1 ? 'the synthetic file' : `synthetic file ${i + 1} of ${releases}`,
    })),
    { path: reportPath, what: 'the release report' },
  ];
  const inputs: NamedPath[] = [
    ...(dataPath === undefined ? [] : [{ path: dataPath, what: 'the data file' }]),
    { path: schemaPath, what: 'the schema' },
    ...(ledgerPath === undefined ? [] : [{ path: ledgerPath, what: 'the ledger' }]),
  ];
  checkOutputPaths(outputs, inputs, Boolean(v.force));
  const ledger = ledgerPath === undefined ? undefined : readLedger(ledgerPath);
  const schema = parseSchemaJson(decodeCsvBytes(readUserFile(schemaPath, 'schema'), schemaPath), schemaPath);

  const source = await openCountSource(v, dataPath, schema, mechanism.id, params);
  let release: ReleaseInBlocks;
  let n: number;
  let context: PublicContext;
  try {
    io.progress?.(0, `counting (${source.where})`);
    n = await source.rowCount();
    // The run as a job (core/job); count sources run under replace-one only.
    const settings: JobSettings = {
      schema,
      mechanismId: mechanism.id,
      params,
      epsilon: String(v.epsilon),
      delta,
      releases,
      ...(seed === undefined ? {} : { seed }),
    };
    context = publicContextOf(settings, n);
    const problems = mechanism.check(schema, params, context);
    if (problems.length > 0) {
      throw new InputError(`${mechanism.id} cannot run on ${schemaPath}:\n  - ${problems.join('\n  - ')}`);
    }
    for (const fact of mechanism.describe?.(params, context) ?? []) io.err(`${mechanism.id}: ${fact}\n`);
    // The plan is fixed here, from the schema, the parameters and n; no count is read before it.
    const counts = await source.counts(countMechanism.countPlan(schema, params, context));
    await source.close();
    release = await countMechanism.runOnCounts(
      counts,
      schema,
      params,
      runContextOf(
        settings,
        n,
        makeRng(mechanismSeed(settings)),
        (f, message) => io.progress?.(0.3 + 0.6 * f, message ?? mechanism.id),
        { aborted: false },
      ),
      { blockRows },
    );
  } catch (error) {
    // A run that failed after drawing noise released nothing, but the ledger still counts it.
    if (ledgerPath === undefined || !isSpentBudgetError(error)) throw error;
    recordSpentRun(
      error,
      ledgerPath,
      ledger!.entries,
      mechanism.id,
      mechanism.claim(params, context!), // what the run reserved (the mechanism contract)
      `run on counts by ${source.where} refused after its budget was spent, nothing released` +
        (seed === undefined ? '' : ' (seeded, not for release)'),
    );
  } finally {
    await source.close();
  }
  for (const warning of mechanismWarnings(release.diagnostics, release.dataHolderDiagnostics))
    io.err(warning);

  const notes = [
    `The exact counts were computed by ${source.where}; the privacy steps, the model and the sampling ran on ` +
      'the machine that wrote this report. The count source adds no privacy step and changes no count.',
  ];
  const lines =
    ledger === undefined
      ? undefined
      : releaseLedgerLines(ledger, {
          schema,
          schemaPath,
          mechanismId: mechanism.id,
          claim: release.claim,
          what:
            `${release.datasets.length} synthetic dataset${release.datasets.length === 1 ? '' : 's'} from counts by ` +
            `${source.where}${seed === undefined ? '' : ' (seeded, not for release)'}`,
        });
  const report = buildReleaseReport({
    appVersion: APP_VERSION,
    schema,
    mechanism,
    params,
    claim: release.claim,
    rows: n,
    releases: release.datasets.length,
    seeded: seed !== undefined,
    budget,
    publishInferred: Boolean(v['publish-inferred']),
    ...(lines === undefined ? {} : { cumulative: reportCumulative(lines.cumulative, ledgerPath!) }),
    notes,
  });
  const reportWithSource = { ...report, countsComputedBy: source.where };
  if (lines !== undefined) appendLedgerLines(ledgerPath!, lines.added);
  const written: string[] = [];
  if (toClickHouse) {
    await insertIntoClickHouse(out, release.datasets[0]!, schema, (rows) =>
      io.progress?.(0.9 + (0.1 * rows) / n, 'inserting'),
    );
    written.push(out.replace(/\/\/[^@/]*@/, '//'));
  } else {
    for (const [i, rows] of release.datasets.entries()) {
      const path = outPaths[i]!;
      if (extname(path).toLowerCase() === '.parquet') {
        await writeParquet(path, rows, schema, Boolean(v['escape-formulas']));
      } else {
        writeFilesAtomically([csvFile(path, rows, Boolean(v['escape-formulas']))]);
      }
      written.push(path);
    }
  }
  writeFilesAtomically([{ path: reportPath, contents: `${JSON.stringify(reportWithSource, null, 2)}\n` }]);
  written.push(reportPath);
  io.progress?.(1, 'done');
  const seedWarning =
    seed === undefined
      ? ''
      : 'dpsynth: a seed was set, so the outputs are reproducible and not for release.\n';
  io.err(
    `dpsynth: counts computed by ${source.where}\ndpsynth: wrote ${listOf(written)}\n` +
      `${lines === undefined ? '' : ledgerSummary(ledgerPath!, lines.cumulative)}${seedWarning}` +
      formatClaim(release.claim),
  );
}

async function openCountSource(
  v: ParsedArgs['values'],
  dataPath: string | undefined,
  schema: Schema,
  mechanismId: string,
  params: Record<string, unknown>,
): Promise<CountSource> {
  if (v.engine !== undefined) {
    if (!existsSync(dataPath!)) throw new InputError(`${dataPath}: no such file.`, { file: dataPath! });
    return duckDbFileCountSource(dataPath!, schema);
  }
  if (v.source !== undefined) return clickHouseCountSource(String(v.source), schema);
  return countsFolderSource(String(v.counts), mechanismId, params);
}

function csvFile(path: string, rows: SyntheticRows, escapeFormulas: boolean): OutputFile {
  return { path, contents: csvChunksOfBlocks(rows.blocks(), { escapeFormulas }) };
}

/** A Parquet file through DuckDB: the blocks as a CSV beside it, copied to Parquet with typed columns, renamed when complete. */
async function writeParquet(
  path: string,
  rows: SyntheticRows,
  schema: Schema,
  escapeFormulas: boolean,
): Promise<void> {
  const temporary = join(
    dirname(path),
    `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.partial.csv`,
  );
  try {
    writeFilesAtomically([csvFile(temporary, rows, escapeFormulas)]);
    await copyCsvToParquet(temporary, path, schema);
  } finally {
    rmSync(temporary, { force: true });
  }
}
