// Count sources at scale: a census-shaped table of ROWS rows (default 10^7) generated inside DuckDB as
// a Parquet file (and the same rows as CSV), then `synth` with MST and the Laplace histogram, through
// DuckDB (--engine duckdb) and, when IN_MEMORY=1, from the CSV in memory. Each run is a child process
// under /usr/bin/time -v: wall seconds and the client's peak resident memory. Prints one JSON object.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDuckDb } from '../src/cli/count-sources/duckdb';
import { CENSUS_LIKE_SCHEMA } from '../tests/counts/census-like';

const rows = Number(process.env.ROWS ?? 1e7);
const dir = mkdtempSync(join(process.env.BENCH_DIR ?? tmpdir(), 'dpsynth-count-sources-'));
const parquet = join(dir, 'census.parquet');
const csv = join(dir, 'census.csv');
const schema = join(dir, 's.json');
writeFileSync(schema, JSON.stringify(CENSUS_LIKE_SCHEMA));

const generated = Date.now();
const connection = await openDuckDb();
const table =
  `SELECT CASE WHEN hash(i * 7) % 50 = 0 THEN NULL ELSE CAST(17 + hash(i) % 74 AS DOUBLE) END AS age, ` +
  `CASE WHEN hash(i * 11) % 50 = 0 THEN NULL ELSE 1 + (hash(i * 3) % 9800) / 100.0 END AS hours, ` +
  `['F', 'M', 'M', ''][CAST(1 + hash(i * 5) % 4 AS BIGINT)] AS sex, ` +
  `['White', 'White', 'Black', 'Asian', 'Pacific', 'Other'][CAST(1 + hash(i * 13) % 6 AS BIGINT)] AS race, ` +
  `['HS', 'HS', 'Some college', 'BA', 'MA', 'PhD', 'NA'][CAST(1 + hash(i * 17) % 7 AS BIGINT)] AS education, ` +
  `CASE WHEN hash(i * 19) % 5 = 0 THEN '>50K' ELSE '<=50K' END AS income FROM range(${rows}) t(i)`;
await connection.run(`COPY (${table}) TO '${parquet}' (FORMAT parquet)`);
if (process.env.IN_MEMORY === '1')
  await connection.run(`COPY (SELECT * FROM '${parquet}') TO '${csv}' (HEADER, DELIMITER ',')`);
connection.closeSync();
const generateSeconds = (Date.now() - generated) / 1000;

function timed(args: string[]): { seconds: number; peakMB: number } {
  const started = Date.now();
  const run = spawnSync('/usr/bin/time', ['-v', 'npx', 'tsx', 'src/cli/main.ts', ...args, '--force'], {
    encoding: 'utf8',
  });
  const seconds = (Date.now() - started) / 1000;
  if (run.status !== 0) throw new Error(`synth failed: ${run.stderr}`);
  const peak = /Maximum resident set size \(kbytes\): (\d+)/.exec(run.stderr);
  return { seconds, peakMB: peak ? Math.round(Number(peak[1]) / 1024) : NaN };
}

const common = (mechanism: string) => [
  '--schema',
  schema,
  '--mechanism',
  mechanism,
  '--epsilon',
  '1',
  '--delta',
  '1e-9',
  '--seed',
  '1',
];
const result: Record<string, unknown> = {
  bench: 'count-sources',
  rows,
  parquetMB: Math.round(statSync(parquet).size / 2 ** 20),
  generateSeconds,
  git: execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim(),
};
result.duckdbMst = timed([
  'synth',
  parquet,
  ...common('mst'),
  '--engine',
  'duckdb',
  '--out',
  join(dir, 'mst.parquet'),
]);
result.duckdbLaplace = timed([
  'synth',
  parquet,
  ...common('laplace-histogram'),
  '--param',
  'bins=8',
  '--engine',
  'duckdb',
  '--out',
  join(dir, 'lh.csv'),
]);
if (process.env.IN_MEMORY === '1') {
  result.inMemoryMst = timed(['synth', csv, ...common('mst'), '--out', join(dir, 'mst-memory.csv')]);
}
rmSync(dir, { recursive: true, force: true });
console.log(JSON.stringify(result));
