import { StudioPage } from './pages/studio-page';
import { poolWorkerStates } from './support/pool-workers';
import { expect, saveStepScreenshot, test } from './support/test';

test('three mechanisms compared on the penguins demo give one row of numbers each', async ({ page }) => {
  const studio = new StudioPage(page);
  await studio.open();
  await studio.data.loadPenguins();
  await studio.mechanism.pick('laplace-histogram');
  // Seeded, so each comparison run can be repeated on its own below: repeat r uses "<seed>/ε/r".
  await studio.mechanism.setSeed('compare-check');
  const mechanisms = ['laplace-histogram', 'dp-marginals', 'smoothed-histogram'];
  await studio.compare.tick(mechanisms);
  await expect(studio.compare.section).toContainText('9 runs');

  const startedAt = Date.now();
  await studio.compare.compare();
  await studio.compare.expectFinished(3);
  const compareSeconds = (Date.now() - startedAt) / 1000;
  test.info().annotations.push({
    type: 'measurement',
    description: `compare of 3 mechanisms × 3 repeats on penguins took ${compareSeconds.toFixed(1)} s`,
  });
  console.log(`compare of 3 mechanisms × 3 repeats on penguins: ${compareSeconds.toFixed(1)} s`);

  for (const id of mechanisms) {
    for (const metric of ['tvdOneWay', 'tvdTwoWay', 'pmse']) {
      const value = Number(await studio.compare.meanOf(id, metric));
      expect(value, `${id} ${metric}`).toBeGreaterThanOrEqual(0);
      expect(value, `${id} ${metric}`).toBeLessThanOrEqual(1);
    }
    await expect(studio.compare.row(id)).toContainText('pure ε-DP, ε = 1, δ = 0');
  }
  await expect(studio.compare.row('laplace-histogram')).toContainText('your parameters');
  await expect(studio.compare.row('dp-marginals')).toContainText('default parameters');
  // Every metric column marks a best value in words.
  expect(await studio.compare.section.getByText('best', { exact: true }).count()).toBeGreaterThanOrEqual(4);
  await expect(studio.compare.section).toContainText('for the data holder');
  await expect(studio.compare.section.getByTestId('compare-chart')).toBeVisible();
  await saveStepScreenshot(page, '04c-compare-step', 'step-compare');

  // Comparing again with nothing changed takes every run from the cache.
  await studio.compare.compare();
  await studio.compare.expectFinished(3);
  await expect(studio.compare.section.getByTestId('compare-reused')).toHaveText(
    /^All \d+ runs were taken from an earlier comparison .*nothing was run again\.$/,
  );

  // On a phone the table scrolls inside its own box; the page does not scroll sideways.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(studio.compare.rows).toHaveCount(3);
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
  ).toBeLessThanOrEqual(0);
  await saveStepScreenshot(page, 'mobile-03-compare', 'step-compare');

  // The row's TVDs are the means of three single runs that the Run step repeats with the same seeds:
  // each shown to 3 decimals, so the mean of the shown values is within 0.0005 of the exact mean,
  // and the row's own rounding adds 0.0005.
  await page.setViewportSize({ width: 1280, height: 800 });
  const comparedOneWay = Number(await studio.compare.meanOf('laplace-histogram', 'tvdOneWay'));
  const comparedTwoWay = Number(await studio.compare.meanOf('laplace-histogram', 'tvdTwoWay'));
  const single = { oneWay: 0, twoWay: 0 };
  for (const repeat of [0, 1, 2]) {
    await studio.mechanism.setSeed(`compare-check/1/${repeat}`);
    await studio.run.start();
    await studio.run.expectFinished();
    single.oneWay += (await studio.results.tvd('one-way')) / 3;
    single.twoWay += (await studio.results.tvd('two-way')) / 3;
  }
  expect(Math.abs(comparedOneWay - single.oneWay)).toBeLessThanOrEqual(0.001 + 1e-9);
  expect(Math.abs(comparedTwoWay - single.twoWay)).toBeLessThanOrEqual(0.001 + 1e-9);
});

test('cancelling a comparison that includes the pMSE mechanism stops it and keeps finished runs', async ({
  page,
}) => {
  const studio = new StudioPage(page);
  await studio.open();
  await studio.data.loadPenguins();
  await studio.compare.tick(['laplace-histogram', 'pmse-mechanism']);
  await studio.compare.compare();
  await expect(studio.compare.progress).toBeVisible();
  await expect
    .poll(async () => (await poolWorkerStates(page)).busy, { timeout: 30_000 })
    .toBeGreaterThanOrEqual(1);
  await studio.compare.cancel();
  await expect(studio.compare.section).toContainText('Comparison cancelled; finished runs are kept.');
  // A run that does not stop within the grace period has its worker terminated: none stays busy.
  await expect.poll(async () => (await poolWorkerStates(page)).busy, { timeout: 10_000 }).toBe(0);
  await expect(studio.compare.progress).toBeHidden();
  await expect(studio.compare.rows).toHaveCount(2);
  await expect(studio.compare.section.getByRole('button', { name: 'Compare 2 mechanisms' })).toBeEnabled();
});
