import { expect, type Locator, type Page } from '@playwright/test';

/** Step 6: running, watching progress, cancelling. */
export class RunStep {
  readonly section: Locator;
  readonly status: Locator;
  readonly progress: Locator;

  constructor(page: Page) {
    this.section = page.getByTestId('step-run');
    this.status = page.getByTestId('run-status');
    this.progress = page.getByTestId('progress-run');
  }

  async keepRowsBack(): Promise<void> {
    await this.section.getByLabel(/Keep back 20% of the rows/).check();
  }

  async start(): Promise<void> {
    await this.section.getByRole('button', { name: /^Run / }).click();
  }

  async expectFinished(timeout = 60_000): Promise<void> {
    await expect(this.status).toContainText('Done:', { timeout });
  }

  async cancel(): Promise<void> {
    await this.section.getByRole('button', { name: 'Cancel run' }).click();
  }

  /** The run's failure message, shown in the Run step (never a blank page). */
  async expectFailed(message: RegExp): Promise<void> {
    await expect(this.section.getByTestId('run-error')).toHaveText(message);
  }

  async expectCancelled(): Promise<void> {
    await expect(this.status).toContainText('Run cancelled');
  }
}
