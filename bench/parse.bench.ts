// Times reading a 1,000,000-row × 8-column mixed CSV: parseCsv, inferSchema, buildTable (and, for
// the export path, writeCsv). The file is generated in memory from a fixed seed. Prints one JSON object.
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { SeededRng } from '../src/core/rng/seeded-rng';
import type { Rng } from '../src/core/rng/types';
import { buildTable, inferSchema, parseCsv, writeCsv } from '../src/core/table';

const ROWS = Number(process.env.PARSE_BENCH_ROWS ?? 1_000_000);
const SEED = 20240611;

const REGIONS = [
  'North',
  'North-East',
  'East',
  'South-East',
  'South',
  'South-West',
  'West',
  'North-West',
  'Centre',
  'Islands',
];
const EDUCATION = Array.from({ length: 16 }, (_, k) => `level ${k + 1}`);
// 50 occupations; some hold the delimiter or a quote, so the parser must handle RFC 4180 quoting.
const OCCUPATIONS = Array.from({ length: 50 }, (_, k) =>
  k % 10 === 3 ? `"Sales, group ${k}"` : k % 10 === 7 ? `"Clerk ""grade"" ${k}"` : `occupation-${k}`,
);

function pick<T>(rng: Rng, items: readonly T[]): T {
  return items[Math.floor(rng.nextFloat() * items.length)]!;
}

/** One CSV line: 4 numeric columns (two integer, two real, with missing values) and 4 categorical. */
function generateLine(rng: Rng): string {
  const age = rng.nextFloat() < 0.02 ? '' : String(17 + Math.floor(rng.nextFloat() * 74));
  const income = rng.nextFloat() < 0.05 ? 'NA' : (rng.nextFloat() * 120000).toFixed(2);
  const hours = String(1 + Math.floor(rng.nextFloat() * 99));
  const score = String((rng.nextFloat() - 0.5) * 7.3);
  const sex = rng.nextFloat() < 0.5 ? 'F' : 'M';
  return [
    age,
    income,
    hours,
    score,
    sex,
    pick(rng, REGIONS),
    pick(rng, OCCUPATIONS),
    pick(rng, EDUCATION),
  ].join(',');
}

function generateCsv(rows: number): string {
  const rng = new SeededRng(SEED);
  const lines = ['age,income,hours,score,sex,region,occupation,education'];
  for (let i = 0; i < rows; i++) lines.push(generateLine(rng));
  return lines.join('\n') + '\n';
}

function seconds(start: number): number {
  return Math.round((performance.now() - start) / 10) / 100;
}

/** CPU time (user + system, all threads of the process) since `start`: meaningful even on a busy machine. */
function cpuSeconds(start: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(start);
  return Math.round((used.user + used.system) / 1e4) / 100;
}

let peakRss = process.memoryUsage().rss;
const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 50);

const text = generateCsv(ROWS);
const bytes = Buffer.byteLength(text, 'utf8');

let start = performance.now();
let cpuStart = process.cpuUsage();
const raw = parseCsv(text, { fileName: 'bench.csv' });
const parseSeconds = seconds(start);
const parseCpuSeconds = cpuSeconds(cpuStart);

start = performance.now();
cpuStart = process.cpuUsage();
const schema = inferSchema(raw);
const inferSeconds = seconds(start);
const inferCpuSeconds = cpuSeconds(cpuStart);

start = performance.now();
cpuStart = process.cpuUsage();
const { table } = buildTable(raw, schema);
const buildSeconds = seconds(start);
const buildCpuSeconds = cpuSeconds(cpuStart);

start = performance.now();
const written = writeCsv(table);
const writeSeconds = seconds(start);

clearInterval(sampler);
const totalSeconds = Math.round((parseSeconds + inferSeconds + buildSeconds) * 100) / 100;
const maxRssMB = process.resourceUsage().maxRSS / 1024;
console.log(
  JSON.stringify({
    bench: 'parse',
    rows: table.nRows,
    columns: table.columns.length,
    bytes,
    parseSeconds,
    inferSeconds,
    buildSeconds,
    totalSeconds,
    rowsPerSecond: Math.round(table.nRows / totalSeconds),
    cpuSeconds: { parse: parseCpuSeconds, infer: inferCpuSeconds, build: buildCpuSeconds },
    writeSeconds,
    writtenBytes: written.length,
    peakRssMB: Math.round(Math.max(maxRssMB, peakRss / 2 ** 20)),
    loadAverage1m: Math.round(loadavg()[0]! * 100) / 100,
    node: process.version,
  }),
);
