import { expect, type Page, type Worker } from '@playwright/test';

/**
 * Waits until the studio's service worker has kept this build and controls the page (the page
 * then says so), and returns the service worker for evaluation.
 */
export async function waitForOfflineReady(page: Page): Promise<Worker> {
  await expect(page.getByTestId('offline-ready')).toBeVisible({ timeout: 60_000 });
  expect(await page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
  const worker = page
    .context()
    .serviceWorkers()
    .find((candidate) => candidate.url().endsWith('/sw.js'));
  expect(worker, 'the service worker is running').toBeDefined();
  return worker!;
}

/** What a fetch from a worker did: 'sent' or the error it threw, and the policy directives it violated. */
export interface WorkerFetchOutcome {
  outcome: string;
  violations: string[];
}

/** Tries a fetch from inside a worker (data, pool or service worker) and reports what happened. */
export async function fetchFromWorker(worker: Worker, url: string): Promise<WorkerFetchOutcome> {
  return worker.evaluate(async (target) => {
    const violations: string[] = [];
    const record = (event: SecurityPolicyViolationEvent) => violations.push(event.violatedDirective);
    self.addEventListener('securitypolicyviolation', record);
    let outcome: string;
    try {
      const response = await fetch(new URL(target, self.location.href));
      outcome = response.ok ? 'sent' : `sent, HTTP ${response.status}`;
    } catch (error) {
      outcome = `blocked: ${String(error)}`;
    }
    // The violation event is queued as a task after the rejection: give it one turn to arrive.
    await new Promise((resolve) => setTimeout(resolve, 50));
    self.removeEventListener('securitypolicyviolation', record);
    return { outcome, violations };
  }, url);
}
