// `dpsynth metrics` with its defaults against Rscript + rpart computing the same CART pMSE with 50
// permutation refits (synthpop's utility.gen default work). Prints ONE JSON object.
//
// Data: real and synthetic tables of METRICS_VS_RPART_ROWS rows (default 20,000) × 10 numeric columns,
// generated from a seed (x1 depends on x0; the synthetic x0 is shifted by 0.1), written as CSV to a
// temporary folder. Each of REPEATS rounds times, one after the other: the R oracle
// (tests/reference/pmse/pmse_fixture.R --perms 50); the documented command (`npm run -s dpsynth --
// metrics real.csv synth.csv --json`, which runs the built CLI through scripts/dpsynth.mjs), the one
// measured against the goal; and the built CLI started directly (`node dist-cli/main.js …`). Every
// default metric runs: pMSE with 50 refits, TVD k = 1–3, per column, associations, the distinguishing
// game, disclosure checks. Wall-clock and processor seconds; medians and the ratio of the medians.
// Alternating the runs keeps the machine's load alike for all of them on a shared machine.
// With METRICS_VS_RPART_BASELINE=<path to an earlier build's dist-cli/main.js> that build is timed in
// the same rounds too (before/after on the same load). The load average is read before and after each round.
// Env: METRICS_VS_RPART_ROWS, METRICS_VS_RPART_REPEATS (default 3), METRICS_VS_RPART_BASELINE.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { SeededRng } from '../src/core/rng/seeded-rng';
import type { Rng } from '../src/core/rng/types';

const ROWS = Number(process.env.METRICS_VS_RPART_ROWS ?? 20_000);
const REPEATS = Number(process.env.METRICS_VS_RPART_REPEATS ?? 3);
const BASELINE = process.env.METRICS_VS_RPART_BASELINE;
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const ORACLE = join(ROOT, 'tests/reference/pmse/pmse_fixture.R');

function normal(rng: Rng): number {
  return Math.sqrt(-2 * Math.log(1 - rng.nextFloat())) * Math.cos(2 * Math.PI * rng.nextFloat());
}

function tableCsv(rng: Rng, shift: number): string {
  const lines = [Array.from({ length: 10 }, (_, j) => `x${j}`).join(',')];
  for (let i = 0; i < ROWS; i++) {
    const row = Array.from({ length: 10 }, () => normal(rng));
    row[1] = row[1]! + 0.5 * row[0]!;
    row[0] = row[0]! + shift;
    lines.push(row.map((value) => value.toFixed(6)).join(','));
  }
  return lines.join('\n') + '\n';
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

interface Timed {
  seconds: number;
  /** User + system processor seconds of the process and its threads (GNU time), when available. */
  cpuSeconds: number | null;
}

const GNU_TIME = '/usr/bin/time';

function timedRun(command: string, args: string[], cwd: string): Timed {
  const withTime = existsSync(GNU_TIME);
  const started = performance.now();
  const result = withTime
    ? spawnSync(GNU_TIME, ['-f', 'cpu %U %S', command, ...args], { cwd, encoding: 'utf8' })
    : spawnSync(command, args, { cwd, encoding: 'utf8' });
  const seconds = (performance.now() - started) / 1000;
  if (result.status !== 0) throw new Error(`${command} failed: ${result.stderr}`);
  const cpu = /cpu ([\d.]+) ([\d.]+)\s*$/.exec(result.stderr ?? '');
  return { seconds, cpuSeconds: cpu ? Number(cpu[1]) + Number(cpu[2]) : null };
}

const round2 = (value: number | null) => (value === null ? null : Number(value.toFixed(2)));

const dir = mkdtempSync(join(tmpdir(), 'metrics-vs-rpart-'));
try {
  const rng = new SeededRng('metrics vs rpart');
  writeFileSync(join(dir, 'real.csv'), tableCsv(rng, 0));
  writeFileSync(join(dir, 'synth.csv'), tableCsv(rng, 0.1));
  // Built (or found fresh) by the launcher before any timing, as a first `npm run dpsynth` would.
  const built = spawnSync(process.execPath, ['scripts/dpsynth.mjs', 'mechanisms'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  if (built.status !== 0) throw new Error(`building the CLI failed: ${built.stderr}`);
  const metricsArgs = ['metrics', join(dir, 'real.csv'), join(dir, 'synth.csv'), '--json'];
  const rRuns: Timed[] = [];
  const builtRuns: Timed[] = [];
  const npmRuns: Timed[] = [];
  const baselineRuns: Timed[] = [];
  const loads: number[] = [];
  for (let round = 0; round < REPEATS; round++) {
    loads.push(loadavg()[0]!);
    rRuns.push(
      timedRun(
        'Rscript',
        [
          ORACLE,
          join(dir, 'real.csv'),
          join(dir, 'synth.csv'),
          '--perms',
          '50',
          '--out',
          join(dir, 'r.json'),
        ],
        ROOT,
      ),
    );
    npmRuns.push(timedRun('npm', ['run', '-s', 'dpsynth', '--', ...metricsArgs], ROOT));
    builtRuns.push(timedRun(process.execPath, ['dist-cli/main.js', ...metricsArgs], ROOT));
    if (BASELINE) baselineRuns.push(timedRun(process.execPath, [BASELINE, ...metricsArgs], ROOT));
  }
  loads.push(loadavg()[0]!);
  const r = median(rRuns.map((run) => run.seconds));
  const ours = median(npmRuns.map((run) => run.seconds));
  const cpuMedian = (runs: Timed[]) =>
    runs.every((run) => run.cpuSeconds !== null) ? median(runs.map((run) => run.cpuSeconds!)) : null;
  const rCpu = cpuMedian(rRuns);
  const oursCpu = cpuMedian(npmRuns);
  console.log(
    JSON.stringify({
      bench: 'metrics-vs-rpart',
      rows: ROWS,
      columns: 10,
      permutations: 50,
      cores: availableParallelism(),
      rpartSeconds: rRuns.map((run) => round2(run.seconds)),
      rpartCpuSeconds: rRuns.map((run) => round2(run.cpuSeconds)),
      npmRunSeconds: npmRuns.map((run) => round2(run.seconds)),
      npmRunCpuSeconds: npmRuns.map((run) => round2(run.cpuSeconds)),
      builtSeconds: builtRuns.map((run) => round2(run.seconds)),
      builtCpuSeconds: builtRuns.map((run) => round2(run.cpuSeconds)),
      ...(BASELINE
        ? {
            baselineSeconds: baselineRuns.map((run) => round2(run.seconds)),
            baselineCpuSeconds: baselineRuns.map((run) => round2(run.cpuSeconds)),
          }
        : {}),
      medianRatio: Number((ours / r).toFixed(3)),
      cpuMedianRatio: rCpu && oursCpu !== null ? Number((oursCpu / rCpu).toFixed(3)) : null,
      builtMedianRatio: Number((median(builtRuns.map((run) => run.seconds)) / r).toFixed(3)),
      goal: { ratio: 0.25, met: ours / r <= 0.25 },
      loadAverage: loads.map((l) => Number(l.toFixed(2))),
    }),
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
