import { StudioPage } from './pages/studio-page';
import { poolWorkerStates } from './support/pool-workers';
import { expect, test } from './support/test';

// The ε sweep as a person meets it: an estimate before it starts, points drawn while it still runs
// (cheapest ε first), and Cancel stopping the runs not yet finished. The pMSE mechanism on the
// penguins demo: 8 runs of several seconds each, on a pool of workers, so the sweep lasts long enough
// to see its first points before its end. Timeouts are guards, at least 5× what the steps take on an
// idle machine (a run of a few seconds; the whole sweep under a minute).
test('sweep points arrive before the sweep ends, and cancelling stops the remaining runs', async ({
  page,
}) => {
  test.setTimeout(600_000);
  const studio = new StudioPage(page);
  await studio.open();
  await studio.data.loadPenguins();
  await studio.mechanism.pick('pmse-mechanism');

  // The estimate is shown before the sweep starts, with the repeats that fit about a minute.
  const estimate = studio.tune.section.getByTestId('sweep-estimate');
  await expect(estimate).toContainText(/Estimated time: about \d+ (s|min) on \d+ workers/);
  expect(Number(await estimate.getAttribute('data-seconds'))).toBeGreaterThan(0);
  const repeats = Number(await studio.tune.section.getByTestId('sweep-repeats-fitted').textContent());
  expect(repeats).toBeGreaterThanOrEqual(1);
  expect(repeats).toBeLessThanOrEqual(10);

  await studio.tune.sweep();
  const progress = studio.tune.section.getByTestId('progress-sweep');
  await expect(progress).toBeVisible();
  // The first point is drawn while the sweep is still running: it did not wait for the others.
  await expect(studio.tune.points.first()).toBeVisible({ timeout: 300_000 });
  const drawnWhileRunning = await studio.tune.points.count();
  await expect(progress).toBeVisible();
  expect(drawnWhileRunning).toBeLessThan(8);
  // The progress line says how much is left.
  await expect(progress).toContainText(/runs done .* left/);

  await studio.tune.section.getByRole('button', { name: 'Cancel sweep' }).click();
  await expect(studio.tune.section).toContainText('Sweep cancelled; finished points are kept.');
  // Busy workers are terminated after a short grace period; none takes another run.
  await expect.poll(async () => (await poolWorkerStates(page)).busy, { timeout: 30_000 }).toBe(0);
  const pointsAtCancel = await studio.tune.points.count();
  expect(pointsAtCancel).toBeGreaterThanOrEqual(1);
  expect(pointsAtCancel).toBeLessThan(8);
  await page.waitForTimeout(5000);
  expect((await poolWorkerStates(page)).busy).toBe(0);
  await expect(studio.tune.points).toHaveCount(pointsAtCancel);
});
