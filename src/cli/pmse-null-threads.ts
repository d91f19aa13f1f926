import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { cartPmseInput, cartPmseNullSum } from '../core/metrics/pmse';
import type { CartInput, CartOptions } from '../core/models/cart/cart-types';
import { SeededRng } from '../core/rng/seeded-rng';
import type { Rng } from '../core/rng/types';
import type { Table } from '../core/table/types';

/** What the worker thread computes: `permutations` refits of the stacked table, shuffled from `seed`. */
export interface PmseNullTask {
  input: CartInput;
  cart: CartOptions;
  share: number;
  permutations: number;
  seed: string;
}

/**
 * The CART pMSE permutation null of every release, its refits split between this thread and a
 * worker thread (the refits are most of `dpsynth metrics`' time; each half is a run of
 * cartPmseNullSum, and the sums add up to the null's). The worker's half is shuffled by a SeededRng
 * whose seed is drawn from `rng`, so a seeded run gives the same numbers whether or not the worker
 * could start: if it cannot, this thread computes that half with the same seed. The shuffles are not
 * privacy noise: the metrics are for the data holder. Returns undefined (compute in line) with fewer
 * than 2 refits or a single core.
 */
export async function pmseNullMeansOnTwoThreads(
  real: Table,
  synths: readonly Table[],
  cart: CartOptions,
  permutations: number,
  rng: Rng,
): Promise<number[] | undefined> {
  if (permutations < 2 || availableParallelism() < 2) return undefined;
  const worker = startNullWorker();
  try {
    const means: number[] = [];
    for (const synth of synths) {
      const { input, share } = cartPmseInput(real, synth);
      const task: PmseNullTask = {
        input,
        cart,
        share,
        permutations: Math.floor(permutations / 2),
        seed: `pmse-null-${rng.nextUint32()}-${rng.nextUint32()}`,
      };
      const theirs = worker
        .run(task)
        .catch(() =>
          cartPmseNullSum(task.input, task.cart, task.share, task.permutations, new SeededRng(task.seed)),
        );
      const mine = cartPmseNullSum(input, cart, share, permutations - task.permutations, rng);
      means.push((mine + (await theirs)) / permutations);
    }
    return means;
  } finally {
    await worker.stop();
  }
}

/**
 * One worker thread running pmse-null-worker. Under tsx (the CLI's `npm run dpsynth`), the worker
 * registers tsx itself: worker threads do not inherit the parent's module hooks.
 */
function startNullWorker(): { run(task: PmseNullTask): Promise<number>; stop(): Promise<void> } {
  const fromSource = import.meta.url.endsWith('.ts');
  const moduleUrl = new URL(fromSource ? './pmse-null-worker.ts' : './pmse-null-worker.js', import.meta.url)
    .href;
  const bootstrap = fromSource
    ? `import('tsx/esm/api').then((api) => { api.register(); return import(${JSON.stringify(moduleUrl)}); })`
    : `import(${JSON.stringify(moduleUrl)})`;
  let failure: Error | undefined;
  const worker = new Worker(bootstrap, { eval: true });
  worker.on('error', (error) => (failure = error));
  return {
    run: (task) =>
      new Promise<number>((resolve, reject) => {
        if (failure) return reject(failure);
        const onError = (error: Error) => reject(error);
        worker.once('error', onError);
        worker.once('message', (sum: number) => {
          worker.off('error', onError);
          resolve(sum);
        });
        worker.postMessage(task);
      }),
    stop: async () => {
      await worker.terminate();
    },
  };
}
