import { StudioPage } from './pages/studio-page';
import { expect, test } from './support/test';
import { CONTENT_SECURITY_POLICY } from '../csp.config';

test.describe('nothing leaves the page', () => {
  // This test provokes violations on purpose and checks that they happened.
  test.use({ expectCspViolations: true });

  test('fetch to an outside address is blocked by the policy, from the page and from a worker', async ({
    page,
    guard,
  }) => {
    const workerScript = page.waitForResponse((response) => /data-worker-entry.*\.js$/.test(response.url()));
    const studio = new StudioPage(page);
    await studio.open();
    await studio.data.loadPenguins();

    // Workers loaded from a URL take their policy from their own response header.
    expect((await workerScript).headers()['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);

    const fromPage = await page.evaluate(async () => {
      try {
        await fetch('https://example.com/collect?from=page');
        return 'sent';
      } catch (error) {
        return `blocked: ${String(error)}`;
      }
    });
    expect(fromPage).toMatch(/^blocked/);
    await expect.poll(() => guard.cspViolations.some((v) => v.directive === 'connect-src')).toBe(true);

    const dataWorker = page.workers().find((worker) => /data-worker-entry/.test(worker.url()));
    expect(dataWorker, 'the data worker is running').toBeDefined();
    const fromWorker = await dataWorker!.evaluate(async () => {
      const violations: string[] = [];
      self.addEventListener('securitypolicyviolation', (event) => violations.push(event.violatedDirective));
      let outcome: string;
      try {
        await fetch('https://example.com/collect?from=worker');
        outcome = 'sent';
      } catch (error) {
        outcome = `blocked: ${String(error)}`;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
      return { outcome, violations };
    });
    expect(fromWorker.outcome).toMatch(/^blocked/);
    expect(fromWorker.violations).toContain('connect-src');
    expect(guard.foreignRequests).toEqual([]);
  });
});

test('no data is persisted: only whitelisted preferences reach localStorage', async ({ page }) => {
  const studio = new StudioPage(page);
  await studio.open();
  await studio.data.loadPenguins();
  await studio.mechanism.pick('laplace-histogram');
  await studio.mechanism.setSeed('secret-seed');
  await studio.run.start();
  await studio.run.expectFinished();
  const stored = await page.evaluate(async () => {
    const keys = Object.keys(localStorage);
    const databases = 'databases' in indexedDB ? (await indexedDB.databases()).map((d) => d.name) : [];
    return {
      keys,
      values: keys.map((key) => localStorage.getItem(key) ?? ''),
      databases,
      session: sessionStorage.length,
    };
  });
  expect(stored.keys).toEqual(['dpsynth-preferences']);
  const preferences = JSON.parse(stored.values[0]!) as { state: Record<string, unknown>; version: number };
  expect(Object.keys(preferences.state).sort()).toEqual([
    'lastMechanismId',
    'sweepMaxEpsilon',
    'sweepMetric',
    'sweepMinEpsilon',
    'sweepPointCount',
    'sweepRepeats',
    'sweepRepeatsFitMinute',
  ]);
  expect(stored.values[0]).not.toMatch(/Adelie|secret-seed|penguins/);
  expect(stored.databases).toEqual([]);
  expect(stored.session).toBe(0);
});
