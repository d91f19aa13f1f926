import type { Neighbouring } from '../../core/mechanisms/neighbouring';
import { decodeCsvBytes } from '../../core/table/csv-read';
import { parseSchemaJson, checkSchemaMatchesHeader } from '../../core/table/schema-json';
import { buildTable } from '../../core/table/build-table';
import { dropIncompleteRows } from '../../core/table/drop-incomplete-rows';
import { describeValidation } from '../../core/table/validation-report';
import { CSV_ROWS_PER_PIECE, csvChunks, csvChunksOfBlocks } from '../../core/table/csv-write';
import { tableFromColumns } from '../../core/table/table-from-columns';
import type { StoredTable } from '../../core/table/csv-stream-read';
import { tokenAt } from '../../core/table/stored-column';
import { complementIndices } from '../../core/metrics/sample-indices';
import { jobRowCounts, splitRowsForJob } from '../../core/job/job-rows';
import { parseJobBudget } from '../../core/job/job-budget';
import { mechanismSeed } from '../../core/job/job-seeds';
import { publicContextOf, runContextOf, type JobSettings } from '../../core/job/synthesis-job';
import { getMechanism, parseMechanismId } from '../../core/mechanisms/registry';
import { resolveParams } from '../../core/mechanisms/params';
import type {
  Mechanism,
  ParamValues,
  ReleaseInBlocks,
  RunContext,
  SyntheticRows,
} from '../../core/mechanisms/types';
import { rowsOfTable } from '../../core/mechanisms/release-blocks';
import { defaultDelta } from '../../core/privacy/default-delta';
import { isSpentBudgetError } from '../../core/privacy/spent-budget-error';
import { buildReleaseReport } from '../../core/privacy/report';
import type { Schema, Table } from '../../core/table/types';
import { makeRng } from '../../core/rng/make-rng';
import { InputError } from '../../core/table/errors';
import { readCsvFile, readUserFile, type CliIo } from '../io';
import { checkOutputPaths, writeFilesAtomically, type NamedPath, type OutputFile } from '../output-files';
import { basename } from 'node:path';
import type { ParsedArgs } from '../args';
import { UsageError } from '../errors';
import { formatClaim } from '../format-claim';
import { APP_VERSION } from '../../core/version';
import { releasePaths } from '../release-paths';
import {
  appendLedgerLines,
  ledgerSummary,
  readLedger,
  recordSpentRun,
  releaseLedgerLines,
  reportCumulative,
} from '../release-ledger';
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

/**
 * `dpsynth synth` on a table in memory: one DP run from a CSV and a declared schema to synthetic
 * CSV(s) and a release report. `blockRows` (checked) and `neighbouring` are read by the command
 * (synth-command.ts) before it chooses this way of running.
 */
export async function synthFromTable(
  args: ParsedArgs,
  io: CliIo,
  { blockRows, neighbouring }: { blockRows: number; neighbouring: Neighbouring },
): Promise<void> {
  const v = args.values;
  // Dropping incomplete rows is a filter on each row alone: under add/remove a neighbour of the file
  // stays a neighbour of the filtered table, so it runs, and no count of rows is written.
  if (neighbouring === 'add-remove' && v['holdout-share'] !== undefined) {
    throw new UsageError(
      '--holdout-share writes row counts into the report, and under --neighbouring add-remove the number of ' +
        'rows is private: keep back a test set before running, or use replace-one.',
    );
  }
  const [dataPath, extra] = args.positionals;
  if (!dataPath || extra) throw new UsageError('dpsynth synth takes exactly one CSV file.');
  for (const required of ['schema', 'mechanism', 'epsilon', 'out'] as const) {
    if (v[required] === undefined) throw new UsageError(missingOptionMessage(required));
  }
  const mechanismId = parseMechanismId(String(v.mechanism));
  const mechanism = getMechanism(mechanismId);
  // Checked here with the δ given (0 when none): a default δ is set once n is known.
  const givenDelta = v.delta === undefined ? '0' : String(v.delta);
  const givenBudget = parseJobBudget({ epsilon: String(v.epsilon), delta: givenDelta });
  const releases = parseReleases(v.releases);
  const params = resolveParams(mechanism, parseParamFlags((v.param as string[] | undefined) ?? []));
  const seed = seedOption(v.seed);
  const holdoutOptions = parseHoldoutOptions(v);
  const schemaPath = String(v.schema);
  const ledgerPath = v.ledger === undefined ? undefined : String(v.ledger);

  // Every output is checked before any work: never over an input, never two outputs in one file,
  // an existing file only with --force, and the folders must exist.
  const outBase = seed === undefined ? String(v.out) : markedNotForRelease(String(v.out));
  const outPaths = releasePaths(outBase, releases);
  const reportPath = v.report === undefined ? defaultReportPath(outBase) : String(v.report);
  const outputs: NamedPath[] = [
    ...outPaths.map((path, i) => ({
      path,
      what: releases === 1 ? 'the synthetic CSV' : `synthetic CSV ${i + 1} of ${releases}`,
    })),
    { path: reportPath, what: 'the release report' },
  ];
  if (holdoutOptions) {
    outputs.push({ path: holdoutOptions.holdoutOut, what: 'the kept-back rows (--holdout-out)' });
    if (holdoutOptions.trainOut !== undefined) {
      outputs.push({ path: holdoutOptions.trainOut, what: 'the rows the mechanism saw (--train-out)' });
    }
  }
  const inputs: NamedPath[] = [
    { path: dataPath, what: 'the data file' },
    { path: schemaPath, what: 'the schema' },
    ...(ledgerPath === undefined ? [] : [{ path: ledgerPath, what: 'the ledger' }]),
  ];
  checkOutputPaths(outputs, inputs, Boolean(v.force));
  const ledger = ledgerPath === undefined ? undefined : readLedger(ledgerPath);

  const schema = parseSchemaJson(decodeCsvBytes(readUserFile(schemaPath, 'schema'), schemaPath), schemaPath);
  // The file as read is kept only to copy kept-back rows; otherwise only the table stays in memory,
  // and only until the mechanism has fitted its model (see startRun).
  const dropIncomplete = Boolean(v['drop-incomplete-rows']);
  const input = await readInput(dataPath, schema, io, { dropIncomplete, holdout: holdoutOptions, seed });
  // How many rows were dropped is said on stderr (readInput); the report gives the complete rows only,
  // which with the file's row count gives it too (the claim says so under replace-one).
  const { completeRows } = input;
  const n = input.table!.nRows;
  // A mechanism that needs δ > 0, run without --delta: the documented default from public n (under
  // add/remove, where n is private, the default that does not depend on n: 1e-9).
  const deltaDefault =
    v.delta === undefined && mechanism.fit?.needsDelta
      ? defaultDelta(neighbouring === 'add-remove' ? undefined : n)
      : undefined;
  if (deltaDefault !== undefined) io.err(`dpsynth: ${deltaDefault.reason}\n`);

  // The run as a job (core/job): its public context, with n the rows the mechanism sees.
  const settings: JobSettings = {
    schema,
    mechanismId: mechanism.id,
    params,
    epsilon: String(v.epsilon),
    delta: deltaDefault?.delta ?? givenDelta,
    releases,
    neighbouring,
    ...(seed === undefined ? {} : { seed }),
  };
  const budget = deltaDefault === undefined ? givenBudget : parseJobBudget(settings);
  const context = publicContextOf(settings, n);
  const problems = mechanism.check(schema, params, context);
  if (problems.length > 0) {
    throw new InputError(`${mechanism.id} cannot run on ${schemaPath}:\n  - ${problems.join('\n  - ')}`);
  }
  // Public facts about the configured model (e.g. the pMSE mechanism's parameter count), before the run.
  const facts = mechanism.describe?.(params, context) ?? [];
  for (const fact of facts) io.err(`${mechanism.id}: ${fact}\n`);
  let release: ReleaseInBlocks;
  try {
    release = await startRun(
      mechanism,
      input,
      schema,
      params,
      runContextOf(
        settings,
        n,
        makeRng(mechanismSeed(settings)),
        (f, message) => io.progress?.(0.3 + 0.6 * f, message ?? mechanism.id),
        { aborted: false },
      ),
      blockRows,
    );
  } catch (error) {
    // A run refused after its budget was spent released nothing, but the ledger still counts it.
    if (ledgerPath === undefined || !isSpentBudgetError(error)) throw error;
    recordSpentRun(
      error,
      ledgerPath,
      ledger!.entries,
      mechanism.id,
      mechanism.claim(params, context), // what the run reserved (the mechanism contract)
      `run on ${basename(dataPath)} refused after its budget was spent, nothing released` +
        (seed === undefined ? '' : ' (seeded, not for release)'),
    );
  }
  if (deltaDefault !== undefined) release.claim.assumptions.push(deltaDefault.reason);
  if (dropIncomplete) {
    release.claim.assumptions.push(
      neighbouring === 'add-remove'
        ? 'Rows with a missing value were dropped before synthesis (--drop-incomplete-rows), a filter on each ' +
            'row alone: adding or removing a row of the file adds or removes at most one row of the table the ' +
            'mechanism saw, so the guarantee holds for the rows of the file. No count of rows is released.'
        : 'Rows with a missing value were dropped before synthesis (--drop-incomplete-rows). The guarantee is ' +
            'for the complete rows as the dataset, with their number (the rows of this report) treated as ' +
            'public: it is read from the data, not private, like an inferred fact. It does not cover a change ' +
            'that turns a complete row of the file into an incomplete one (or back), since that changes the ' +
            'number. The number of complete rows is published (the rows of this report); with the ' +
            'file’s row count it gives the number of rows dropped.',
    );
  }
  // A public warning that describe() already gave before the run is not repeated.
  for (const warning of mechanismWarnings(release.diagnostics, release.dataHolderDiagnostics)) {
    if (!facts.some((fact) => warning.includes(fact))) io.err(warning);
  }

  if (release.datasets.length !== outPaths.length) {
    throw new Error(`${mechanism.id} returned ${release.datasets.length} datasets for ${releases} releases.`);
  }
  // Each synthetic CSV is written block by block (blocks of RELEASE_BLOCK_ROWS = 65,536 rows unless
  // set otherwise, whether the mechanism hands its rows out in blocks or startRun cuts its whole
  // tables), in pieces of 32,768 rows (csvChunksOfBlocks), never as one string.
  const piecesInAll = release.datasets.reduce((sum, rows) => sum + csvPieces(rows), 0);
  let piecesDone = 0;
  const files: OutputFile[] = release.datasets.map((rows, i) => ({
    path: outPaths[i]!,
    contents: csvChunksOfBlocks(rows.blocks(), { escapeFormulas: Boolean(v['escape-formulas']) }),
    onPiece: () => io.progress?.(0.9 + (0.1 * ++piecesDone) / piecesInAll, 'writing'),
  }));
  const notes: string[] = [];
  if (dropIncomplete && neighbouring !== 'add-remove') {
    notes.push(
      'rows counts the complete rows the mechanism saw (--drop-incomplete-rows), read from the data and ' +
        'treated as public; with the file’s row count it gives the number of rows dropped.',
    );
  }
  let splitSummary = '';
  if (holdoutOptions && input.holdout) {
    const { raw, keptBack, seen } = input.holdout;
    files.push({ path: holdoutOptions.holdoutOut, contents: fileRowsCsv(raw, keptBack) });
    if (holdoutOptions.trainOut !== undefined && seen !== null) {
      files.push({ path: holdoutOptions.trainOut, contents: fileRowsCsv(raw, seen) });
    }
    const split =
      `the mechanism saw ${n} of ${completeRows} rows; ${keptBack.length} were kept back as a ` +
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
  // This release's lines in the ledger, and the ledger's total with them for the report.
  const lines =
    ledger === undefined
      ? undefined
      : releaseLedgerLines(ledger, {
          schema,
          schemaPath,
          mechanismId: mechanism.id,
          claim: release.claim,
          what:
            `${release.datasets.length} synthetic dataset${release.datasets.length === 1 ? '' : 's'} from ` +
            `${basename(dataPath)}${seed === undefined ? '' : ' (seeded, not for release)'}`,
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
  files.push({ path: reportPath, contents: `${JSON.stringify(report, null, 2)}\n` });
  // The ledger line goes first: if writing an output then fails, the ledger counts a release that
  // did not happen, which overstates the spending (the safe direction), never the reverse.
  if (lines !== undefined) appendLedgerLines(ledgerPath!, lines.added);
  writeFilesAtomically(files);
  io.progress?.(1, 'done');
  const seedWarning =
    seed === undefined
      ? ''
      : 'dpsynth: a seed was set, so the outputs are reproducible and not for release; their names say so.\n';
  io.err(
    `dpsynth: wrote ${listOf(files.map((file) => file.path))}\n${splitSummary}` +
      `${lines === undefined ? '' : ledgerSummary(ledgerPath!, lines.cumulative)}${seedWarning}` +
      formatClaim(release.claim),
  );
}

/**
 * The table the mechanism runs on, with the counts the messages need. `table` is the only reference
 * to it that outlives this function: startRun takes it, so that it can be freed once the mechanism
 * has fitted its model. The file as read is kept only for the kept-back rows of a hold-out.
 */
interface SynthInput {
  table: Table | null;
  /** Data rows in the file, and those left after --drop-incomplete-rows. */
  rowsRead: number;
  completeRows: number;
  /** With a hold-out: the file as read and the file rows kept back and seen (with --train-out). */
  holdout?: { raw: StoredTable; keptBack: Uint32Array; seen: Uint32Array | null };
}

/** Reads the data file as a stream, types it with the schema, drops incomplete rows and splits off a hold-out. */
async function readInput(
  dataPath: string,
  schema: Schema,
  io: CliIo,
  options: { dropIncomplete: boolean; holdout: HoldoutOptions | undefined; seed: string | undefined },
): Promise<SynthInput> {
  const read = await readCsvFile(dataPath, { onProgress: (f) => io.progress?.(f * 0.3, 'reading') });
  checkSchemaMatchesHeader(schema, read.header, dataPath);
  const built = buildTable(read, schema);
  const completeCases = options.dropIncomplete ? dropIncompleteRows(built.table) : null;
  const complete = completeCases?.table ?? built.table;
  for (const message of describeValidation(built.report.columns, built.table.nRows - complete.nRows)) {
    io.err(`dpsynth: ${dataPath}: ${message}\n`);
  }
  const counts = { rowsRead: built.table.nRows, completeRows: complete.nRows };
  const holdout = options.holdout;
  if (holdout === undefined) return { table: complete, ...counts };
  checkHoldoutSize(holdout.share, complete.nRows);
  // The job model's split (core/job/job-rows.ts), as in the studio: a uniformly random subset of
  // round(share · n) rows, drawn with the seed "<seed>/holdout" when seeded so the mechanism's random
  // stream is unchanged.
  const split = splitRowsForJob(complete, { holdoutShare: holdout.share, seed: options.seed });
  const heldOut = split.holdoutRows!;
  // fileRows[i]: the data row of the file behind row i of `complete`, to copy kept-back rows verbatim.
  const fileRows = completeCases?.keptRows ?? Uint32Array.from({ length: built.table.nRows }, (_, i) => i);
  return {
    table: split.train,
    ...counts,
    holdout: {
      raw: read,
      keptBack: pick(fileRows, heldOut),
      seen:
        holdout.trainOut === undefined ? null : pick(fileRows, complementIndices(complete.nRows, heldOut)),
    },
  };
}

/**
 * Runs the mechanism with its datasets in row blocks of `blockRows` rows (a whole number ≥ 1, checked
 * by the caller; each whole table cut into blocks when it has no runInBlocks). Takes the table out of
 * `input`, so that no reference to it stays in the command once the mechanism returns: a mechanism in
 * blocks keeps only its fitted model, and the real table can be freed before the synthetic rows are
 * written.
 */
function startRun(
  mechanism: Mechanism,
  input: SynthInput,
  schema: Schema,
  params: ParamValues,
  ctx: RunContext,
  blockRows: number,
): Promise<ReleaseInBlocks> {
  const table = input.table!;
  input.table = null;
  if (mechanism.runInBlocks) return mechanism.runInBlocks(table, schema, params, ctx, { blockRows });
  return mechanism.run(table, schema, params, ctx).then((release) => ({
    ...release,
    datasets: release.datasets.map((dataset) => rowsOfTable(dataset, blockRows)),
  }));
}

/** Pieces csvChunksOfBlocks writes for these rows: the header, then each block's pieces. */
function csvPieces(rows: SyntheticRows): number {
  let pieces = 1;
  for (let start = 0; start < rows.nRows; start += rows.blockRows) {
    pieces += Math.ceil(Math.min(rows.blockRows, rows.nRows - start) / CSV_ROWS_PER_PIECE);
  }
  return pieces;
}

/** `indices[at[k]]` for every k. */
function pick(indices: Uint32Array, at: Uint32Array): Uint32Array {
  return at.map((i) => indices[i]!);
}

/**
 * The given data rows of the file as CSV, header and cells as the file had them (the table writer
 * quotes where RFC 4180 needs it; the delimiter becomes a comma and line ends '\n').
 */
function fileRowsCsv(raw: StoredTable, rows: Uint32Array): Iterable<string> {
  const table = tableFromColumns(
    raw.header.map((name, j) => ({
      name,
      kind: 'categorical' as const,
      values: Array.from(rows, (i) => tokenAt(raw.columns[j]!, i)),
    })),
  );
  return csvChunks(table);
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
  const { kept } = jobRowCounts(n, share);
  if (kept >= 1 && kept <= n - 1) return;
  throw new InputError(
    `--holdout-share ${share} of ${n} rows keeps back ${kept}, which leaves ` +
      (kept < 1 ? 'no test set' : 'no rows for the mechanism') +
      '; choose a share that leaves at least one row on each side.',
  );
}
