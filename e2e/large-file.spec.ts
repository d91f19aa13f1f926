import type { Page } from '@playwright/test';
import { StudioPage } from './pages/studio-page';
import { MAIN_THREAD_GUARD_MS, startMainThreadTrace, stopMainThreadTrace } from './support/main-thread-tasks';
import { expect, test } from './support/test';

/** Builds the file inside the page (30 MB through the test channel would be slow) and drops it. */
async function dropMillionRowFile(page: Page): Promise<void> {
  await page.evaluate(() => {
    const lines = ['id,age,income,sex,region'];
    const regions = ['North', 'South', 'East', 'West'];
    for (let i = 0; i < 1_000_000; i++) {
      lines.push(
        `${i},${18 + (i % 73)},${20000 + ((i * 7919) % 80000)},${i % 2 ? 'F' : 'M'},${regions[i % 4]}`,
      );
    }
    const transfer = new DataTransfer();
    transfer.items.add(new File([lines.join('\n')], 'million.csv', { type: 'text/csv' }));
    const zone = document.querySelector('[data-testid="drop-zone"]')!;
    zone.dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }));
  });
}

test('a million-row file loads in the worker, its parse can be cancelled, and its preview scrolls without blocking the page', async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  const studio = new StudioPage(page);
  await studio.open();

  await dropMillionRowFile(page);
  await studio.data.cancelLoading();
  await expect(studio.data.section).toContainText('No data loaded yet');
  await expect(studio.data.loadError).toBeHidden();

  const startedAt = Date.now();
  await dropMillionRowFile(page);
  await studio.data.expectLoaded('million.csv', 1_000_000);
  const loadSeconds = (Date.now() - startedAt) / 1000;

  const preview = page.getByTestId('row-preview');
  await startMainThreadTrace(browser, page);
  // Scroll through the whole file in 40 jumps, then to the very end, waiting for the rows each time.
  const frames = await preview.evaluate(async (element) => {
    const frameGaps: number[] = [];
    let last = performance.now();
    for (let step = 1; step <= 40; step++) {
      element.scrollTop = (element.scrollHeight * step) / 40;
      await new Promise((resolve) => requestAnimationFrame(resolve));
      const now = performance.now();
      frameGaps.push(now - last);
      last = now;
    }
    return frameGaps;
  });
  // The last row: number 1,000,000, id 999999, region index 999999 mod 4 = 3 (West).
  const lastRow = preview.getByRole('row').filter({ hasText: /^1000000999999/ });
  await expect(lastRow).toBeVisible();
  await expect(lastRow).toContainText('West');
  const tasks = await stopMainThreadTrace(browser);
  const facts = await studio.data.section.locator('.dataset-facts').textContent();
  const measurement = `${facts} 1,000,000 rows loaded in ${loadSeconds.toFixed(1)} s (generation in the page included); scrolling: longest frame gap ${Math.max(...frames).toFixed(0)} ms, tasks over 50 ms (wall/processor ms) ${tasks.map((task) => `${task.wallMs}/${task.cpuMs}`).join(', ') || 'none'}`;
  test.info().annotations.push({ type: 'measurement', description: measurement });
  console.log(measurement);
  // The 50 ms budget itself is measured by the studio-journeys benchmark in bench/.
  expect(tasks.filter((task) => task.cpuMs > MAIN_THREAD_GUARD_MS)).toEqual([]);
});
