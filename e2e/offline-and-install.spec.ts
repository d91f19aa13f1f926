import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from '@playwright/test';
import { preview } from 'vite';
import { StudioPage } from './pages/studio-page';
import { fetchFromWorker, waitForOfflineReady } from './support/service-worker';
import { expect, saveStepScreenshot, test } from './support/test';
import { CONTENT_SECURITY_POLICY, SERVICE_WORKER_POLICY } from '../csp.config';
import { serviceWorkerScript } from '../scripts/vite-service-worker';

test.describe('policies of the page, the data workers and the service worker', () => {
  // The workers' fetches below are refused on purpose.
  test.use({ expectCspViolations: true });

  test('the service worker may download its own origin only; page and data workers nothing, even served from its cache', async ({
    page,
    guard,
  }) => {
    const studio = new StudioPage(page);
    await studio.open();
    // The server sends the service worker script its own policy (the browser fetches it itself).
    const swScript = await page.request.get('sw.js');
    expect(swScript.headers()['content-security-policy']).toBe(SERVICE_WORKER_POLICY);
    const serviceWorker = await waitForOfflineReady(page);

    // The service worker: its own origin yes (that is how it precaches), anywhere else no.
    const own = await fetchFromWorker(serviceWorker, './manifest.webmanifest');
    expect(own.outcome).toBe('sent');
    const outside = await fetchFromWorker(serviceWorker, 'https://example.com/collect?from=service-worker');
    expect(outside.outcome).toMatch(/^blocked/);
    expect(outside.violations).toContain('connect-src');

    // Reloaded, the page comes from the cache with the studio's policy stamped on it.
    const reloaded = await page.reload();
    expect(reloaded?.fromServiceWorker()).toBe(true);
    expect(reloaded?.headers()['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
    await expect(page.getByRole('heading', { name: 'dpsynth', level: 1 })).toBeVisible();

    await studio.data.loadPenguins();
    await studio.mechanism.pick('laplace-histogram');
    await studio.run.start();
    await studio.run.expectFinished();
    const dataWorker = page.workers().find((worker) => /data-worker-entry/.test(worker.url()));
    const poolWorker = page.workers().find((worker) => /pool-worker-entry/.test(worker.url()));
    expect(dataWorker, 'the data worker is running').toBeDefined();
    expect(poolWorker, 'a pool worker is running').toBeDefined();
    // Both hold data: connect-src 'none' refuses even the page's own origin.
    for (const worker of [dataWorker!, poolWorker!]) {
      for (const url of ['./manifest.webmanifest', 'https://example.com/collect?from=worker']) {
        const attempt = await fetchFromWorker(worker, url);
        expect(attempt.outcome, `${worker.url()} → ${url}`).toMatch(/^blocked/);
        expect(attempt.violations).toContain('connect-src');
      }
    }
    expect(guard.foreignRequests).toEqual([]);
  });
});

test('the studio is installable: the manifest names it, gives its icons and opens standalone', async ({
  browserName,
  baseURL,
}, testInfo) => {
  test.skip(browserName !== 'chromium', 'install checks use the Chrome DevTools Protocol');
  // An incognito context (Playwright's default) is never installable: use a profile on disk.
  const profile = await mkdtemp(join(tmpdir(), 'dpsynth-profile-'));
  const context = await chromium.launchPersistentContext(profile, {
    ...(testInfo.project.use.launchOptions ?? {}),
    args: [...(testInfo.project.use.launchOptions?.args ?? []), '--bypass-app-banner-engagement-checks'],
    baseURL,
    viewport: { width: 1280, height: 800 },
  });
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    const studio = new StudioPage(page);
    await studio.open();
    await waitForOfflineReady(page);
    const cdp = await context.newCDPSession(page);
    const { url, errors, data } = (await cdp.send('Page.getAppManifest')) as {
      url: string;
      errors: { message: string }[];
      data: string;
    };
    expect(url).toMatch(/\/manifest\.webmanifest$/);
    expect(errors).toEqual([]);
    const manifest = JSON.parse(data) as {
      name: string;
      short_name: string;
      display: string;
      theme_color: string;
      icons: { src: string; sizes: string; purpose: string }[];
    };
    expect(manifest.display).toBe('standalone');
    expect(manifest.short_name).toBe('dpsynth');
    expect(manifest.theme_color).toBe('#1f4e79');
    // Browsers ask for 192 × 192 (home screen) and 512 × 512 (splash screen, install dialog).
    for (const size of ['192x192', '512x512'])
      expect(manifest.icons.map((icon) => icon.sizes)).toContain(size);
    expect(manifest.icons.some((icon) => icon.purpose === 'maskable')).toBe(true);
    for (const icon of manifest.icons) {
      const response = await page.request.get(icon.src);
      expect(response.status(), icon.src).toBe(200);
    }
    const installability = (await cdp.send('Page.getInstallabilityErrors')) as {
      installabilityErrors: { errorId: string }[];
    };
    expect(installability.installabilityErrors).toEqual([]);
    // The browser's install offer reaches the page, which shows its own button for it.
    await expect(page.getByRole('button', { name: 'Install as an app' })).toBeVisible({ timeout: 30_000 });
    await page.locator('.app-header').screenshot({ path: testInfo.outputPath('install-offer.png') });
    await testInfo.attach('install-offer', { path: testInfo.outputPath('install-offer.png') });
    await testInfo.attach('manifest-state', {
      body: JSON.stringify({ url, manifest, installability }, null, 2),
      contentType: 'application/json',
    });
  } finally {
    await context.close();
    await rm(profile, { recursive: true, force: true });
  }
});

const PEOPLE_CSV = 'e2e/fixtures/people.csv';
const PEOPLE_COLUMNS = ['age', 'income', 'sex', 'region', 'channel'];

test('after one visit the studio works with the network cut: demos, a CSV through the file input, a run, results and export', async ({
  page,
  context,
}) => {
  const studio = new StudioPage(page);
  await studio.open();
  const serviceWorker = await waitForOfflineReady(page);

  await context.setOffline(true);
  // The network is really gone: the server cannot be reached for a file the service worker does not keep.
  expect((await fetchFromWorker(serviceWorker, './not-in-the-build.txt')).outcome).toMatch(/^blocked/);
  const reloaded = await page.reload();
  expect(reloaded?.fromServiceWorker()).toBe(true);
  await expect(page.getByRole('heading', { name: 'dpsynth', level: 1 })).toBeVisible();

  // Both demos: each is a chunk loaded on demand, so each must have been kept.
  await studio.data.loadDemo('pMSE paper simulation');
  await studio.data.expectLoaded('pmse-simulation.csv', 5000);
  await studio.data.loadPenguins();

  await studio.data.pickCsvFile(PEOPLE_CSV);
  await studio.data.expectLoaded('people.csv', 400);
  await studio.schema.declareBounds('age', 16, 95);
  await studio.schema.declareBounds('income', 0, 150000);
  await studio.schema.declareAllPublic();
  await studio.mechanism.pick('laplace-histogram');
  await studio.mechanism.setEpsilon('1');
  await studio.run.start();
  await studio.run.expectFinished();
  await studio.results.expectChartsFor(PEOPLE_COLUMNS);
  await studio.results.expectFullEvaluation();
  await saveStepScreenshot(page, 'offline-run');

  const csv = await studio.exports.downloadReleaseCsv(1, 1);
  expect(csv.fileName).toBe('synth_laplace-histogram_eps1_1-of-1.csv');
  const lines = csv.text.trim().split(/\r?\n/);
  expect(lines[0]).toBe(PEOPLE_COLUMNS.join(','));
  expect(lines).toHaveLength(401);
  const report = await studio.exports.downloadReleaseReport();
  expect(JSON.parse(report.text)).toHaveProperty('claim');

  // The cache holds the build's files and nothing else: no data went in with the run.
  const swScript = await readFile('dist/sw.js', 'utf8');
  const precache = JSON.parse(swScript.slice(swScript.indexOf('{'), swScript.indexOf('};') + 1)) as {
    urls: string[];
  };
  const cached = await page.evaluate(async () => {
    const urls: string[] = [];
    for (const name of await caches.keys())
      for (const request of await (await caches.open(name)).keys()) urls.push(request.url);
    return urls;
  });
  expect(cached.sort()).toEqual(precache.urls.map((url) => new URL(url, page.url()).href).sort());
  await context.setOffline(false);
});

test('a new build is offered as "Reload to update", and reloading brings it in', async ({
  browser,
}, testInfo) => {
  // A copy of the build on its own server, so that a "new build" can be written without touching dist/.
  const copy = await mkdtemp(join(tmpdir(), 'dpsynth-build-'));
  await cp('dist', copy, { recursive: true });
  const server = await preview({
    configFile: 'vite.config.ts',
    logLevel: 'silent',
    build: { outDir: copy },
    preview: { port: 0, host: '127.0.0.1' },
  });
  const context = await browser.newContext({ baseURL: server.resolvedUrls!.local[0] });
  try {
    const page = await context.newPage();
    const studio = new StudioPage(page);
    await studio.open();
    await waitForOfflineReady(page);
    await expect(page.getByTestId('update-offer')).toBeEmpty();

    // The next build: one changed file, hence a new precache version and a new sw.js.
    const indexHtml = join(copy, 'index.html');
    const html = await readFile(indexHtml, 'utf8');
    await writeFile(indexHtml, html.replace('<title>dpsynth', '<title>dpsynth (next build)'));
    await writeFile(join(copy, 'sw.js'), await serviceWorkerScript(process.cwd(), copy));
    await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())!.update());

    const offer = page.getByTestId('update-offer');
    await expect(offer.getByRole('button', { name: 'Reload to update' })).toBeVisible({ timeout: 30_000 });
    // Until the user says so, the page keeps the build it was opened with.
    await expect(page).toHaveTitle(/^dpsynth —/);
    await offer.screenshot({ path: testInfo.outputPath('reload-to-update.png') });
    await offer.getByRole('button', { name: 'Reload to update' }).click();
    await expect(page).toHaveTitle(/^dpsynth \(next build\)/, { timeout: 30_000 });
    await expect(page.getByTestId('update-offer')).toBeEmpty();
    // The old build's cache is gone: one versioned cache at a time.
    expect(
      await page.evaluate(async () => (await caches.keys()).filter((name) => name.startsWith('dpsynth-'))),
    ).toHaveLength(1);
  } finally {
    await context.close();
    await server.close();
    await rm(copy, { recursive: true, force: true });
  }
});
