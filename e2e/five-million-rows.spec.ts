import { createReadStream } from 'node:fs';
import type { Page } from '@playwright/test';
import { StudioPage } from './pages/studio-page';
import { expect, test } from './support/test';

const ROWS = 5_000_000;

/**
 * Builds a 5,000,000-row file inside the page (about 140 MB: sending it through the test channel
 * would be slow) from Blob pieces of 100,000 lines, so the page never holds it as one string, and
 * drops it on the studio.
 */
async function dropFiveMillionRowFile(page: Page): Promise<void> {
  await page.evaluate((rows) => {
    const regions = ['North', 'South', 'East', 'West'];
    const parts: Blob[] = [new Blob(['age,income,hours,sex,region\n'])];
    for (let start = 0; start < rows; start += 100_000) {
      const lines: string[] = [];
      for (let i = start; i < Math.min(rows, start + 100_000); i++) {
        lines.push(
          `${18 + (i % 73)},${20000 + ((i * 7919) % 80000)},${1 + (i % 60)},${i % 2 ? 'F' : 'M'},${regions[i % 4]}`,
        );
      }
      parts.push(new Blob([`${lines.join('\n')}\n`]));
    }
    const transfer = new DataTransfer();
    transfer.items.add(new File(parts, 'five-million.csv', { type: 'text/csv' }));
    const zone = document.querySelector('[data-testid="drop-zone"]')!;
    zone.dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }));
  }, ROWS);
}

/** Lines of a downloaded file, counted by reading it in pieces (it is too large to hold as one string). */
async function countLines(path: string): Promise<{ lines: number; header: string }> {
  let lines = 0;
  let header = '';
  for await (const chunk of createReadStream(path) as AsyncIterable<Buffer>) {
    if (header === '') header = chunk.subarray(0, chunk.indexOf(0x0a)).toString('utf8');
    for (let i = chunk.indexOf(0x0a); i !== -1; i = chunk.indexOf(0x0a, i + 1)) lines++;
  }
  return { lines, header };
}

// Slow on purpose: generous margins (minutes per step) on a shared 2-core machine.
test('a 5,000,000-row file loads, runs dp-marginals, is evaluated on subsamples and exported whole', async ({
  page,
}) => {
  test.setTimeout(1_500_000);
  const studio = new StudioPage(page);
  await studio.open();

  await dropFiveMillionRowFile(page);
  await expect(studio.data.section.locator('.dataset-facts')).toContainText('five-million.csv', {
    timeout: 300_000,
  });
  await expect(studio.data.section.getByTestId('row-count')).toHaveText(ROWS.toLocaleString('en'));

  await studio.schema.declareAllPublic();
  await studio.mechanism.pick('dp-marginals');
  await studio.mechanism.setEpsilon('1');
  await studio.run.start();
  await studio.run.expectFinished(600_000);
  await studio.results.expectFullEvaluation(900_000);
  // pMSE ran on uniform subsamples, with their size and standard error shown; TVD on every row.
  await expect(studio.results.section.getByTestId('pmse-subsample')).toContainText(
    `of ${ROWS.toLocaleString('en')} real`,
  );

  const download = page.waitForEvent('download', { timeout: 600_000 });
  await studio.exports.section.getByRole('button', { name: 'Download synthetic CSV 1 of 1' }).click();
  const saved = await (await download).path();
  const { lines, header } = await countLines(saved);
  expect(header).toBe('age,income,hours,sex,region');
  expect(lines).toBe(ROWS + 1);
});
