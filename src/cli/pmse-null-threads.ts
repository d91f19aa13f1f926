import { availableParallelism, loadavg } from 'node:os';
import { Worker } from 'node:worker_threads';
import { cartPmseInput, cartPmseNullRefits, type CartNullPart } from '../core/metrics/pmse';
import type { CartInput, CartOptions } from '../core/models/cart/cart-types';
import { SeededRng } from '../core/rng/seeded-rng';
import type { Rng } from '../core/rng/types';
import type { Table } from '../core/table/types';

/** One release's null for the worker thread: its stacked input and the seeds and sizes of its two parts. */
export interface PmseNullTask {
  input: CartInput;
  cart: CartOptions;
  share: number;
  /** Part 0 (refits 0 … sizes[0] − 1) is shuffled from seeds[0], part 1 from seeds[1]. */
  seeds: [string, string];
  sizes: [number, number];
}

/**
 * What the worker thread gets: every release's task and the shared memory both threads take refits
 * from. Release j's refit t (0 ≤ t < permutations) is claimed by Atomics.add on `next[j]`; its pMSE
 * goes to `values[j·permutations + t]` and `state` at the same index becomes 1 when it is written,
 * −1 when the worker could not compute it (this thread then does).
 */
export interface PmseNullJob {
  tasks: PmseNullTask[];
  permutations: number;
  next: SharedArrayBuffer;
  values: SharedArrayBuffer;
  state: SharedArrayBuffer;
}

/**
 * The size of part 0 of each release's null: half of the refits, rounded up. The parts fix the
 * seeded shuffles (and so the numbers); which thread fits a refit is decided as they go.
 */
export function workerRefits(permutations: number): number {
  return Math.ceil(permutations / 2);
}

/** The seeds of release j's two parts, drawn from the run's generator in release order, before anything else. */
function nullSeeds(rng: Rng): [string, string] {
  return [
    `pmse-null-${rng.nextUint32()}-${rng.nextUint32()}`,
    `pmse-null-${rng.nextUint32()}-${rng.nextUint32()}`,
  ];
}

/** The seeded parts of a task, each with its own generator. */
export function nullParts(task: PmseNullTask): CartNullPart[] {
  return task.seeds.map((seed, k) => ({ permutations: task.sizes[k]!, rng: new SeededRng(seed) }));
}

/**
 * The CART pMSE permutation null of every release, shared between a worker thread and this one
 * (the refits are most of `dpsynth metrics`' time). The worker thread starts at once on release 0
 * and takes refits one at a time (cartPmseNullRefits) while this thread computes every other metric
 * (evaluateUtility runs the pMSE step last when its null comes from here: the distinguishing game
 * and the closest-record queries run beside the refits); when the evaluation asks for release j
 * (`nullMeanOf(j)`), this thread takes the refits still unclaimed, waits for the worker's last one,
 * and sums each part in refit order. Each
 * part is shuffled by its own SeededRng, seeded from `rng` in release order before the evaluation,
 * and refit t's labels are the same whichever thread fits it, so a seeded run gives the same
 * numbers however the refits were shared (and if the worker thread cannot start or reports a
 * failure, this thread computes those refits too). The shuffles are not privacy noise: the metrics
 * are for the data holder. Returns undefined (compute in line) with fewer than 2 refits or a single core.
 * `booted`: a worker thread from spawnNullWorker, started earlier (it is terminated when not used),
 * or null for no worker thread: this thread then fits every refit of the same seeded parts, so the
 * numbers are those of two threads.
 */
export async function startPmseNull(
  real: Table,
  synths: readonly Table[],
  cart: CartOptions,
  permutations: number,
  rng: Rng,
  booted?: Promise<Worker | undefined> | null,
): Promise<{ nullMeanOf(release: number): number; stop(): Promise<void> } | undefined> {
  if (permutations < 2 || availableParallelism() < 2) {
    await (await booted)?.terminate();
    return undefined;
  }
  const first = workerRefits(permutations);
  const tasks: PmseNullTask[] = synths.map((synth) => {
    const { input, share } = cartPmseInput(real, synth);
    return { input, cart, share, seeds: nullSeeds(rng), sizes: [first, permutations - first] };
  });
  const cells = synths.length * permutations;
  const job: PmseNullJob = {
    tasks,
    permutations,
    next: new SharedArrayBuffer(4 * synths.length),
    values: new SharedArrayBuffer(8 * cells),
    state: new SharedArrayBuffer(4 * cells),
  };
  const next = new Int32Array(job.next);
  const values = new Float64Array(job.values);
  const state = new Int32Array(job.state);
  const worker = booted === null ? undefined : await (booted ?? spawnNullWorker());
  worker?.postMessage(job);
  return {
    nullMeanOf(j) {
      const task = tasks[j]!;
      const base = j * permutations;
      const record = (t: number, pmse: number) => {
        values[base + t] = pmse;
        Atomics.store(state, base + t, 1);
      };
      cartPmseNullRefits(
        task.input,
        cart,
        task.share,
        nullParts(task),
        () => Atomics.add(next, j, 1),
        record,
      );
      const failed: number[] = [];
      for (let t = 0; t < permutations; t++) {
        while (Atomics.load(state, base + t) === 0) Atomics.wait(state, base + t, 0, 1000);
        if (Atomics.load(state, base + t) === -1) failed.push(t);
      }
      if (failed.length > 0) {
        let k = 0;
        cartPmseNullRefits(
          task.input,
          cart,
          task.share,
          nullParts(task),
          () => failed[k++] ?? permutations,
          record,
        );
      }
      let sum0 = 0;
      let sum1 = 0;
      for (let t = 0; t < first; t++) sum0 += values[base + t]!;
      for (let t = first; t < permutations; t++) sum1 += values[base + t]!;
      return (sum1 + sum0) / permutations;
    },
    stop: async () => {
      await worker?.terminate();
    },
  };
}

/**
 * Whether a second thread can speed the null up: when the 1-minute load average is below the number
 * of cores, a core is free at least part of the time. On a busy machine whose scheduler shares the
 * processor between sessions (Linux autogroup), a process's two threads get no more time than one,
 * and the second thread's start, its own copy of the sorted input and the shuffles it skips over
 * add about a tenth to the processor time; there the refits all run on this thread. Either way the
 * numbers are the same (startPmseNull with no worker thread fits the same seeded parts).
 */
export function secondThreadHelps(
  loadAverage: number = loadavg()[0]!,
  cores = availableParallelism(),
): boolean {
  return cores >= 2 && loadAverage < cores;
}

/**
 * Where the worker thread's module is, seen from the module holding this code (`moduleUrl`): beside
 * it in the sources (pmse-null-worker.ts); in the built command (scripts/build-cli.mjs) the worker
 * is an entry beside main.js, while this code sits in main.js or in a chunk shared by the entries,
 * one folder down (dist-cli/chunks/), so the chunk looks one folder up.
 */
export function nullWorkerUrl(moduleUrl: string): URL {
  if (moduleUrl.endsWith('.ts')) return new URL('./pmse-null-worker.ts', moduleUrl);
  const inChunk = new URL('.', moduleUrl).pathname.endsWith('/chunks/');
  return new URL(inChunk ? '../pmse-null-worker.js' : './pmse-null-worker.js', moduleUrl);
}

/**
 * One worker thread running pmse-null-worker, once it has started and waits for its job (undefined
 * if it cannot start, or on a single core). `dpsynth metrics` starts it before reading its files, so
 * that the thread's start overlaps the reading; the caller terminates it. Under tsx (the CLI's
 * `npm run dpsynth` before it was built), the worker registers tsx itself: worker threads do not
 * inherit the parent's module hooks.
 */
export async function spawnNullWorker(): Promise<Worker | undefined> {
  if (availableParallelism() < 2) return undefined;
  const fromSource = import.meta.url.endsWith('.ts');
  const moduleUrl = nullWorkerUrl(import.meta.url).href;
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
  return worker;
}
