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
