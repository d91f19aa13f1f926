/**
 * The CLI built into plain JavaScript (`npm run build:cli`, scripts/build-cli.mjs): it must give
 * exactly what `npm run dpsynth` gives, and its worker thread for the pMSE null must load from the
 * built folder (the metrics command falls back to one thread silently, so that is checked directly).
 */
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PmseNullJob } from '../../../src/cli/pmse-null-threads';
import { cartPmseInput, cartPmseNullSum } from '../../../src/core/metrics/pmse';
import { SYNTHPOP_CART_DEFAULTS } from '../../../src/core/models/cart/cart-types';
import { SeededRng } from '../../../src/core/rng/seeded-rng';
import type { Table } from '../../../src/core/table/types';
import { mixedCsv, tempFiles } from '../cli-harness';
import { spawnCli, type ProcessResult } from './spawn-cli';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
// Inside the project, so that the built files find the packages in node_modules.
const OUT = 'node_modules/.cache/dpsynth-built-cli-test';
const MAIN = `${ROOT}${OUT}/main.js`;
const TIMEOUT = 120_000;

function run(file: string, argv: string[]): Promise<ProcessResult> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [file, ...argv], { cwd: ROOT }, (error, stdout, stderr) => {
      if (error && typeof error.code !== 'number') return reject(error);
      resolve({ code: error ? (error.code as number) : 0, stdout, stderr });
    });
  });
}

describe('the built CLI', { timeout: TIMEOUT }, () => {
  beforeAll(async () => {
    const built = await run(`${ROOT}scripts/build-cli.mjs`, [OUT]);
    expect(built.code, built.stderr).toBe(0);
  }, TIMEOUT);
  afterAll(() => rmSync(`${ROOT}${OUT}`, { recursive: true, force: true }));

  it('gives the same seeded metrics JSON as the TypeScript sources, exit codes included', async () => {
    const path = tempFiles({ 'real.csv': mixedCsv(400), 'synth.csv': mixedCsv(300) });
    const argv = ['metrics', path('real.csv'), path('synth.csv'), '--json', '--seed', '7'];
    const [built, source] = await Promise.all([run(MAIN, argv), spawnCli(argv)]);
    expect(built.code, built.stderr).toBe(0);
    expect(JSON.parse(built.stdout)).toEqual(JSON.parse(source.stdout));
    const missing = await run(MAIN, ['metrics', path('absent.csv'), path('synth.csv')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('absent.csv');
  });

  it('loads its pMSE-null worker thread from the built folder, which returns the in-line sums', async () => {
    const workerFile = `${ROOT}${OUT}/pmse-null-worker.js`;
    expect(existsSync(workerFile)).toBe(true);
    const rng = new SeededRng('tables');
    const numeric = (n: number, shift: number): Table => ({
      nRows: n,
      columns: ['a', 'b'].map((name, j) => ({
        kind: 'numeric' as const,
        name,
        values: Float64Array.from({ length: n }, () => rng.nextFloat() + (j === 0 ? shift : 0)),
        missing: new Uint8Array(n),
      })),
    });
    const real = numeric(200, 0);
    const synth = numeric(150, 0.2);
    const { input, share } = cartPmseInput(real, synth);
    const job: PmseNullJob = {
      tasks: [{ input, cart: SYNTHPOP_CART_DEFAULTS, share, seeds: ['w', 'h'], sizes: [3, 2] }],
      permutations: 5,
      next: new SharedArrayBuffer(4),
      values: new SharedArrayBuffer(8 * 5),
      state: new SharedArrayBuffer(4 * 5),
    };
    const worker = new Worker(workerFile);
    try {
      await new Promise<void>((resolve, reject) => {
        worker.once('message', (message) =>
          message === 'ready' ? resolve() : reject(new Error(String(message))),
        );
        worker.once('error', reject);
      });
      worker.postMessage(job);
      // Nothing is claimed here, so the worker fits all five refits.
      const state = new Int32Array(job.state);
      while (state.some((s) => s === 0)) await new Promise((resolve) => setTimeout(resolve, 10));
      expect([...state]).toEqual([1, 1, 1, 1, 1]);
      const values = [...new Float64Array(job.values)];
      const sum = (from: number, to: number) => values.slice(from, to).reduce((s, v) => s + v, 0);
      expect(sum(0, 3)).toBe(cartPmseNullSum(input, SYNTHPOP_CART_DEFAULTS, share, 3, new SeededRng('w')));
      expect(sum(3, 5)).toBe(cartPmseNullSum(input, SYNTHPOP_CART_DEFAULTS, share, 2, new SeededRng('h')));
      expect(Math.min(...values)).toBeGreaterThan(0);
    } finally {
      await worker.terminate();
    }
  });

  it('starts that worker thread from the built code that looks for it (main.js or a shared chunk)', async () => {
    // The code that spawns the worker is wherever the bundler put it; it must find the entry above.
    const holders = [`${ROOT}${OUT}/main.js`, ...chunkFiles()].filter((file) =>
      readFileSync(file, 'utf8').includes('function spawnNullWorker('),
    );
    expect(holders).toHaveLength(1);
    const built = (await import(pathToFileURL(holders[0]!).href)) as {
      spawnNullWorker?: () => Promise<Worker | undefined>;
    };
    expect(typeof built.spawnNullWorker).toBe('function');
    const worker = await built.spawnNullWorker!();
    expect(worker).toBeInstanceOf(Worker);
    await worker!.terminate();
  });
});

function chunkFiles(): string[] {
  const folder = `${ROOT}${OUT}/chunks`;
  return existsSync(folder) ? readdirSync(folder).map((name) => `${folder}/${name}`) : [];
}
