/** Jobs running in this worker, by id, so that `cancel(jobId)` can abort the right one. */
const runningJobs = new Map<string, AbortController>();

/** Runs `work` under a fresh abort signal registered as `jobId` until it settles. */
export async function withJob<T>(jobId: string, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  runningJobs.set(jobId, controller);
  try {
    return await work(controller.signal);
  } finally {
    runningJobs.delete(jobId);
  }
}

/** Aborts the job running as `jobId`, if any. */
export function abortJob(jobId: string): void {
  runningJobs.get(jobId)?.abort();
}
