import DataWorker from '../data-worker-entry.ts?worker&inline';
import PoolWorker from '../pool-worker-entry.ts?worker&inline';

/**
 * The worker scripts of the one-file build: their code is inside the page and each worker starts
 * from a blob: URL as a classic script (that build sets worker.format to iife), which needs no
 * server: the file opens from disk. A worker from a blob: URL inherits the page's policy, so it
 * keeps connect-src 'none'.
 */
export function startDataWorker(): Worker {
  return new DataWorker({ name: 'dpsynth-data' });
}

export function startPoolWorker(): Worker {
  return new PoolWorker({ name: 'dpsynth-pool' });
}
