import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { cartPmseInput, cartPmseNullSum } from '../core/metrics/pmse';
import type { CartInput, CartOptions } from '../core/models/cart/cart-types';
import { SeededRng } from '../core/rng/seeded-rng';
import type { Rng } from '../core/rng/types';
import type { Table } from '../core/table/types';

/** One release's part of the null for the worker thread: `permutations` refits shuffled from `seed`. */
export interface PmseNullTask {
  input: CartInput;
  cart: CartOptions;
  share: number;
  permutations: number;
  seed: string;
}

/**
 * What the worker thread gets: every release's task, and where to put the sums. `done[j]` becomes 1
 * when `sums[j]` is written and −1 when the worker could not compute it (Atomics, so that this
 * thread can wait for it synchronously inside the evaluation).
 */
export interface PmseNullJob {
  tasks: PmseNullTask[];
  sums: SharedArrayBuffer;
  done: SharedArrayBuffer;
}

/**
 * The worker thread's share of the refits: half, rounded up. It starts first; this thread computes
 * the metrics before the pMSE step, then its half. Measured on 2 × 20,000 × 10 rows (2 cores, idle):
 * 2.8 s with half, 3.0 s with 65 %, 3.2 s with 70 %, 3.7 s with 90 % (the metrics after the pMSE step
 * run on this thread only).
 */
export function workerRefits(permutations: number): number {
  return Math.ceil(permutations / 2);
}

/** The seeds of release j's two parts, drawn from the run's generator in release order, before anything else. */
function nullSeeds(rng: Rng): { worker: string; here: string } {
  return {
    worker: `pmse-null-${rng.nextUint32()}-${rng.nextUint32()}`,
    here: `pmse-null-${rng.nextUint32()}-${rng.nextUint32()}`,
  };
}

/**
 * The CART pMSE permutation null of every release, split between a worker thread and this one
 * (the refits are most of `dpsynth metrics`' time). The worker thread starts on its share
 * (workerRefits) of every release at once; this thread computes the rest of release j when the
 * evaluation's pMSE step asks for it (`nullMeanOf(j)`), after the metrics before that step, and then
 * waits for the worker's sum. Each part is shuffled by its own SeededRng, seeded from `rng` in
 * release order before the evaluation, so a seeded run gives the same numbers whichever thread
 * computes a part: if the worker thread cannot start, or reports a failure, this thread computes its
 * part too. The shuffles are not privacy noise: the metrics are for the data holder. Returns
 * undefined (compute in line) with fewer than 2 refits or a single core.
 */
export async function startPmseNull(
  real: Table,
  synths: readonly Table[],
  cart: CartOptions,
  permutations: number,
  rng: Rng,
): Promise<{ nullMeanOf(release: number): number; stop(): Promise<void> } | undefined> {
  if (permutations < 2 || availableParallelism() < 2) return undefined;
  const theirs = workerRefits(permutations);
  const parts = synths.map((synth) => ({ ...cartPmseInput(real, synth), seeds: nullSeeds(rng) }));
  const job: PmseNullJob = {
    tasks: parts.map(({ input, share, seeds }) => ({
      input,
      cart,
      share,
      permutations: theirs,
      seed: seeds.worker,
    })),
    sums: new SharedArrayBuffer(8 * synths.length),
    done: new SharedArrayBuffer(4 * synths.length),
  };
  const sums = new Float64Array(job.sums);
  const done = new Int32Array(job.done);
  const worker = await startNullWorker(job);
  const inLine = (j: number) => {
    const { input, share, seeds } = parts[j]!;
    return cartPmseNullSum(input, cart, share, theirs, new SeededRng(seeds.worker));
  };
  return {
    nullMeanOf(j) {
      const { input, share, seeds } = parts[j]!;
      const mine = cartPmseNullSum(input, cart, share, permutations - theirs, new SeededRng(seeds.here));
      if (worker === undefined) return (mine + inLine(j)) / permutations;
      while (Atomics.load(done, j) === 0) Atomics.wait(done, j, 0, 1000);
      const sum = Atomics.load(done, j) === 1 ? sums[j]! : inLine(j);
      return (mine + sum) / permutations;
    },
    stop: async () => {
      await worker?.terminate();
    },
  };
}

/**
 * One worker thread running pmse-null-worker on `job`, once it has started (undefined if it cannot
 * start). Under tsx (the CLI's `npm run dpsynth`), the worker registers tsx itself: worker threads
 * do not inherit the parent's module hooks.
 */
async function startNullWorker(job: PmseNullJob): Promise<Worker | undefined> {
  const fromSource = import.meta.url.endsWith('.ts');
  const moduleUrl = new URL(fromSource ? './pmse-null-worker.ts' : './pmse-null-worker.js', import.meta.url)
    .href;
  const bootstrap = fromSource
    ? `import('tsx/esm/api').then((api) => { api.register(); return import(${JSON.stringify(moduleUrl)}); })`
    : `import(${JSON.stringify(moduleUrl)})`;
  const worker = new Worker(bootstrap, { eval: true });
  const started = await new Promise<boolean>((resolve) => {
    worker.once('message', (message: unknown) => resolve(message === 'ready'));
    worker.once('error', () => resolve(false));
    worker.once('exit', () => resolve(false));
  });
  if (!started) {
    await worker.terminate();
    return undefined;
  }
  // A failure after the start is reported through `done` by the worker itself (−1).
  worker.on('error', () => undefined);
  worker.postMessage(job);
  return worker;
}
