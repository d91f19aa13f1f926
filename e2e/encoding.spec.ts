import { StudioPage } from './pages/studio-page';
import { expect, test } from './support/test';

// A two-row CSV saved as Windows-1252 ("José" is the bytes 4A 6F 73 E9): the data worker finds that it
// is not UTF-8, reads it as Windows-1252 and the Data step says so; no U+FFFD reaches the page.
test('a Windows-1252 file is read as such, and the Data step says so', async ({ page }) => {
  const studio = new StudioPage(page);
  await studio.open();
  await studio.data.pickCsvFile('e2e/fixtures/windows-1252.csv');
  await studio.data.expectLoaded('windows-1252.csv', 2);
  const note = page.getByTestId('encoding-note');
  await expect(note).toContainText('windows-1252.csv is not valid UTF-8 (byte 0xE9 on line 2');
  await expect(note).toContainText('read as Windows-1252');
  const data = page.locator('#step-data');
  await expect(data).toContainText('José');
  await expect(data).not.toContainText('\uFFFD');
});

// The same file chosen as UTF-8 is refused in the worker (the dataset read before stays), then chosen as
// Windows-1252 is read again with that choice: "José" with its é, and the page names the encoding used.
test('the encoding can be chosen on the Data step and the file is read again in it', async ({ page }) => {
  const studio = new StudioPage(page);
  await studio.open();
  await studio.data.pickCsvFile('e2e/fixtures/windows-1252.csv');
  await studio.data.expectLoaded('windows-1252.csv', 2);
  const data = page.locator('#step-data');
  const choice = page.getByLabel('Encoding', { exact: true });
  const used = page.getByTestId('encoding-used');
  await expect(choice).toHaveValue('auto');
  await expect(used).toHaveText('Read as Windows-1252 (detected: the file is not valid UTF-8).');

  await choice.selectOption('utf-8');
  await studio.data.expectLoadError(/line 2.*byte 0xE9 is not valid UTF-8/);
  await expect(choice).toHaveValue('auto');
  await expect(data).toContainText('José');

  await choice.selectOption({ label: 'Windows-1252 (ISO-8859-1, Latin-1)' });
  await expect(used).toHaveText('Read as Windows-1252, as chosen.');
  await expect(choice).toHaveValue('windows-1252');
  await expect(studio.data.loadError).toBeHidden();
  await expect(page.getByTestId('encoding-note')).toBeHidden();
  await studio.data.expectLoaded('windows-1252.csv', 2);
  await expect(studio.data.previewCell('José')).toBeVisible();
  await expect(data).not.toContainText('\uFFFD');
});
