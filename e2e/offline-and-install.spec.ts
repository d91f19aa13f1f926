import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from '@playwright/test';
import { StudioPage } from './pages/studio-page';
import { fetchFromWorker, waitForOfflineReady } from './support/service-worker';
import { expect, test } from './support/test';
import { CONTENT_SECURITY_POLICY, SERVICE_WORKER_POLICY } from '../csp.config';

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
