// `dpsynth metrics` with its defaults against Rscript + rpart computing the same CART pMSE with 50
// permutation refits (synthpop's utility.gen default work). Prints ONE JSON object.
//
// Data: real and synthetic tables of METRICS_VS_RPART_ROWS rows (default 20,000) × 10 numeric columns,
// generated from a seed (x1 depends on x0; the synthetic x0 is shifted by 0.1), written as CSV to a
// temporary folder. Each of REPEATS rounds times, one after the other, the R oracle
// (tests/reference/pmse/pmse_fixture.R --perms 50) and `npx tsx src/cli/main.ts metrics real.csv
// synth.csv` (every default metric: pMSE with 50 refits, TVD k = 1–3, per column, associations, the
// distinguishing game, disclosure checks). Wall-clock seconds; medians and the ratio of the medians.
// Alternating the two keeps the machine's load alike for both on a shared machine.
// Env: METRICS_VS_RPART_ROWS, METRICS_VS_RPART_REPEATS (default 3).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { SeededRng } from '../src/core/rng/seeded-rng';
import type { Rng } from '../src/core/rng/types';

const ROWS = Number(process.env.METRICS_VS_RPART_ROWS ?? 20_000);
const REPEATS = Number(process.env.METRICS_VS_RPART_REPEATS ?? 3);
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

function timedRun(command: string, args: string[], cwd: string): number {
  const started = performance.now();
  const result = spawnSync(command, args, { cwd, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${command} failed: ${result.stderr}`);
  return (performance.now() - started) / 1000;
}

const dir = mkdtempSync(join(tmpdir(), 'metrics-vs-rpart-'));
try {
  const rng = new SeededRng('metrics vs rpart');
  writeFileSync(join(dir, 'real.csv'), tableCsv(rng, 0));
  writeFileSync(join(dir, 'synth.csv'), tableCsv(rng, 0.1));
  const rSeconds: number[] = [];
  const oursSeconds: number[] = [];
  const loads: number[] = [];
  for (let round = 0; round < REPEATS; round++) {
    loads.push(loadavg()[0]!);
    rSeconds.push(
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
    oursSeconds.push(
      timedRun(
        'npx',
        ['tsx', 'src/cli/main.ts', 'metrics', join(dir, 'real.csv'), join(dir, 'synth.csv'), '--json'],
        ROOT,
      ),
    );
  }
  const r = median(rSeconds);
  const ours = median(oursSeconds);
  console.log(
    JSON.stringify({
      bench: 'metrics-vs-rpart',
      rows: ROWS,
      columns: 10,
      permutations: 50,
      cores: availableParallelism(),
      rpartSeconds: rSeconds.map((s) => Number(s.toFixed(2))),
      dpsynthSeconds: oursSeconds.map((s) => Number(s.toFixed(2))),
      medianRatio: Number((ours / r).toFixed(3)),
      goal: { ratio: 0.25, met: ours / r <= 0.25 },
      loadAverage: loads.map((l) => Number(l.toFixed(2))),
    }),
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
