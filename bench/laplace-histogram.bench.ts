// laplace-histogram end to end on 1,000,000 rows × 8 mixed columns. Prints ONE JSON object.
//
// Data, generated in memory with a SeededRng (no CSV step): four numeric columns
//   age integer [17, 90], income real [0, 200000], hours integer [0, 99], score real [0, 1]
// and four categorical ones
//   sex (2 levels), region (5), education (4), employed (2),
// with dependence between columns and 2–10 % missing values in each. Numeric columns get
// `bins` = 15 (Scott's rule would give 172 bins at n = 10^6 and be refused), so
// the domain is 16^4 · 3 · 6 · 5 · 3 = 17,694,720 cells, near the 2·10^7 limit: the worst case the
// mechanism accepts. ε = 1, one release, seeded.
// Reported: wall-clock seconds of run() (validation, counting, noise on every cell, drawing and
// decoding rows), the seconds to generate the data, cells in the domain, cells with a positive noisy
// count, noise draws per second, and the process's peak resident memory. `endToEnd` times what the
// CLI does with a file: the table is first written as CSV text (not timed), then parse + build with
// the declared schema, run() and writing the synthetic CSV are timed together.
// Env: LAPLACE_BENCH_ROWS (default 1000000), LAPLACE_BENCH_BINS (default 15).
import { performance } from 'node:perf_hooks';
import { laplaceHistogram } from '../src/core/mechanisms/laplace-histogram';
import { resolveParams } from '../src/core/mechanisms/params';
import { SeededRng } from '../src/core/rng/seeded-rng';
import type { Rng } from '../src/core/rng/types';
import { uniformInt } from '../src/core/rng/uniform-int';
import type { Column, Schema, Table } from '../src/core/table/types';
import { buildTable, parseCsv, writeCsv } from '../src/core/table';

const ROWS = Number(process.env.LAPLACE_BENCH_ROWS ?? 1_000_000);
const BINS = Number(process.env.LAPLACE_BENCH_BINS ?? 15);

const SCHEMA: Schema = {
  version: 1,
  missing: [''],
  columns: [
    { name: 'age', type: 'numeric', bounds: [17, 90], integer: true, source: 'declared' },
    { name: 'income', type: 'numeric', bounds: [0, 200_000], source: 'declared' },
    { name: 'hours', type: 'numeric', bounds: [0, 99], integer: true, source: 'declared' },
    { name: 'score', type: 'numeric', bounds: [0, 1], source: 'declared' },
    { name: 'sex', type: 'categorical', categories: ['F', 'M'], source: 'declared' },
    { name: 'region', type: 'categorical', categories: ['N', 'S', 'E', 'W', 'C'], source: 'declared' },
    {
      name: 'education',
      type: 'categorical',
      categories: ['none', 'school', 'college', 'degree'],
      source: 'declared',
    },
    { name: 'employed', type: 'categorical', categories: ['no', 'yes'], source: 'declared' },
  ],
};

function numeric(
  name: string,
  n: number,
  missingRate: number,
  rng: Rng,
  value: (i: number) => number,
): Column {
  const values = new Float64Array(n);
  const missing = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    if (rng.nextFloat() < missingRate) {
      missing[i] = 1;
      values[i] = NaN;
    } else values[i] = value(i);
  }
  return { kind: 'numeric', name, values, missing };
}

function categorical(
  name: string,
  dictionary: string[],
  n: number,
  missingRate: number,
  rng: Rng,
  code: (i: number) => number,
): Column {
  const codes = new Uint32Array(n);
  const missing = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    if (rng.nextFloat() < missingRate) missing[i] = 1;
    else codes[i] = code(i);
  }
  return { kind: 'categorical', name, codes, dictionary, missing };
}

/** A mixed table with some structure: education depends on age, income on education, and so on. */
function generateTable(n: number, rng: Rng): Table {
  const age = Int32Array.from({ length: n }, () => 17 + uniformInt(rng, 74));
  const education = Uint32Array.from(age, (a) => Math.min(3, uniformInt(rng, 3) + (a > 30 ? 1 : 0)));
  const employed = Uint32Array.from(education, (e) => (rng.nextFloat() < 0.55 + 0.1 * e ? 1 : 0));
  const columns: Column[] = [
    numeric('age', n, 0.02, rng, (i) => age[i]!),
    numeric('income', n, 0.1, rng, (i) =>
      Math.min(200_000, (15_000 + 20_000 * education[i]!) * (0.5 + rng.nextFloat()) * (employed[i]! + 0.3)),
    ),
    numeric('hours', n, 0.05, rng, (i) => (employed[i] ? 20 + uniformInt(rng, 40) : uniformInt(rng, 10))),
    numeric('score', n, 0.03, rng, () => rng.nextFloat()),
    categorical('sex', ['F', 'M'], n, 0.02, rng, () => uniformInt(rng, 2)),
    categorical('region', ['N', 'S', 'E', 'W', 'C'], n, 0.04, rng, () => uniformInt(rng, 5)),
    categorical('education', ['none', 'school', 'college', 'degree'], n, 0.06, rng, (i) => education[i]!),
    categorical('employed', ['no', 'yes'], n, 0.03, rng, (i) => employed[i]!),
  ];
  return { nRows: n, columns };
}

const generationStart = performance.now();
const table = generateTable(ROWS, new SeededRng(2024));
const generationSeconds = (performance.now() - generationStart) / 1000;

const params = resolveParams(laplaceHistogram, { bins: BINS });
const context = { n: ROWS, schema: SCHEMA, epsilon: '1', delta: 0, releases: 1, seeded: true };
const problems = laplaceHistogram.check(SCHEMA, params, context);
if (problems.length > 0) throw new Error(problems.join(' '));

const runStart = performance.now();
const release = await laplaceHistogram.run(table, SCHEMA, params, {
  ...context,
  rng: new SeededRng(7),
  progress: () => {},
  signal: { aborted: false },
});
const runSeconds = (performance.now() - runStart) / 1000;
const domainCells = release.diagnostics.domainCells as number;

// End to end from CSV text to CSV text, as `dpsynth synth` does (file reads and writes excluded).
const csvText = writeCsv(table);
const endToEndStart = performance.now();
const parsed = buildTable(parseCsv(csvText, { fileName: 'bench.csv' }), SCHEMA).table;
const parseSeconds = (performance.now() - endToEndStart) / 1000;
const endToEndRelease = await laplaceHistogram.run(parsed, SCHEMA, params, {
  ...context,
  rng: new SeededRng(8),
  progress: () => {},
  signal: { aborted: false },
});
const syntheticCsv = writeCsv(endToEndRelease.datasets[0]!);
const endToEndSeconds = (performance.now() - endToEndStart) / 1000;
const positiveNoisyCells = (release.diagnostics.positiveNoisyCells as number[])[0]!;

console.log(
  JSON.stringify({
    benchmark: 'laplace-histogram',
    rows: ROWS,
    columns: SCHEMA.columns.length,
    binsPerNumericColumn: BINS,
    epsilon: 1,
    seconds: Number(runSeconds.toFixed(3)),
    generateSeconds: Number(generationSeconds.toFixed(3)),
    domainCells,
    positiveNoisyCells,
    noiseDrawsPerSecond: Math.round(domainCells / runSeconds),
    syntheticRows: release.datasets[0]!.nRows,
    endToEnd: {
      inputCsvMB: Number((csvText.length / 1e6).toFixed(1)),
      parseAndBuildSeconds: Number(parseSeconds.toFixed(3)),
      totalSeconds: Number(endToEndSeconds.toFixed(3)),
      outputCsvMB: Number((syntheticCsv.length / 1e6).toFixed(1)),
    },
    peakRssMiB: Math.round(process.resourceUsage().maxRSS / 1024),
    node: process.version,
  }),
);
