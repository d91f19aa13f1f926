// MST and AIM on a census-shaped table: private-pgm's preprocessed UCI Adult (48,842 rows, 14
// categorical columns; `data/adult.csv` with `data/adult-domain.json` in github.com/ryan112358/private-pgm,
// derived from the UCI Adult data set, Becker & Kohavi 1996, CC BY 4.0). Not committed: point
// CENSUS_CSV and CENSUS_DOMAIN at the two files. The schema is written from the domain file: column j
// with k levels has the categories "0" … "k−1", declared public (the codebook, not the rows).
// Each mechanism runs through the CLI (`dpsynth synth`, one process per run, seed
// "census/<mechanism>/<trial>") at ε = 1, δ = 1e−9 with its defaults; reported: wall seconds, processor
// seconds of the CLI process (user + system, from the shell's `times`), and the mean TVD over all 1-,
// 2- and 3-way marginals (missing values as a level), with the load average before and after.
// The 3-way TVD is also split at AIM's default largest workload marginal (10,000 cells).
// Goals: mst 2-way TVD ≤ 0.060 in ≤ 24 s; aim 3-way TVD ≤ 0.100 in ≤ 180 s. Prints ONE JSON object.
// CENSUS_MATCHED=1 (a bench-only series, not reachable from the product): the same mechanisms run in
// this process with twice the ρ of (ε, δ), so every histogram's σ is private-pgm's under add/remove
// neighbours at ρ; the exponential mechanisms keep sensitivity 2, so their selection is √2 less sharp
// than private-pgm's (ε/Δ = ε_add/remove/√2). Seeds "census-matched/<mechanism>/<trial>"; processor
// seconds of this process.
// CENSUS_NEIGHBOURING=add-remove runs the CLI with --neighbouring add-remove (n private: the synthetic
// row count is the mechanism's noisy estimate, and the TVD compares proportions).
// Every column is declared complete (`"canBeMissing": false`: the domain file lists every value and the
// table has no missing cell), so no column gets a missing level; CENSUS_MISSING_LEVEL=1 writes the
// schema of the earlier measurements (a missing level per column, one no row has).
// Env: CENSUS_CSV, CENSUS_DOMAIN, CENSUS_MECHANISMS (mst,aim), CENSUS_TRIALS (1), CENSUS_EPSILON (1),
// CENSUS_NEIGHBOURING (replace-one), CENSUS_PARAMS_<MECHANISM> (extra --param values, "key=value,key=value").
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { runAim } from '../src/core/mechanisms/aim';
import { zcdpAccountantFor } from '../src/core/mechanisms/common/graphical-models/pgm-budget';
import { runMst } from '../src/core/mechanisms/mst/run-mst';
import { getMechanism } from '../src/core/mechanisms/registry';
import { resolveParams } from '../src/core/mechanisms/params';
import { ZcdpAccountant } from '../src/core/privacy/zcdp-accountant';
import { parseRational, Rational } from '../src/core/rng/rational';
import { SeededRng } from '../src/core/rng/seeded-rng';
import { buildTable, parseCsv, parseSchemaJson } from '../src/core/table';
import type { Schema, Table } from '../src/core/table/types';
import { combinations } from '../src/core/mechanisms/aim/workload';
import { countCells } from '../src/core/models/pgm/factor-index';
import { schemaFromDomain } from './census-schema';
import { encode, workloadError } from './pgm-bench-data';

const CSV = process.env.CENSUS_CSV;
const DOMAIN = process.env.CENSUS_DOMAIN;
const MECHANISMS = (process.env.CENSUS_MECHANISMS ?? 'mst,aim').split(',');
const TRIALS = Number(process.env.CENSUS_TRIALS ?? 1);
const EPSILON = process.env.CENSUS_EPSILON ?? '1';
const DELTA = '1e-9';
const MATCHED = process.env.CENSUS_MATCHED === '1';
const NEIGHBOURING = process.env.CENSUS_NEIGHBOURING ?? 'replace-one';
const MISSING_LEVEL = process.env.CENSUS_MISSING_LEVEL === '1';
const GOALS: Record<string, { way: 1 | 2 | 3; tvd: number; seconds: number }> = {
  mst: { way: 2, tvd: 0.06, seconds: 24 },
  aim: { way: 3, tvd: 0.1, seconds: 180 },
};

if (!CSV || !DOMAIN) {
  console.log(
    JSON.stringify({
      bench: 'census-shape',
      unavailable:
        'set CENSUS_CSV and CENSUS_DOMAIN to data/adult.csv and data/adult-domain.json of github.com/ryan112358/private-pgm (UCI Adult)',
    }),
  );
  process.exit(0);
}

/** AIM's default largest workload marginal (cells, the missing level included). */
const AIM_MAX_CELLS = 10_000;

/**
 * Mean TVD of the 3-way marginals within AIM's default workload (at most 10,000 cells) and of the
 * others, which AIM's defaults drop from its workload.
 */
function threeWayTvdBySize(real: Table, synthetic: Table): { workload: number; dropped: number } {
  const a = encode(real, schema);
  const b = encode(synthetic, schema);
  const sums = { workload: [0, 0], dropped: [0, 0] };
  for (const q of combinations(a.sizes.length, 3)) {
    const x = countCells(a.levels, q, a.sizes);
    const y = countCells(b.levels, q, b.sizes);
    let l1 = 0;
    for (let c = 0; c < x.length; c++) l1 += Math.abs(x[c]! / real.nRows - y[c]! / synthetic.nRows);
    const group = x.length <= AIM_MAX_CELLS ? sums.workload : sums.dropped;
    group[0]! += l1 / 2;
    group[1]!++;
  }
  return { workload: sums.workload[0]! / sums.workload[1]!, dropped: sums.dropped[0]! / sums.dropped[1]! };
}

/** Seconds in the shell's `times` format ("1m2.345s"). */
function timesSeconds(text: string): number {
  const match = /(\d+)m([\d.]+)s/.exec(text);
  return match ? Number(match[1]) * 60 + Number(match[2]) : NaN;
}

const dir = mkdtempSync(join(tmpdir(), 'dpsynth-census-'));
const schemaPath = join(dir, 'census.schema.json');
writeFileSync(
  schemaPath,
  schemaFromDomain(JSON.parse(readFileSync(DOMAIN, 'utf8')) as Record<string, number>, {
    missingLevel: MISSING_LEVEL,
  }),
);
const schema: Schema = parseSchemaJson(readFileSync(schemaPath, 'utf8'), schemaPath);
const real: Table = buildTable(parseCsv(readFileSync(CSV, 'utf8'), { fileName: CSV }), schema).table;

/** The TVD figures of a synthetic table against the real one. */
function quality(synthetic: Table): Record<string, number> {
  const tvd = ([1, 2, 3] as const).map((k) => workloadError(real, synthetic, schema, k).tvd);
  const bySize = threeWayTvdBySize(real, synthetic);
  return {
    tvd1: tvd[0]!,
    tvd2: tvd[1]!,
    tvd3: tvd[2]!,
    tvd3Workload: bySize.workload,
    tvd3Dropped: bySize.dropped,
  };
}

/** One run of the matched series (see the header): in this process, with an accountant holding 2ρ. */
async function matchedTrial(id: string, trial: number): Promise<Record<string, number>> {
  const mechanism = getMechanism(id)!;
  const params = resolveParams(mechanism, {});
  const ctx = {
    n: real.nRows,
    schema,
    epsilon: EPSILON,
    delta: DELTA,
    releases: 1,
    seeded: true,
    rng: new SeededRng(`census-matched/${id}/${trial}`),
    progress: () => {},
    signal: { aborted: false },
  };
  const rho = zcdpAccountantFor(ctx, id).rhoBudget;
  const accountant = new ZcdpAccountant(rho.mul(Rational.of(2)), parseRational(DELTA));
  const run = id === 'aim' ? runAim : id === 'mst' ? runMst : undefined;
  if (!run) throw new Error(`no matched series for ${id}`);
  const loadBefore = loadavg()[0]!;
  const start = performance.now();
  const cpuStart = process.cpuUsage();
  const release = await run(real, schema, params, ctx, accountant);
  const cpu = process.cpuUsage(cpuStart);
  return {
    wallSeconds: (performance.now() - start) / 1000,
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
    ...quality(release.datasets[0]!),
    loadBefore,
    loadAfter: loadavg()[0]!,
  };
}

const results: Record<string, unknown> = {};
for (const id of MECHANISMS) {
  const extra = (process.env[`CENSUS_PARAMS_${id.toUpperCase().replace(/-/g, '_')}`] ?? '')
    .split(',')
    .filter((p) => p.length > 0)
    .flatMap((p) => ['--param', p]);
  const trials: Record<string, number>[] = [];
  for (let trial = 0; trial < TRIALS; trial++) {
    if (MATCHED) {
      trials.push(await matchedTrial(id, trial));
      process.stderr.write(`${JSON.stringify({ mechanism: id, matched: true, trial, ...trials[trial] })}\n`);
      continue;
    }
    const out = join(dir, `${id}-${trial}.csv`);
    const args = [
      'src/cli/main.ts',
      'synth',
      CSV,
      '--schema',
      schemaPath,
      '--mechanism',
      id,
      '--epsilon',
      EPSILON,
      '--delta',
      DELTA,
      '--seed',
      `census/${id}/${trial}`,
      '--out',
      out,
      '--neighbouring',
      NEIGHBOURING,
      ...extra,
    ];
    const quoted = ['node', '--import', 'tsx', ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
    const loadBefore = loadavg()[0]!;
    const start = performance.now();
    // `times` prints the shell's own and its children's user and system time: the second line is the CLI's.
    const run = spawnSync('sh', ['-c', `${quoted} >&2 && times`], { encoding: 'utf8' });
    const wall = (performance.now() - start) / 1000;
    if (run.status !== 0) throw new Error(`${id} failed: ${run.stderr}`);
    const [user, system] = (run.stdout.trim().split('\n')[1] ?? '').split(/\s+/).map(timesSeconds);
    const synthetic = buildTable(
      parseCsv(readFileSync(out.replace(/\.csv$/, '.not-for-release.csv'), 'utf8'), { fileName: out }),
      schema,
    ).table;
    trials.push({
      wallSeconds: wall,
      cpuSeconds: user! + system!,
      syntheticRows: synthetic.nRows,
      ...quality(synthetic),
      loadBefore,
      loadAfter: loadavg()[0]!,
    });
    process.stderr.write(`${JSON.stringify({ mechanism: id, trial, ...trials[trial] })}\n`);
  }
  const mean = (key: string): number => trials.reduce((a, t) => a + t[key]!, 0) / trials.length;
  const round = (x: number, digits: number): number => Number(x.toFixed(digits));
  const goal = GOALS[id];
  const summary = {
    wallSeconds: round(mean('wallSeconds'), 1),
    cpuSeconds: round(mean('cpuSeconds'), 1),
    meanTvd: { 1: round(mean('tvd1'), 4), 2: round(mean('tvd2'), 4), 3: round(mean('tvd3'), 4) },
    meanTvd3ByCells: {
      atMost10000: round(mean('tvd3Workload'), 4),
      over10000: round(mean('tvd3Dropped'), 4),
    },
    loadAverage: [
      round(Math.min(...trials.map((t) => t.loadBefore!)), 1),
      round(Math.max(...trials.map((t) => t.loadAfter!)), 1),
    ],
    ...(goal
      ? {
          goal: {
            ...goal,
            tvdMet: mean(`tvd${goal.way}`) <= goal.tvd,
            wallMet: mean('wallSeconds') <= goal.seconds,
            cpuMet: mean('cpuSeconds') <= goal.seconds,
          },
        }
      : {}),
  };
  results[id] = summary;
}
console.log(
  JSON.stringify({
    bench: 'census-shape',
    data: { rows: real.nRows, columns: real.columns.length },
    epsilon: Number(EPSILON),
    delta: Number(DELTA),
    trials: TRIALS,
    ...(MATCHED ? { series: 'matched: σ of add/remove at ρ (bench only)' } : { neighbouring: NEIGHBOURING }),
    ...results,
  }),
);
