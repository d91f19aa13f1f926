// Plausible deniability on a census-shaped table: private-pgm's preprocessed UCI Adult (48,842 rows,
// 14 categorical columns; see bench/census-shape.bench.ts for the source and licence; not committed:
// point CENSUS_CSV and CENSUS_DOMAIN at the two files), run in this process through the registry at
// ε0 ≈ 1 per draw (ε = 1.2·n, δ = 1e−9) beside dp-marginals at the same table-level ε. Reported per
// variant: k, t, ε0, the network's edges, the mean TVD over all 1- and 2-way marginals, and the
// accuracy of a random forest predicting `income>50K` trained on the synthetic rows and scored on the
// real ones (beside the majority class). Variants (PD_CENSUS_VARIANTS, comma-separated, default all):
// `defaults`, and parameter overrides written key=value;key=value. Env: PD_CENSUS_TRIALS (1).
// Prints ONE JSON object.
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { resolveParams } from '../src/core/mechanisms/params';
import { getMechanism } from '../src/core/mechanisms/registry';
import { mlEfficacy } from '../src/core/metrics/ml-efficacy';
import { SeededRng } from '../src/core/rng/seeded-rng';
import { buildTable, parseCsv, parseSchemaJson } from '../src/core/table';
import type { CategoricalColumn, Table } from '../src/core/table/types';
import { schemaFromDomain } from './census-schema';
import { workloadError } from './pgm-bench-data';

const CSV = process.env.CENSUS_CSV;
const DOMAIN = process.env.CENSUS_DOMAIN;
const TRIALS = Number(process.env.PD_CENSUS_TRIALS ?? 1);
const VARIANTS = (process.env.PD_CENSUS_VARIANTS ?? 'defaults').split(',');
const TARGET = process.env.PD_CENSUS_TARGET ?? 'income>50K';

if (!CSV || !DOMAIN) {
  console.log(
    JSON.stringify({
      bench: 'plausible-deniability-census',
      unavailable: 'set CENSUS_CSV and CENSUS_DOMAIN (see bench/census-shape.bench.ts)',
    }),
  );
  process.exit(0);
}

const schema = parseSchemaJson(
  schemaFromDomain(JSON.parse(readFileSync(DOMAIN, 'utf8')) as Record<string, number>),
  'census.schema.json',
);
const real: Table = buildTable(parseCsv(readFileSync(CSV, 'utf8'), { fileName: CSV }), schema).table;
const n = real.nRows;
const epsilon = String(1.2 * n);

function variantParams(variant: string): Record<string, string | number> {
  if (variant === 'defaults') return {};
  return Object.fromEntries(
    variant.split(';').map((pair) => {
      const [key, value] = pair.split('=');
      return [key!, Number(value)];
    }),
  );
}

/** Share of the majority class of the target in the real rows. */
function majorityShare(table: Table): number {
  const column = table.columns.find((c) => c.name === TARGET) as CategoricalColumn;
  const counts = new Map<number, number>();
  for (let i = 0; i < table.nRows; i++) counts.set(column.codes[i]!, (counts.get(column.codes[i]!) ?? 0) + 1);
  return Math.max(...counts.values()) / table.nRows;
}

async function runOnce(mechanismId: string, given: Record<string, string | number>, trial: number) {
  const mechanism = getMechanism(mechanismId)!;
  const params = resolveParams(mechanism, given);
  const start = performance.now();
  const release = await mechanism.run(real, schema, params, {
    n,
    schema,
    epsilon,
    delta: '1e-9',
    releases: 1,
    seeded: true,
    rng: new SeededRng(`pd-census/${mechanismId}/${JSON.stringify(given)}/${trial}`),
    progress: () => {},
    signal: { aborted: false },
  });
  const seconds = (performance.now() - start) / 1000;
  const synthetic = release.datasets[0]!;
  const tvd = ([1, 2] as const).map((k) => workloadError(real, synthetic, schema, k).tvd);
  const target = schema.columns.find((c) => c.name === TARGET);
  const positive = target?.type === 'categorical' ? target.categories![1]! : '1';
  const ml = mlEfficacy(
    real,
    real,
    [synthetic],
    { target: TARGET, positiveLevel: positive, models: ['forest'] },
    new SeededRng(`pd-census ml ${trial}`),
  );
  const diagnostics = release.diagnostics as Record<string, unknown>;
  const parents = diagnostics.parents as Record<string, string[]> | undefined;
  return {
    seconds: Math.round(seconds * 10) / 10,
    tvd1: tvd[0]!,
    tvd2: tvd[1]!,
    forestAccuracy: ml.models[0]!.mean.accuracy,
    ...(parents
      ? {
          k: diagnostics.k,
          t: diagnostics.t,
          testEpsilon: diagnostics.testEpsilon,
          edges: Object.values(parents).reduce((s, p) => s + p.length, 0),
          targetParents: parents[TARGET],
          targetChildren: Object.entries(parents)
            .filter(([, ps]) => ps.includes(TARGET))
            .map(([c]) => c),
        }
      : {}),
  };
}

async function main(): Promise<void> {
  const out: Record<string, unknown> = {};
  for (const [id, variant] of [
    ['dp-marginals', 'defaults'],
    ...VARIANTS.map((v) => ['plausible-deniability', v]),
  ] as const) {
    const runs = [];
    for (let trial = 1; trial <= TRIALS; trial++) runs.push(await runOnce(id, variantParams(variant), trial));
    out[`${id} ${variant}`] = runs;
    process.stderr.write(`${id} ${variant}: ${JSON.stringify(runs)}\n`);
  }
  console.log(
    JSON.stringify({
      bench: 'plausible-deniability-census',
      data: { rows: n, columns: schema.columns.length },
      epsilon: Number(epsilon),
      delta: 1e-9,
      majorityShare: majorityShare(real),
      results: out,
    }),
  );
}

void main();
