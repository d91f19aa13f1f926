import { decodeCsvBytes } from '../../core/table/csv-read';
import { inferSchema } from '../../core/table/infer';
import { parseSchemaJson, checkSchemaMatchesHeader } from '../../core/table/schema-json';
import { buildTable } from '../../core/table/build-table';
import type { Schema } from '../../core/table/types';
import { InputError } from '../../core/table/errors';
import { evaluateUtility, type UtilityReport } from '../../core/metrics/evaluate';
import { evaluationJson } from '../../core/metrics/evaluation-json';
import { APP_VERSION } from '../../core/version';
import type { RegressionSpec } from '../../core/metrics/regression-comparison';
import { SYNTHPOP_CART_DEFAULTS } from '../../core/models/cart';
import { makeRng } from '../../core/rng/make-rng';
import { secondThreadHelps, spawnNullWorker, startPmseNull } from '../pmse-null-threads';
import type { Worker } from 'node:worker_threads';
import type { StoredTable } from '../../core/table/csv-stream-read';
import { readCsvFile, readUserFile, type CliIo } from '../io';
import type { ParsedArgs } from '../args';
import { UsageError } from '../errors';
import { mean } from '../../core/stats/mean';

/**
 * Missing tokens of the reference definitions (shared reference README, "Common preprocessing" 1):
 * without a schema, metrics read files exactly as the reference scripts do, so numbers are comparable.
 */
const REFERENCE_MISSING_TOKENS = ['', 'NA'];

/**
 * `dpsynth metrics real.csv synth.1.csv [synth.2.csv …]`: utility of synthetic releases against the real
 * table (for the data holder), the full evaluation of ../../core/metrics/evaluate.ts.
 */
export const metricsCommand = {
  options: {
    schema: { type: 'string' },
    json: { type: 'boolean' },
    'pmse-model': { type: 'string' },
    'cart-cp': { type: 'string' },
    'cart-min-bucket': { type: 'string' },
    'cart-max-depth': { type: 'string' },
    'tvd-k': { type: 'string' },
    bins: { type: 'string' },
    seed: { type: 'string' },
    permutations: { type: 'string' },
    regression: { type: 'string' },
    holdout: { type: 'string' },
    'ml-target': { type: 'string' },
    skip: { type: 'string' },
  } as const,
  async run(args: ParsedArgs, io: CliIo) {
    const [realPath, ...synthPaths] = args.positionals;
    if (!realPath || synthPaths.length === 0)
      throw new UsageError(
        'dpsynth metrics takes a real CSV and one or more synthetic CSVs (one per release).',
      );
    // The CART pMSE null's worker thread starts now, so that its start overlaps the reading of the
    // files; it is terminated whatever happens (a file refused, the evaluation done or failed). On a
    // busy machine there is none (secondThreadHelps) and the null runs in line.
    const nullWorker =
      args.values['pmse-model'] === 'logit' ? undefined : secondThreadHelps() ? spawnNullWorker() : null;
    try {
      await evaluateFiles(args, io, realPath, synthPaths, nullWorker);
    } finally {
      await (await nullWorker)?.terminate();
    }
  },
};

/** The body of `dpsynth metrics`: reads the files, evaluates, writes the report. */
async function evaluateFiles(
  args: ParsedArgs,
  io: CliIo,
  realPath: string,
  synthPaths: string[],
  nullWorker: Promise<Worker | undefined> | null | undefined,
): Promise<void> {
  const v = args.values;
  const realRaw = await readCsvFile(realPath);
  const synthRaws: StoredTable[] = [];
  for (const path of synthPaths) synthRaws.push(await readCsvFile(path));
  const holdoutPath = v.holdout === undefined ? undefined : String(v.holdout);
  const holdoutRaw = holdoutPath === undefined ? undefined : await readCsvFile(holdoutPath);
  const others = [...synthPaths.map((path, i) => ({ path, raw: synthRaws[i]! }))];
  if (holdoutPath !== undefined) others.push({ path: holdoutPath, raw: holdoutRaw! });

  let schema: Schema;
  if (v.schema !== undefined) {
    const schemaPath = String(v.schema);
    schema = parseSchemaJson(decodeCsvBytes(readUserFile(schemaPath, 'schema'), schemaPath), schemaPath);
    checkSchemaMatchesHeader(schema, realRaw.header, realPath);
    for (const other of others) checkSchemaMatchesHeader(schema, other.raw.header, other.path);
  } else {
    for (const other of others) checkSameColumns(realPath, realRaw.header, other.path, other.raw.header);
    // Pooled typing over the files, as the reference definitions do; bounds are not used by metrics.
    schema = inferSchema([realRaw, ...synthRaws], { missing: REFERENCE_MISSING_TOKENS });
    schema = { ...schema, columns: schema.columns.map(withoutDomain) };
  }
  const real = buildTable(realRaw, schema).table;
  const synths = synthRaws.map((raw) => buildTable(raw, schema).table);
  const holdout = holdoutRaw === undefined ? undefined : buildTable(holdoutRaw, schema).table;

  const ks = parseKList(v['tvd-k']);
  const bins = parsePositiveInt(v.bins, '--bins', 10, 2, 1000);
  const model = parseModel(v['pmse-model']);
  const cart = {
    ...SYNTHPOP_CART_DEFAULTS,
    cp: parseNumber(v['cart-cp'], '--cart-cp', SYNTHPOP_CART_DEFAULTS.cp),
    minBucket: parsePositiveInt(
      v['cart-min-bucket'],
      '--cart-min-bucket',
      SYNTHPOP_CART_DEFAULTS.minBucket,
      1,
      1e9,
    ),
    maxDepth: parsePositiveInt(
      v['cart-max-depth'],
      '--cart-max-depth',
      SYNTHPOP_CART_DEFAULTS.maxDepth,
      1,
      30,
    ),
  };
  cart.minSplit = v['cart-min-bucket'] === undefined ? SYNTHPOP_CART_DEFAULTS.minSplit : 3 * cart.minBucket;
  const permutations = parsePositiveInt(v.permutations, '--permutations', 50, 1, 10000);
  const skip = parseSkipList(v.skip);
  const columnNames = schema.columns.map((c) => c.name);
  const regression =
    v.regression === undefined ? undefined : parseRegressionFormula(String(v.regression), columnNames);
  const mlTarget = v['ml-target'] === undefined ? undefined : String(v['ml-target']);
  if ((mlTarget === undefined) !== (holdout === undefined)) {
    throw new InputError(
      'Machine-learning efficacy needs both --holdout (real rows the mechanism never saw) and --ml-target (the column to predict).',
    );
  }
  if (mlTarget !== undefined && !columnNames.includes(mlTarget)) {
    throw new InputError(`--ml-target: no column '${mlTarget}'; columns are ${columnNames.join(', ')}.`);
  }
  const rng = makeRng(v.seed === undefined ? undefined : String(v.seed));
  // The permutation null's worker thread starts first and fits refits while every other metric is
  // computed here (the pMSE step runs last); this thread then fits the refits still left.
  const pmseNull =
    model === 'cart' ? await startPmseNull(real, synths, cart, permutations, rng, nullWorker) : undefined;
  let report: UtilityReport;
  try {
    report = evaluateUtility(
      real,
      synths,
      {
        bins,
        tvdK: ks.filter((k) => k <= real.columns.length),
        pmse: { model, cart, permutations, ...(pmseNull ? { nullMeans: pmseNull.nullMeanOf } : {}) },
        ...(regression ? { regression } : {}),
        ...(holdout && mlTarget ? { ml: { holdout, target: mlTarget } } : {}),
        distinguishingGame: skip.has('game') ? false : {},
        disclosure: !skip.has('disclosure'),
      },
      rng,
    );
  } finally {
    await pmseNull?.stop();
  }

  const result = evaluationJson(report, {
    appVersion: APP_VERSION,
    realFile: realPath,
    syntheticFiles: synthPaths,
    ...(holdoutPath !== undefined ? { holdout: { file: holdoutPath, rows: holdout!.nRows } } : {}),
  });
  if (v.json) {
    io.out(`${JSON.stringify(result, null, 2)}\n`);
    return;
  }
  io.out(`${formatMetricsText(result.pmse, report, synthPaths.length).join('\n')}\n`);
}

/** The human-readable summary of `dpsynth metrics` (the JSON holds every number). */
function formatMetricsText(
  pmse: { model: string; value: number; ratio: number | null; warnings: string[] },
  report: UtilityReport,
  releases: number,
): string[] {
  const over = releases > 1 ? ` (mean of ${releases} releases)` : '';
  const lines = [
    `pMSE (${pmse.model}): ${pmse.value.toPrecision(6)}${over}` +
      (pmse.ratio === null
        ? ''
        : `   S_pMSE: ${pmse.ratio.toPrecision(4)} (below 10 is good, below 3 better)`),
    ...pmse.warnings.map((w) => `Warning: ${w}`),
  ];
  const subsample = report.pmse.perRelease[0]?.subsample;
  if (subsample !== undefined) {
    lines.push(
      `  on uniform subsamples of ${subsample.realRows} real and ${subsample.synthRows} synthetic rows ` +
        `(standard error ${subsample.standardError.toPrecision(2)} for the fitted model); TVD uses every row`,
    );
  }
  for (const [k, order] of Object.entries(report.tvd.byK)) {
    lines.push(
      order.mean === null
        ? `TVD of ${k}-way marginals: skipped (${order.skipped ?? 'not computed'})`
        : `TVD of ${k}-way marginals: ${order.mean.toPrecision(6)} (0 is identical)`,
    );
  }
  const full = report.tvd.fullTable;
  if (full.mean !== null)
    lines.push(
      `TVD of the full table: ${full.mean.toPrecision(6)}` +
        (full.skipped ? ` (over the releases compared; ${full.skipped})` : ''),
    );
  else if (full.skipped) lines.push(`TVD of the full table: skipped (${full.skipped})`);
  if (report.tvd.kMarginalScore !== null)
    lines.push(`k-marginal score: ${report.tvd.kMarginalScore.mean.toFixed(1)} of 1000`);
  const worst = [...report.perColumn.mean].sort((a, b) => b.tvd - a.tvd)[0];
  if (worst) lines.push(`Column least alike: ${worst.name} (TVD ${worst.tvd.toPrecision(4)})`);
  const corr = report.correlation.meanAbsoluteDifference.mean;
  if (corr !== null) lines.push(`Mean |association difference|: ${corr.toPrecision(4)} (0 is identical)`);
  if (report.regression) {
    const r = report.regression;
    const sd = r.releases.map((x) => x.meanAbsoluteStandardizedDifference).filter((x) => x !== null);
    const overlap = r.releases.map((x) => x.meanCiOverlap).filter((x) => x !== null);
    lines.push(
      `Regression ${r.target} ~ ${r.predictors.join(' + ')} (${r.family}): ` +
        (sd.length ? `mean |standardized difference| ${mean(sd).toPrecision(3)}` : 'not estimable') +
        (overlap.length ? `, mean CI overlap ${mean(overlap).toPrecision(3)} (1 is identical)` : ''),
    );
  }
  if (report.mlEfficacy) {
    lines.push(
      `Machine-learning efficacy, predicting ${report.mlEfficacy.task.positiveClass} on the holdout:`,
    );
    for (const m of report.mlEfficacy.models) {
      lines.push(
        `  ${m.model}: accuracy ${m.mean.accuracy.toFixed(3)} trained on synthetic, ${m.real.accuracy.toFixed(3)} on real;` +
          ` agreement ${m.mean.agreementWithReal.toFixed(3)}`,
      );
    }
  }
  if (report.distinguishingGame)
    lines.push(
      `Distinguishing game accuracy: ${report.distinguishingGame.meanAccuracy.toFixed(3)} (0.5 is indistinguishable)`,
    );
  if (report.disclosure) {
    const d = report.disclosure.perRelease;
    const share = d.reduce((s, x) => s + x.exactMatches.synthShare, 0) / d.length;
    lines.push(
      `Synthetic rows equal to a real row: ${(100 * share).toFixed(2)}% (${report.disclosure.label})`,
    );
  }
  lines.push(report.note);
  return lines;
}

function checkSameColumns(realPath: string, realHeader: string[], otherPath: string, otherHeader: string[]) {
  const missing = realHeader.filter((h) => !otherHeader.includes(h));
  const extra = otherHeader.filter((h) => !realHeader.includes(h));
  if (missing.length || extra.length) {
    throw new InputError(
      `${realPath} and ${otherPath} must have the same columns` +
        (missing.length ? `; ${otherPath} lacks ${missing.join(', ')}` : '') +
        (extra.length ? `; ${realPath} lacks ${extra.join(', ')}` : '') +
        '.',
      { file: otherPath },
    );
  }
}

const SKIPPABLE = ['game', 'disclosure'] as const;

function parseSkipList(value: unknown): Set<string> {
  if (value === undefined) return new Set();
  const parts = String(value)
    .split(',')
    .map((p) => p.trim());
  const unknown = parts.filter((p) => !(SKIPPABLE as readonly string[]).includes(p));
  if (unknown.length) {
    throw new InputError(`--skip takes ${SKIPPABLE.join(' and ')}; got '${unknown.join(', ')}'.`);
  }
  return new Set(parts);
}

/** `target ~ a + b + c` (R's formula notation, main effects only) → a regression specification. */
export function parseRegressionFormula(formula: string, columns: string[]): RegressionSpec {
  const [lhs, rhs, extra] = formula.split('~');
  const target = lhs?.trim() ?? '';
  const predictors = (rhs ?? '')
    .split('+')
    .map((p) => p.trim())
    .filter((p) => p !== '');
  if (extra !== undefined || target === '' || predictors.length === 0) {
    throw new InputError(`--regression takes a formula like 'income ~ age + sex'; got '${formula}'.`);
  }
  const unknown = [target, ...predictors].filter((name) => !columns.includes(name));
  if (unknown.length) {
    throw new InputError(
      `--regression: no column ${unknown.map((u) => `'${u}'`).join(', ')}; columns are ${columns.join(', ')}.`,
    );
  }
  if (predictors.includes(target)) {
    throw new InputError(`--regression: the target '${target}' cannot also be a predictor.`);
  }
  return { target, predictors };
}

function withoutDomain(column: Schema['columns'][number]): Schema['columns'][number] {
  return column.type === 'numeric'
    ? { name: column.name, type: 'numeric', source: column.source }
    : { name: column.name, type: 'categorical', source: column.source };
}

function parseModel(value: unknown): 'cart' | 'logit' {
  if (value === undefined) return 'cart';
  if (value === 'cart' || value === 'logit') return value;
  throw new InputError(`--pmse-model must be cart or logit; got '${String(value)}'.`);
}

function parseKList(value: unknown): number[] {
  if (value === undefined) return [1, 2, 3];
  const parts = String(value).split(',');
  const ks = parts.map((p) => Number(p.trim()));
  if (ks.some((k) => !Number.isInteger(k) || k < 1 || k > 3)) {
    throw new InputError(`--tvd-k takes a list of 1, 2 and 3, e.g. 1,2; got '${String(value)}'.`);
  }
  return [...new Set(ks)].sort();
}

function parseNumber(value: unknown, flag: string, fallback: number): number {
  if (value === undefined) return fallback;
  const x = Number(value);
  if (String(value).trim() === '' || !Number.isFinite(x)) {
    throw new InputError(`${flag} must be a number; got '${String(value)}'.`);
  }
  return x;
}

function parsePositiveInt(value: unknown, flag: string, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  const x = Number(value);
  if (!/^\d+$/.test(String(value)) || x < min || x > max) {
    throw new InputError(`${flag} must be a whole number between ${min} and ${max}; got '${String(value)}'.`);
  }
  return x;
}
