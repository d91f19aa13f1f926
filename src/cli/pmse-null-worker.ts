/**
 * A worker thread of `dpsynth metrics`: computes its share of the CART pMSE permutation null of
 * every release (cartPmseNullSum) and writes each sum into shared memory as soon as it is done,
 * marking it with Atomics (1 done, −1 failed, when the other thread must compute it itself).
 */
import { parentPort } from 'node:worker_threads';
import { cartPmseNullSum } from '../core/metrics/pmse';
import { SeededRng } from '../core/rng/seeded-rng';
import type { PmseNullJob } from './pmse-null-threads';

parentPort!.once('message', (job: PmseNullJob) => {
  const sums = new Float64Array(job.sums);
  const done = new Int32Array(job.done);
  job.tasks.forEach((task, j) => {
    try {
      sums[j] = cartPmseNullSum(
        task.input,
        task.cart,
        task.share,
        task.permutations,
        new SeededRng(task.seed),
      );
      Atomics.store(done, j, 1);
    } catch {
      Atomics.store(done, j, -1);
    }
    Atomics.notify(done, j);
  });
});
parentPort!.postMessage('ready');
