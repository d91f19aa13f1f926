/**
 * The worker scripts of the studio, started from their own files on the site: each is a module
 * loaded from the studio's origin, so it carries the Content-Security-Policy header of its response.
 * The one-file build swaps this module for worker-scripts.inline.ts (scripts/vite-single-file.ts).
 */
export function startDataWorker(): Worker {
  return new Worker(new URL('../data-worker-entry.ts', import.meta.url), {
    type: 'module',
    name: 'dpsynth-data',
  });
}

export function startPoolWorker(): Worker {
  return new Worker(new URL('../pool-worker-entry.ts', import.meta.url), {
    type: 'module',
    name: 'dpsynth-pool',
  });
}
