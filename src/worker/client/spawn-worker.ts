import * as Comlink from 'comlink';
import type { DataWorkerApi } from '../data-worker';
import type { PoolWorkerApi } from '../pool-worker';
import type { SpawnedWorker } from './worker-pool';
import { startDataWorker, startPoolWorker } from './worker-scripts';

export type RemoteDataWorker = Comlink.Remote<DataWorkerApi>;
export type RemotePoolWorker = Comlink.Remote<PoolWorkerApi>;

/**
 * Starts the data worker of a file (a module worker loaded from the site's own origin, so it
 * carries the same Content-Security-Policy header) and wraps it with Comlink.
 */
export function spawnDataWorker(): SpawnedWorker<RemoteDataWorker> {
  return wrapWorker<DataWorkerApi>(startDataWorker());
}

/** Starts one pool worker (same origin and policy as the data worker) and wraps it with Comlink. */
export function spawnPoolWorker(): SpawnedWorker<RemotePoolWorker> {
  return wrapWorker<PoolWorkerApi>(startPoolWorker());
}

/** The worker's Comlink handle, with its fatal errors (failed to load, crashed) reported as sentences. */
function wrapWorker<T>(worker: Worker): SpawnedWorker<Comlink.Remote<T>> {
  const remote = Comlink.wrap<T>(worker);
  const fatalListeners: ((message: string) => void)[] = [];
  const reportFatal = (message: string) => {
    for (const listener of fatalListeners) listener(message);
  };
  worker.addEventListener('error', (event) => {
    event.preventDefault();
    reportFatal(event.message || 'the worker could not start or crashed');
  });
  worker.addEventListener('messageerror', () => reportFatal('a message from the worker could not be read'));
  return {
    remote,
    terminate: () => worker.terminate(),
    onFatalError: (listener) => {
      fatalListeners.push(listener);
    },
  };
}
