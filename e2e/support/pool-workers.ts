import type { Page, Worker } from '@playwright/test';

/**
 * The studio's pool workers alive now (named "dpsynth-pool" by spawn-worker.ts). A worker stuck in
 * a synchronous loop cannot answer `evaluate`, so each is asked with a time limit: one that does
 * not answer in `answerMillis` is counted as busy.
 */
export async function poolWorkerStates(
  page: Page,
  answerMillis = 2000,
): Promise<{ idle: number; busy: number }> {
  const states = await Promise.all(page.workers().map((worker) => workerState(worker, answerMillis)));
  return {
    idle: states.filter((state) => state === 'idle').length,
    busy: states.filter((state) => state === 'busy').length,
  };
}

async function workerState(worker: Worker, answerMillis: number): Promise<'idle' | 'busy' | 'other'> {
  const timeout = new Promise<'busy'>((resolve) => setTimeout(() => resolve('busy'), answerMillis));
  const answer = worker
    .evaluate(() => self.name)
    .then((name) => (name === 'dpsynth-pool' ? ('idle' as const) : ('other' as const)))
    // A worker that closes while being asked is gone: neither idle nor busy.
    .catch(() => 'other' as const);
  return Promise.race([answer, timeout]);
}
