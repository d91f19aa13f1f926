// The cost of the sampling rules of the graphical-model mechanisms at a million rows: `mst` on the
// census-shaped table of census-shape.bench.ts (CENSUS_CSV, CENSUS_DOMAIN) repeated PGM_SAMPLING_REPS
// times (20: 976,840 rows), once per rule, seed "pgm-sampling", ε = 1, δ = 1e−9, in this process.
// The fitted model is the same for every rule (same seed, same draws until sampling), so the
// difference in processor time is the drawing of rows. Prints ONE JSON object.
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { runMst } from '../src/core/mechanisms/mst/run-mst';
import { getMechanism } from '../src/core/mechanisms/registry';
import { resolveParams } from '../src/core/mechanisms/params';
import { SeededRng } from '../src/core/rng/seeded-rng';
import { buildTable, parseCsv, parseSchemaJson } from '../src/core/table';
import { schemaFromDomain } from './census-schema';

const CSV = process.env.CENSUS_CSV;
const DOMAIN = process.env.CENSUS_DOMAIN;
const REPS = Number(process.env.PGM_SAMPLING_REPS ?? 20);
if (!CSV || !DOMAIN) {
  console.log(
    JSON.stringify({
      bench: 'pgm-sampling',
      unavailable: 'set CENSUS_CSV and CENSUS_DOMAIN (see census-shape.bench.ts)',
    }),
  );
  process.exit(0);
}
const schema = parseSchemaJson(
  schemaFromDomain(JSON.parse(readFileSync(DOMAIN, 'utf8')) as Record<string, number>),
  'census.schema.json',
);
const [header, ...rows] = readFileSync(CSV, 'utf8').trimEnd().split('\n');
const text = [header, ...Array.from({ length: REPS }, () => rows).flat()].join('\n');
const table = buildTable(parseCsv(text, { fileName: CSV }), schema).table;
const mechanism = getMechanism('mst')!;
const results: Record<string, { wallSeconds: number; cpuSeconds: number }> = {};
const loadBefore = loadavg()[0]!;
for (const sampling of ['round', 'balanced', 'sample']) {
  const ctx = {
    n: table.nRows,
    schema,
    epsilon: '1',
    delta: '1e-9',
    releases: 1,
    seeded: true,
    rng: new SeededRng('pgm-sampling'),
    progress: () => {},
    signal: { aborted: false },
  };
  const start = performance.now();
  const cpuStart = process.cpuUsage();
  await runMst(table, schema, resolveParams(mechanism, { sampling }), ctx);
  const cpu = process.cpuUsage(cpuStart);
  results[sampling] = {
    wallSeconds: Number(((performance.now() - start) / 1000).toFixed(2)),
    cpuSeconds: Number(((cpu.user + cpu.system) / 1e6).toFixed(2)),
  };
}
console.log(
  JSON.stringify({
    bench: 'pgm-sampling',
    mechanism: 'mst',
    rows: table.nRows,
    columns: table.columns.length,
    ...results,
    loadAverage: [Number(loadBefore.toFixed(1)), Number(loadavg()[0]!.toFixed(1))],
  }),
);
