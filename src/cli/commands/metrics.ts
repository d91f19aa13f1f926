import { decodeCsvBytes, parseCsv } from '../../core/table/csv-read';
import { inferSchema } from '../../core/table/infer';
import { parseSchemaJson, checkSchemaMatchesHeader } from '../../core/table/schema-json';
import { buildTable } from '../../core/table/build-table';
import type { Schema } from '../../core/table/types';
import { InputError } from '../../core/table/errors';
import { tvdKWay } from '../../core/metrics/tvd';
import { computePmse } from '../../core/metrics/pmse';
import { SYNTHPOP_CART_DEFAULTS } from '../../core/models/cart';
import { makeRng } from '../../core/rng/make-rng';
import { readUserFile, type CliIo } from '../io';
import type { ParsedArgs } from '../run-cli';
import { UsageError } from '../errors';

/**
 * Missing tokens of the reference definitions (shared reference README, "Common preprocessing" 1):
 * without a schema, metrics read files exactly as the reference scripts do, so numbers are comparable.
 */
const REFERENCE_MISSING_TOKENS = ['', 'NA'];

/** `dpsynth metrics real.csv synth.csv`: utility of a synthetic file against the real one (for the data holder). */
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
  } as const,
  run(args: ParsedArgs, io: CliIo) {
    const v = args.values;
    const [realPath, synthPath, extra] = args.positionals;
    if (!realPath || !synthPath || extra)
      throw new UsageError('dpsynth metrics takes a real CSV and a synthetic CSV.');
    const realRaw = parseCsv(decodeCsvBytes(readUserFile(realPath, 'CSV'), realPath), { fileName: realPath });
    const synthRaw = parseCsv(decodeCsvBytes(readUserFile(synthPath, 'CSV'), synthPath), {
      fileName: synthPath,
    });

    let schema: Schema;
    if (v.schema !== undefined) {
      const schemaPath = String(v.schema);
      schema = parseSchemaJson(decodeCsvBytes(readUserFile(schemaPath, 'schema'), schemaPath), schemaPath);
      checkSchemaMatchesHeader(schema, realRaw.header, realPath);
      checkSchemaMatchesHeader(schema, synthRaw.header, synthPath);
    } else {
      const missingInSynth = realRaw.header.filter((h) => !synthRaw.header.includes(h));
      const extraInSynth = synthRaw.header.filter((h) => !realRaw.header.includes(h));
      if (missingInSynth.length || extraInSynth.length) {
        throw new InputError(
          `${realPath} and ${synthPath} must have the same columns` +
            (missingInSynth.length ? `; ${synthPath} lacks ${missingInSynth.join(', ')}` : '') +
            (extraInSynth.length ? `; ${realPath} lacks ${extraInSynth.join(', ')}` : '') +
            '.',
          { file: synthPath },
        );
      }
      // Pooled typing over both files, as the reference definitions do; bounds are not used by metrics.
      schema = inferSchema([realRaw, synthRaw], { missing: REFERENCE_MISSING_TOKENS });
      schema = { ...schema, columns: schema.columns.map(withoutDomain) };
    }
    const real = buildTable(realRaw, schema).table;
    const synth = buildTable(synthRaw, schema).table;

    const ks = parseKList(v['tvd-k']);
    const bins = parsePositiveInt(v.bins, '--bins', 10, 2, 1000);
    const tvd: Record<string, number> = {};
    const tvdSubsets: Record<string, { columns: string[]; tvd: number }[]> = {};
    for (const k of ks) {
      if (k > real.columns.length) continue;
      const result = tvdKWay(real, synth, k, { bins });
      tvd[String(k)] = result.mean;
      tvdSubsets[String(k)] = result.subsets;
    }

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
    const rng = makeRng(v.seed === undefined ? undefined : String(v.seed));
    const pmse = computePmse(real, synth, { model, cart, permutations }, rng);

    const result = {
      real: { file: realPath, rows: real.nRows },
      synthetic: { file: synthPath, rows: synth.nRows },
      columns: schema.columns.map((c) => ({ name: c.name, type: c.type })),
      pmse: {
        model: pmse.model,
        value: pmse.value,
        ratio: pmse.ratio,
        nullMean: pmse.nullMean,
        ...(pmse.rawRatio !== undefined ? { rawRatio: pmse.rawRatio } : {}),
        ...(pmse.k !== undefined ? { k: pmse.k } : {}),
        ...(model === 'cart' ? { cart, permutations } : {}),
      },
      tvd,
      tvdSubsets,
      kMarginalScore: tvd['2'] === undefined ? null : 1000 * (1 - tvd['2']),
      note: 'Computed from the real data: for the data holder, not for release.',
    };
    if (v.json) {
      io.out(`${JSON.stringify(result, null, 2)}\n`);
      return;
    }
    const lines = [
      `pMSE (${pmse.model}): ${pmse.value.toPrecision(6)}` +
        (pmse.ratio === null
          ? ''
          : `   S_pMSE: ${pmse.ratio.toPrecision(4)} (below 10 is good, below 3 better)`),
      ...Object.entries(tvd).map(
        ([k, value]) => `TVD of ${k}-way marginals: ${value.toPrecision(6)} (0 is identical)`,
      ),
    ];
    if (result.kMarginalScore !== null)
      lines.push(`k-marginal score: ${result.kMarginalScore.toFixed(1)} of 1000`);
    lines.push(result.note);
    io.out(`${lines.join('\n')}\n`);
  },
};

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
