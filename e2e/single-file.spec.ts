import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { StudioPage } from './pages/studio-page';
import { fetchFromWorker } from './support/service-worker';
import { expect, saveStepScreenshot, test } from './support/test';

// Written by `npm run build:single` (part of `npm run e2e`).
const SINGLE_FILE = resolve('dist-single/dpsynth.html');
const PEOPLE_CSV = 'e2e/fixtures/people.csv';

test.describe('the one-file studio, opened from disk', () => {
  // The workers' fetch below is refused on purpose.
  test.use({ expectCspViolations: true });

  test('runs with no server: a demo and a CSV, a run, results and export; workers inherit connect-src none', async ({
    page,
    guard,
  }) => {
    const bytes = await readFile(SINGLE_FILE);
    const [expected, name] = (await readFile(`${SINGLE_FILE}.sha256`, 'utf8')).trim().split(/\s+/);
    expect(name).toBe('dpsynth.html');
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(expected);

    const requests: string[] = [];
    page.on('request', (request) => requests.push(request.url()));
    await page.goto(pathToFileURL(SINGLE_FILE).href);
    const studio = new StudioPage(page);
    await expect(page.getByRole('heading', { name: 'dpsynth', level: 1 })).toBeVisible();
    const policy = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
    expect(policy).toContain("connect-src 'none'");
    expect(policy).toMatch(/script-src 'sha256-[A-Za-z0-9+/]+=*';/);
    // No service worker and no install offer from a file.
    await expect(page.getByTestId('offline-ready')).toHaveCount(0);

    await studio.data.loadPenguins();
    await studio.mechanism.pick('laplace-histogram');
    await studio.run.start();
    await studio.run.expectFinished();

    await studio.data.pickCsvFile(PEOPLE_CSV);
    await studio.data.expectLoaded('people.csv', 400);
    await studio.schema.declareBounds('age', 16, 95);
    await studio.schema.declareBounds('income', 0, 150000);
    await studio.schema.declareAllPublic();
    await studio.mechanism.pick('laplace-histogram');
    await studio.run.start();
    await studio.run.expectFinished();
    await studio.results.expectChartsFor(['age', 'income', 'sex', 'region', 'channel']);
    await studio.results.expectFullEvaluation();
    await saveStepScreenshot(page, 'single-file-run');
    const csv = await studio.exports.downloadReleaseCsv(1, 1);
    expect(csv.text.trim().split(/\r?\n/)).toHaveLength(401);

    // The workers start from blob: URLs and hold the page's policy: no fetch, not even to a file.
    const workers = page.workers();
    expect(workers.length).toBeGreaterThanOrEqual(2);
    for (const worker of workers) {
      expect(worker.url()).toMatch(/^blob:/);
      const attempt = await fetchFromWorker(worker, 'https://example.com/collect?from=one-file');
      expect(attempt.outcome).toMatch(/^blocked/);
      expect(attempt.violations).toContain('connect-src');
    }
    // Everything the page loaded came from the file itself.
    expect(requests.filter((url) => !/^(file|blob|data):/.test(url))).toEqual([]);
    expect(guard.foreignRequests).toEqual([]);
  });
});
