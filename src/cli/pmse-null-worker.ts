/**
 * A worker thread of `dpsynth metrics`: takes refits of the CART pMSE permutation null of every
 * release, in release order, one at a time from the shared counter (cartPmseNullRefits), and writes
 * each pMSE into shared memory as soon as it is done, marking it with Atomics (1 done, −1 failed,
 * when the other thread must compute it itself).
 */
import { parentPort } from 'node:worker_threads';
import { cartPmseNullRefits } from '../core/metrics/pmse';
import { nullParts, type PmseNullJob } from './pmse-null-threads';

parentPort!.once('message', (job: PmseNullJob) => {
  const next = new Int32Array(job.next);
  const values = new Float64Array(job.values);
  const state = new Int32Array(job.state);
  const P = job.permutations;
  job.tasks.forEach((task, j) => {
    let claimed = -1;
    const claim = () => (claimed = Atomics.add(next, j, 1));
    try {
      cartPmseNullRefits(task.input, task.cart, task.share, nullParts(task), claim, (t, pmse) => {
        values[j * P + t] = pmse;
        Atomics.store(state, j * P + t, 1);
        Atomics.notify(state, j * P + t);
      });
    } catch {
      if (claimed >= 0 && claimed < P) {
        Atomics.store(state, j * P + claimed, -1);
        Atomics.notify(state, j * P + claimed);
      }
    }
  });
});
parentPort!.postMessage('ready');
