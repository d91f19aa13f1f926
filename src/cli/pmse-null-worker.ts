/**
 * A worker thread of `dpsynth metrics`: computes part of a CART pMSE permutation null
 * (cartPmseNullSum) on the stacked table it receives and posts the sum back.
 */
import { parentPort } from 'node:worker_threads';
import { cartPmseNullSum } from '../core/metrics/pmse';
import { SeededRng } from '../core/rng/seeded-rng';
import type { PmseNullTask } from './pmse-null-threads';

parentPort!.on('message', (task: PmseNullTask) => {
  parentPort!.postMessage(
    cartPmseNullSum(task.input, task.cart, task.share, task.permutations, new SeededRng(task.seed)),
  );
});
