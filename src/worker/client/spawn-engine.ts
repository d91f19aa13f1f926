import * as Comlink from 'comlink';
import type { Engine } from '../engine';
import type { SpawnedWorker } from './worker-pool';

export type RemoteEngine = Comlink.Remote<Engine>;

/**
 * Starts one engine worker (a module worker loaded from the site's own origin, so it carries
 * the same Content-Security-Policy header) and wraps it with Comlink.
 */
export function spawnEngineWorker(role: 'data' | 'pool'): SpawnedWorker<RemoteEngine> {
  const worker = new Worker(new URL('../engine-worker.ts', import.meta.url), {
    type: 'module',
    name: `dpsynth-${role}`,
  });
  const remote = Comlink.wrap<Engine>(worker);
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
