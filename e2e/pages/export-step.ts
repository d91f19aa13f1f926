import { readFile } from 'node:fs/promises';
import type { Locator, Page } from '@playwright/test';

export interface DownloadedFile {
  fileName: string;
  text: string;
}

/** Step 8: downloads (the download wait starts before the click). */
export class ExportStep {
  readonly section: Locator;

  constructor(private readonly page: Page) {
    this.section = page.getByTestId('step-export');
  }

  async downloadReleaseCsv(index: number, of: number): Promise<DownloadedFile> {
    return this.download(
      this.section.getByRole('button', { name: `Download synthetic CSV ${index} of ${of}` }),
    );
  }

  async downloadReleaseReport(): Promise<DownloadedFile> {
    return this.download(this.section.getByRole('button', { name: 'Download release report (JSON)' }));
  }

  /** A further export of data already exported: the warning comes first, then "Export anyway" saves. */
  async downloadReleaseReportAfterWarning(): Promise<{ warning: string; file: DownloadedFile }> {
    await this.section.getByRole('button', { name: 'Download release report (JSON)' }).click();
    const warning = this.section.getByTestId('second-export-warning');
    await warning.waitFor();
    const text = (await warning.textContent()) ?? '';
    const file = await this.download(warning.getByRole('button', { name: 'Export anyway' }));
    return { warning: text, file };
  }

  async downloadEvaluationReport(): Promise<DownloadedFile> {
    return this.download(this.section.getByRole('button', { name: /Download evaluation report/ }));
  }

  private async download(button: Locator): Promise<DownloadedFile> {
    const downloadStarted = this.page.waitForEvent('download');
    await button.click();
    const download = await downloadStarted;
    const path = await download.path();
    return { fileName: download.suggestedFilename(), text: await readFile(path, 'utf8') };
  }
}
