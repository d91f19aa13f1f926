import { readFile } from 'node:fs/promises';
import { StudioPage } from './pages/studio-page';
import { MAIN_THREAD_GUARD_MS, startMainThreadTrace, stopMainThreadTrace } from './support/main-thread-tasks';
import { poolWorkerStates } from './support/pool-workers';
import { makePeopleCsv } from './support/synthetic-csv';
import { expect, saveStepScreenshot, test } from './support/test';

test('cancelling a long run stops its worker at once, and the next run works', async ({ page }) => {
  const studio = new StudioPage(page);
  await studio.open();
  await studio.data.dropCsv('people.csv', await readFile('e2e/fixtures/people.csv', 'utf8'));
  await studio.data.expectLoaded('people.csv', 400);
  await studio.schema.declareBounds('income', 0, 150000);
  await studio.schema.declareAllPublic();
  await studio.mechanism.pick('laplace-histogram');
  // A domain of about 4.4 million cells and 10 releases at ε = 0.1 each, where noise keeps about half
  // of the cells: seconds of work per release, so the run is still going when Cancel is clicked.
  await studio.mechanism.setParam('Bins per numeric column', '1000');
  await studio.mechanism.setReleases(10);

  const workersBefore = new Set(page.workers());
  await studio.run.start();
  await expect(studio.run.progress).toBeVisible();
  // Generous: on a loaded machine starting the pool worker and handing it the table can take 20 s.
  await expect(studio.run.progress).toContainText(/release 1 of 10/, { timeout: 90_000 });
  const poolWorker = page.workers().find((worker) => !workersBefore.has(worker));
  expect(poolWorker, 'the run started a pool worker').toBeDefined();
  const workerClosed = new Promise<void>((resolve) => poolWorker!.once('close', () => resolve()));
  await saveStepScreenshot(page, '05a-run-in-progress', 'step-run');

  // Time the click and the pool's termination mark in the page's own clock.
  await page.evaluate(() => {
    document.addEventListener(
      'click',
      (event) => {
        if ((event.target as HTMLElement).textContent === 'Cancel run')
          performance.mark('test-cancel-clicked');
      },
      { capture: true },
    );
  });
  await studio.run.cancel();
  await studio.run.expectCancelled();
  await workerClosed;
  const stopMillis = await page.evaluate(() => {
    const clicked = performance.getEntriesByName('test-cancel-clicked')[0]!.startTime;
    const terminated = performance.getEntriesByName('dpsynth-worker-terminated')[0]!.startTime;
    return terminated - clicked;
  });
  test.info().annotations.push({
    type: 'measurement',
    description: `worker terminated ${stopMillis.toFixed(0)} ms after Cancel`,
  });
  console.log(`worker terminated ${stopMillis.toFixed(0)} ms after Cancel`);
  // A guard, not the budget: termination takes tens of milliseconds on an idle machine.
  expect(stopMillis).toBeLessThan(1000);
  await expect(studio.results.section).toContainText('Run a mechanism in step 6 to see results.');

  await studio.mechanism.setParam('Bins per numeric column', '10');
  await studio.mechanism.setReleases(1);
  await studio.run.start();
  await studio.run.expectFinished();
});

test('a demo loads with its declared schema and licence, and runs', async ({ page }) => {
  const studio = new StudioPage(page);
  await studio.open();
  await studio.data.loadDemo('pMSE paper simulation');
  await studio.data.expectLoaded('pmse-simulation.csv', 5000);
  await expect(studio.data.section).toContainText('Snoke & Slavković');
  await expect(studio.data.section).toContainText('CC0');
  await expect(studio.schema.columnBadge('X1')).toHaveText('declared');
  // One simulated X1 lies above the declared bound 15: it is clamped and counted, not dropped.
  await studio.schema.expectOutsideDomain('X1', /1 above the upper bound \(clamped\)/);
  await saveStepScreenshot(page, '02a-schema-demo-clamped-value', 'step-schema');
  await studio.mechanism.pick('laplace-histogram');
  await studio.mechanism.setSeed('demo');
  await expect(studio.mechanism.section).toContainText('Seeded runs are for demos, not for release');
  await studio.run.start();
  await studio.run.expectFinished();
  await studio.results.expectChartsFor(['X1', 'X2']);
  const report = JSON.parse((await studio.exports.downloadReleaseReport()).text) as {
    seeded: boolean;
    seedNote: string;
  };
  expect(report.seeded).toBe(true);
  expect(report.seedNote).toMatch(/not for release/i);
});

test('cancelling an ε sweep leaves no pool worker busy and plots no point afterwards', async ({ page }) => {
  const studio = new StudioPage(page);
  await studio.open();
  await studio.data.loadPenguins();
  // Each point of the pMSE mechanism keeps a worker busy for seconds in one synchronous run.
  await studio.mechanism.pick('pmse-mechanism');
  await studio.tune.sweep();
  await expect
    .poll(async () => (await poolWorkerStates(page)).busy, { timeout: 30_000 })
    .toBeGreaterThanOrEqual(1);

  await studio.tune.section.getByRole('button', { name: 'Cancel sweep' }).click();
  await expect(studio.tune.section).toContainText('Sweep cancelled; finished points are kept.');
  // Busy workers are terminated after a short grace period; none takes another point.
  await expect.poll(async () => (await poolWorkerStates(page)).busy, { timeout: 10_000 }).toBe(0);
  const pointsAtCancel = await studio.tune.points.count();
  await page.waitForTimeout(3000);
  expect((await poolWorkerStates(page)).busy).toBe(0);
  await expect(studio.tune.points).toHaveCount(pointsAtCancel);
  await expect(studio.tune.section.getByRole('button', { name: 'Sweep ε' })).toBeEnabled();
});

test('the default ε sweep on the penguins demo draws its points, and a point sets ε', async ({ page }) => {
  const studio = new StudioPage(page);
  await studio.open();
  await studio.data.loadPenguins();
  await studio.mechanism.pick('laplace-histogram');
  const startedAt = Date.now();
  await studio.tune.sweep();
  await studio.tune.expectPoints(8);
  const sweepSeconds = (Date.now() - startedAt) / 1000;
  test.info().annotations.push({
    type: 'measurement',
    description: `default sweep (8 ε × 5 repeats, laplace-histogram, penguins) took ${sweepSeconds.toFixed(1)} s`,
  });
  console.log(`default sweep on penguins: ${sweepSeconds.toFixed(1)} s`);
  await expect(studio.tune.section).toContainText('for the data holder');
  await saveStepScreenshot(page, '04-tune-step', 'step-tune');
  // The same points plotted as raw pMSE: every point is a value of a CART pMSE, in [0, 0.25].
  await studio.tune.plot('pMSE (CART, fixed settings)');
  await studio.tune.expectPoints(8);
  await expect(studio.tune.section).toContainText('Raw pMSE of a CART with fixed settings');
  const pmseLabels = await studio.tune.points.evaluateAll((dots) =>
    dots.map((dot) => dot.getAttribute('aria-label') ?? ''),
  );
  for (const label of pmseLabels) {
    const value = Number(/mean pMSE \(CART\) ([0-9.e-]+)\)/.exec(label)?.[1]);
    expect(value).toBeGreaterThanOrEqual(0);
    expect(value).toBeLessThanOrEqual(0.25);
  }
  await saveStepScreenshot(page, '04b-tune-step-pmse', 'step-tune');
  await studio.tune.plot('TVD 2-way');
  // Sweeping again with nothing changed takes its points from the cache.
  await studio.tune.sweep();
  await studio.tune.expectPoints(8);
  await expect(studio.tune.section.getByTestId('sweep-reused')).toHaveText(
    /^All \d+ points were taken from an earlier sweep .*nothing was run again\.$/,
  );
  await studio.tune.usePoint(0.37);
  await expect(studio.mechanism.section.getByLabel('ε (epsilon)')).toHaveValue('0.37');
  await studio.mechanism.expectClaimEpsilon('0.37');
  // An ε picked from utility computed on the real data is a tuning choice the claim does not pay for.
  await expect(studio.mechanism.section.getByTestId('tuning-notes')).toContainText(
    'ε = 0.37 was picked from an ε sweep run on the real data',
  );
});

test('the main thread is never blocked grossly while a 50,000-row table is synthesised', async ({
  page,
  browser,
}) => {
  const studio = new StudioPage(page);
  await studio.open();
  await studio.data.dropCsv('people-50k.csv', makePeopleCsv(50_000, 777));
  await studio.data.expectLoaded('people-50k.csv', 50_000);
  await studio.schema.declareBounds('income', 0, 150000);
  await studio.schema.declareAllPublic();
  await studio.mechanism.pick('laplace-histogram');
  await startMainThreadTrace(browser, page);
  await studio.run.start();
  await studio.run.expectFinished();
  await studio.results.expectChartsFor(['age', 'income', 'sex', 'region', 'channel']);
  // Let the last frames finish before the trace stops.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 100))));
  const tasks = await stopMainThreadTrace(browser);
  const measurement = `main-thread tasks over 50 ms during a 50,000-row run (wall/processor ms): ${tasks.map((task) => `${task.wallMs}/${task.cpuMs}`).join(', ') || 'none'}`;
  test.info().annotations.push({ type: 'measurement', description: measurement });
  console.log(measurement);
  expect(tasks.filter((task) => task.cpuMs > MAIN_THREAD_GUARD_MS)).toEqual([]);
});

test('the pMSE mechanism runs its MCMC chains on two workers and shows their convergence', async ({
  page,
}) => {
  const studio = new StudioPage(page);
  await studio.open();
  await studio.data.loadDemo('pMSE paper simulation');
  await studio.data.expectLoaded('pmse-simulation.csv', 5000);
  await studio.mechanism.pick('pmse-mechanism');
  // The paper's model X1 ~ N(θ1, θ2), X2 ~ N(θ3 + θ4·x1, θ5) has five parameters.
  await expect(page.getByTestId('mechanism-facts')).toContainText('Synthesis model: 5 parameters');
  // The claim's headline says why ε is not a proven bound: the draws come from MCMC, and greedy trees
  // have no proven Δu either.
  const headline = studio.mechanism.claimPanel.getByTestId('claim-headline');
  const mcmcReason = 'MCMC draws approximate the exponential mechanism';
  await expect(headline).toHaveAttribute('data-bound', 'unproven');
  await expect(headline).toContainText(
    `ε = 1 — not a proven bound (${mcmcReason}; ε holds for exact draws, Δu = 1/(2n) proven)`,
  );
  await studio.mechanism.setParam('pMSE tree depth', '5');
  await expect(headline).toContainText(
    `ε = 1 — not a proven bound (greedy trees, depth 5: Δu not proven; ${mcmcReason})`,
  );
  await expect(headline).toHaveAttribute('data-bound', 'unproven');
  await studio.mechanism.setParam('pMSE tree depth', '2-grid');
  await expect(headline).toContainText('Δu = 1/(2n) proven');
  // Short chains keep the test quick; the defaults are tuned for R̂ < 1.1.
  await studio.mechanism.setParam('Burn-in iterations', '300');
  await studio.mechanism.setParam('Iterations after burn-in', '400');
  await studio.mechanism.setParam('Iterations between released draws', '100');
  await studio.mechanism.setReleases(2);
  await studio.run.start();
  await expect(studio.run.progress).toContainText('2 MCMC chains on 2 workers');
  // The data worker plus two pool workers, one chain each.
  expect(page.workers().length).toBeGreaterThanOrEqual(3);
  // Live traces of u and acceptance per chain during the run, with an R̂ badge.
  const live = page.getByTestId('live-mcmc');
  await expect(live.locator('polyline')).toHaveCount(4);
  await studio.run.expectFinished(90_000);
  // 100 points per chain arrive; with 400 of 700 iterations after burn-in the badge shows a number.
  await expect(page.getByTestId('live-rhat')).toHaveText(/^R̂ \(u\): \d\.\d{3}$/);
  await saveStepScreenshot(page, '05a-run-live-mcmc', 'step-run');
  const mcmc = page.getByTestId('panel-mcmc');
  await expect(mcmc).toContainText('Largest R̂');
  await expect(mcmc).toContainText('Chain 2 acceptance');
  await expect(mcmc).toContainText('not part of the differentially private release');
  await saveStepScreenshot(page, '06a-results-mcmc', 'panel-mcmc');
});

test.describe('without the service worker', () => {
  // page.route cannot replace a file that the service worker answers from its cache.
  test.use({ serviceWorkers: 'block' });

  test('a worker that cannot start gives a readable message, and the studio keeps working', async ({
    page,
  }) => {
    const studio = new StudioPage(page);
    await studio.open();
    await studio.data.loadPenguins();
    await studio.mechanism.pick('laplace-histogram');
    // From now on every new pool worker fails while its script loads (routing also bypasses the cache).
    await page.route(/\/assets\/pool-worker-entry-[^/]*\.js$/, (route) =>
      route.fulfill({
        contentType: 'text/javascript',
        body: 'throw new Error("pool worker failed to start");',
      }),
    );
    await studio.run.start();
    await studio.run.expectFailed(
      /^The run failed: The computation stopped unexpectedly: .*pool worker failed to start/,
    );
    await saveStepScreenshot(page, '05b-run-worker-failed', 'step-run');
    // The page is whole: the data stay loaded and, with workers back, the next run works.
    await studio.data.expectLoaded('penguins.csv', 344);
    await page.unroute(/\/assets\/pool-worker-entry-[^/]*\.js$/);
    await studio.run.start();
    await studio.run.expectFinished();
  });
});
