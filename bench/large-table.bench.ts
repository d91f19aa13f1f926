// Tables of 1M, 5M and 10M rows × 8 columns, read the way the CLI reads a file. Prints ONE JSON object.
//
// For each size a CSV file is generated on the fly into the system's temporary folder (the same
// seeded generator as parse.bench.ts: 4 numeric columns, two of them with missing values, and 4
// categorical ones, some quoted) and deleted afterwards; nothing is committed. Every measurement
// runs in its own Node process, so its peak resident memory (getrusage maxRSS) is its own:
//   papaparse — PapaParse's own streaming parse of the file (a Node read stream, chunk mode,
//               rows counted and dropped): the speed to match. Wall seconds and processor seconds
//               (user + system, all threads) are both given: on a shared machine the processor
//               seconds compare the two fairly, wall seconds depend on what else runs;
//   load      — the CLI's read of the file, schema inference and typing (parse + infer + build),
//               with the columnar table's size (typed arrays + dictionaries) and the memory goal
//               2 × table + 64 MB, checked on the peak and on the peak above the runtime's own
//               resident memory before any data (baselineRssMB: Node, tsx and the modules);
//   synth     — `dpsynth synth` as the command line runs it (runCli) with a declared schema and a
//               seed: read + build, the mechanism's run (dp-marginals and laplace-histogram, ε = 1)
//               and writing the synthetic CSV, timed from the command's progress messages.
// The load step reads as the CLI does (src/cli/io.ts) when it streams; on a checkout where it does
// not (the numbers before streaming) the file is read whole and parsed as text, as the CLI then did.
// Env: LARGE_BENCH_ROWS (comma-separated, default 1000000,5000000,10000000),
//      LARGE_BENCH_STEPS (default papaparse,load,synth), LARGE_BENCH_BINS (laplace-histogram bins, default 4).
import { spawnSync } from 'node:child_process';
import { createReadStream, createWriteStream, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import Papa from 'papaparse';
import { SeededRng } from '../src/core/rng/seeded-rng';
import type { Rng } from '../src/core/rng/types';
import type { Schema, Table } from '../src/core/table/types';

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
const OCCUPATION_TOKENS = Array.from({ length: 50 }, (_, k) =>
  k % 10 === 3 ? `"Sales, group ${k}"` : k % 10 === 7 ? `"Clerk ""grade"" ${k}"` : `occupation-${k}`,
);
const OCCUPATIONS = Array.from({ length: 50 }, (_, k) =>
  k % 10 === 3 ? `Sales, group ${k}` : k % 10 === 7 ? `Clerk "grade" ${k}` : `occupation-${k}`,
);

/** The declared schema of the generated file (what the data holder knows publicly). */
const SCHEMA: Schema = {
  version: 1,
  missing: ['', 'NA'],
  columns: [
    { name: 'age', type: 'numeric', bounds: [17, 90], integer: true, source: 'declared' },
    { name: 'income', type: 'numeric', bounds: [0, 120_000], source: 'declared' },
    { name: 'hours', type: 'numeric', bounds: [1, 99], integer: true, source: 'declared' },
    { name: 'score', type: 'numeric', bounds: [-3.65, 3.65], source: 'declared' },
    { name: 'sex', type: 'categorical', categories: ['F', 'M'], source: 'declared' },
    { name: 'region', type: 'categorical', categories: REGIONS, source: 'declared' },
    { name: 'occupation', type: 'categorical', categories: OCCUPATIONS, source: 'declared' },
    { name: 'education', type: 'categorical', categories: EDUCATION, source: 'declared' },
  ],
};

function pick<T>(rng: Rng, items: readonly T[]): T {
  return items[Math.floor(rng.nextFloat() * items.length)]!;
}

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
    pick(rng, OCCUPATION_TOKENS),
    pick(rng, EDUCATION),
  ].join(',');
}

async function generateFile(path: string, rows: number): Promise<void> {
  const rng = new SeededRng(SEED);
  const out = createWriteStream(path);
  const write = (text: string) =>
    new Promise<void>((resolve, reject) => out.write(text, (error) => (error ? reject(error) : resolve())));
  await write('age,income,hours,score,sex,region,occupation,education\n');
  const batch: string[] = [];
  for (let i = 0; i < rows; i++) {
    batch.push(generateLine(rng));
    if (batch.length === 10_000 || i === rows - 1) {
      await write(`${batch.join('\n')}\n`);
      batch.length = 0;
    }
  }
  await new Promise<void>((resolve) => out.end(resolve));
}

function seconds(start: number): number {
  return Math.round((performance.now() - start) / 10) / 100;
}

function peakRssMB(): number {
  return Math.round(process.resourceUsage().maxRSS / 1024);
}

/** Bytes of a columnar table: its typed arrays and its dictionaries (2 bytes a character). */
function tableBytes(table: Table): number {
  let bytes = 0;
  for (const column of table.columns) {
    bytes += column.missing.byteLength;
    if (column.kind === 'numeric') bytes += column.values.byteLength;
    else bytes += column.codes.byteLength + column.dictionary.reduce((s, level) => s + 2 * level.length, 0);
  }
  return bytes;
}

type Source = Parameters<typeof import('../src/core/table').buildTable>[0];

/** The CLI's read of a CSV file: streamed when this checkout has it, else whole text parsed. */
async function readAsTheCliDoes(path: string): Promise<Source> {
  const io = (await import('../src/cli/io')) as Record<string, unknown>;
  if (typeof io.readCsvFile === 'function') {
    return (io.readCsvFile as (p: string) => Promise<Source>)(path);
  }
  const table = await import('../src/core/table');
  return table.parseCsv(table.decodeCsvBytes(readFileSync(path), path), { fileName: path });
}

/** Processor seconds (user + system, all threads) since `start`: fairer than wall time on a busy machine. */
function cpuSeconds(start: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(start);
  return Math.round((used.user + used.system) / 1e4) / 100;
}

async function papaparseStep(path: string) {
  const start = performance.now();
  const cpuStart = process.cpuUsage();
  let rows = 0;
  await new Promise<void>((resolve, reject) => {
    Papa.parse<string[]>(createReadStream(path, { encoding: 'utf8', highWaterMark: 1 << 20 }) as never, {
      header: false,
      skipEmptyLines: false,
      chunk: (results: Papa.ParseResult<string[]>) => {
        rows += results.data.length;
      },
      complete: () => resolve(),
      error: (error: Error) => reject(error),
    });
  });
  return {
    seconds: seconds(start),
    cpuSeconds: cpuSeconds(cpuStart),
    rows: rows - 1,
    peakRssMB: peakRssMB(),
  };
}

async function loadStep(path: string) {
  const { buildTable, inferSchema } = await import('../src/core/table');
  const cpuStart = process.cpuUsage();
  let start = performance.now();
  const raw = await readAsTheCliDoes(path);
  const parseSeconds = seconds(start);
  start = performance.now();
  const schema = inferSchema(raw);
  const inferSeconds = seconds(start);
  start = performance.now();
  const { table } = buildTable(raw, schema);
  const buildSeconds = seconds(start);
  const tableMB = Math.round(tableBytes(table) / 2 ** 20);
  const peak = peakRssMB();
  return {
    parseSeconds,
    inferSeconds,
    buildSeconds,
    totalSeconds: Math.round((parseSeconds + inferSeconds + buildSeconds) * 100) / 100,
    cpuSeconds: cpuSeconds(cpuStart),
    rows: table.nRows,
    tableMB,
    peakRssMB: peak,
    goalMB: 2 * tableMB + 64,
  };
}

/**
 * `dpsynth synth` as the command line runs it (runCli: read, type, run, write the CSV and the report),
 * seeded, with the declared schema. Phases from the command's progress messages: read + build until
 * the mechanism's first progress report, the run until the first written piece, then the writing
 * (which, for a mechanism that hands its rows out in blocks, includes decoding each block).
 */
async function synthStep(path: string, mechanismId: string, bins: number) {
  const { runCli } = await import('../src/cli/run-cli');
  const schemaPath = `${path}.${mechanismId}.schema.json`;
  const out = `${path}.${mechanismId}.not-for-release.csv`;
  const report = `${path}.${mechanismId}.report.json`;
  writeFileSync(schemaPath, JSON.stringify(SCHEMA));
  const marks: Record<string, number> = {};
  const errors: string[] = [];
  const cpuStart = process.cpuUsage();
  const start = performance.now();
  try {
    const code = await runCli(
      [
        ...['synth', path, '--schema', schemaPath, '--mechanism', mechanismId, '--epsilon', '1'],
        ...(mechanismId === 'laplace-histogram' ? ['--param', `bins=${bins}`] : []),
        ...['--seed', 'large-table', '--out', out, '--report', report, '--progress'],
      ],
      {
        out: () => undefined,
        err: (text) => errors.push(text),
        progress: (_, message) => {
          const phase = message === 'reading' ? 'read' : message === 'writing' ? 'write' : 'run';
          marks[phase] ??= performance.now();
        },
      },
    );
    if (code !== 0) throw new Error(errors.join('').slice(0, 500));
    const end = performance.now();
    const between = (from: number, to: number) => Math.round((to - from) / 10) / 100;
    const runStart = marks.run ?? end;
    const writeStart = marks.write ?? end;
    return {
      readBuildSeconds: between(start, runStart),
      runSeconds: between(runStart, writeStart),
      writeSeconds: between(writeStart, end),
      totalSeconds: between(start, end),
      cpuSeconds: cpuSeconds(cpuStart),
      writtenMB: Math.round(statSync(out).size / 2 ** 20),
      peakRssMB: peakRssMB(),
    };
  } finally {
    for (const file of [schemaPath, out, report]) rmSync(file, { force: true });
  }
}

/** Runs one step in a fresh Node process; returns its JSON, or why it failed (e.g. out of memory). */
function inChild(args: string[]): Record<string, unknown> {
  const self = fileURLToPath(import.meta.url);
  const result = spawnSync('npx', ['tsx', self, ...args], { encoding: 'utf8', maxBuffer: 1 << 24 });
  const line = result.stdout.trim().split('\n').at(-1) ?? '';
  if (result.status === 0 && line.startsWith('{')) return JSON.parse(line) as Record<string, unknown>;
  const reason = /heap out of memory|Allocation failed/i.test(result.stderr)
    ? 'JavaScript heap out of memory'
    : result.stderr.trim().split('\n').slice(-3).join(' ') || `exit ${result.status}`;
  return { failed: reason.slice(0, 300) };
}

async function child(step: string, path: string, extra: string[]) {
  // What the process holds before any data: Node, tsx and the modules (the runtime, not the table).
  await import('../src/cli/io');
  await import('../src/core/table');
  await import('../src/core/mechanisms/registry');
  const baselineRssMB = Math.round(process.memoryUsage().rss / 2 ** 20);
  const result =
    step === 'papaparse'
      ? await papaparseStep(path)
      : step === 'load'
        ? await loadStep(path)
        : await synthStep(path, extra[0]!, Number(extra[1]));
  console.log(JSON.stringify({ ...result, baselineRssMB }));
}

async function main() {
  const sizes = (process.env.LARGE_BENCH_ROWS ?? '1000000,5000000,10000000').split(',').map(Number);
  const steps = (process.env.LARGE_BENCH_STEPS ?? 'papaparse,load,synth').split(',');
  const bins = Number(process.env.LARGE_BENCH_BINS ?? 4);
  const results: Record<string, unknown>[] = [];
  for (const rows of sizes) {
    const path = join(tmpdir(), `dpsynth-large-${rows}-${process.pid}.csv`);
    const start = performance.now();
    await generateFile(path, rows);
    const entry: Record<string, unknown> = {
      rows,
      columns: 8,
      fileMB: Math.round(statSync(path).size / 2 ** 20),
      generateSeconds: seconds(start),
    };
    try {
      if (steps.includes('papaparse')) entry.papaparse = inChild(['papaparse', path]);
      if (steps.includes('load')) entry.load = inChild(['load', path]);
      if (steps.includes('synth')) {
        entry.synth = {
          'dp-marginals': inChild(['synth', path, 'dp-marginals', String(bins)]),
          'laplace-histogram': inChild(['synth', path, 'laplace-histogram', String(bins)]),
        };
      }
      const load = entry.load as
        | {
            totalSeconds?: number;
            cpuSeconds?: number;
            peakRssMB?: number;
            goalMB?: number;
            baselineRssMB?: number;
          }
        | undefined;
      if (load?.peakRssMB !== undefined && load.goalMB !== undefined && load.baselineRssMB !== undefined) {
        entry.withinGoal = load.peakRssMB <= load.goalMB;
        // The runtime (Node + tsx + modules, ~85 MB) is not part of the table's cost.
        entry.withinGoalAboveRuntime = load.peakRssMB - load.baselineRssMB <= load.goalMB;
      }
      const papa = entry.papaparse as { seconds?: number; cpuSeconds?: number } | undefined;
      if (load?.totalSeconds !== undefined && papa?.seconds !== undefined) {
        entry.loadOverPapaparse = Math.round((load.totalSeconds / papa.seconds) * 100) / 100;
      }
      if (load?.cpuSeconds !== undefined && papa?.cpuSeconds !== undefined) {
        entry.loadOverPapaparseCpu = Math.round((load.cpuSeconds / papa.cpuSeconds) * 100) / 100;
      }
    } finally {
      rmSync(path, { force: true });
    }
    results.push(entry);
  }
  console.log(
    JSON.stringify({
      bench: 'large-table',
      laplaceHistogramBins: bins,
      results,
      loadAverage1m: Math.round(loadavg()[0]! * 100) / 100,
      node: process.version,
    }),
  );
}

const [, , step, path, ...extra] = process.argv;
if (step !== undefined && path !== undefined) await child(step, path, extra);
else await main();
