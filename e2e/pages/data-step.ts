import { expect, type Locator, type Page } from '@playwright/test';
import { openFileChooser } from '../support/file-chooser';

/** Step 1: bringing a table in (drop, file chooser, demos). */
export class DataStep {
  readonly section: Locator;
  readonly dropZone: Locator;
  readonly loadError: Locator;

  constructor(private readonly page: Page) {
    this.section = page.getByTestId('step-data');
    this.dropZone = page.getByTestId('drop-zone');
    this.loadError = page.getByTestId('load-error');
  }

  /** Drops a file by dispatching a real `drop` event that carries a DataTransfer with the file. */
  async dropCsv(fileName: string, text: string): Promise<void> {
    const dataTransfer = await this.page.evaluateHandle(
      ({ fileName, text }) => {
        const transfer = new DataTransfer();
        transfer.items.add(new File([text], fileName, { type: 'text/csv' }));
        return transfer;
      },
      { fileName, text },
    );
    await this.dropZone.dispatchEvent('dragover', { dataTransfer });
    await this.dropZone.dispatchEvent('drop', { dataTransfer });
    await dataTransfer.dispose();
  }

  /** Picks a file through the file chooser, as a keyboard or mouse user would. */
  async pickCsvFile(path: string): Promise<void> {
    const chooser = await openFileChooser(this.page, () => this.section.getByText('choose a file').click());
    await chooser.setFiles(path);
  }

  async cancelLoading(): Promise<void> {
    await this.section.getByRole('button', { name: 'Cancel loading' }).click();
    await expect(this.section.getByRole('button', { name: 'Cancel loading' })).toBeHidden();
  }

  async loadDemo(title: string): Promise<void> {
    await this.section.getByRole('button', { name: `Load demo: ${title}` }).click();
  }

  /** The Palmer penguins demo (344 rows), loaded and shown. */
  async loadPenguins(): Promise<void> {
    await this.loadDemo('Palmer penguins');
    await this.expectLoaded('penguins.csv', 344);
  }

  async expectLoaded(fileName: string, rows: number): Promise<void> {
    const facts = this.section.locator('.dataset-facts');
    await expect(facts).toContainText(fileName, { timeout: 60_000 });
    await expect(this.section.getByTestId('row-count')).toHaveText(rows.toLocaleString('en'));
  }

  async expectLoadError(pattern: RegExp): Promise<void> {
    await expect(this.loadError).toBeVisible();
    await expect(this.loadError).toHaveText(pattern);
  }

  previewCell(rowText: string): Locator {
    return this.page.getByTestId('row-preview').getByRole('row').filter({ hasText: rowText });
  }

  columnCards(): Locator {
    return this.section.getByTestId('column-card');
  }
}
