import { expect, type Locator, type Page } from '@playwright/test';

/** Step 5: several mechanisms at the same ε, side by side. */
export class CompareStep {
  readonly section: Locator;
  readonly rows: Locator;
  readonly progress: Locator;

  constructor(page: Page) {
    this.section = page.getByTestId('step-compare');
    this.rows = this.section.getByTestId('compare-row');
    this.progress = this.section.getByTestId('progress-compare');
  }

  async tick(mechanismIds: string[]): Promise<void> {
    for (const id of mechanismIds) {
      await this.section.getByTestId(`compare-choice-${id}`).getByRole('checkbox').check();
    }
  }

  async compare(): Promise<void> {
    await this.section.getByRole('button', { name: /^Compare \d+ mechanisms$/ }).click();
  }

  async cancel(): Promise<void> {
    await this.section.getByRole('button', { name: 'Cancel comparison' }).click();
  }

  /** Waits until every row has all its runs (no "k of n runs" note) and the progress bar is gone. */
  async expectFinished(rowCount: number, timeout = 120_000): Promise<void> {
    await expect(this.rows).toHaveCount(rowCount, { timeout });
    await expect(this.progress).toBeHidden({ timeout });
    await expect(this.rows.filter({ hasText: / of \d+ runs/ })).toHaveCount(0);
  }

  row(mechanismId: string): Locator {
    return this.section.locator(`[data-testid="compare-row"][data-mechanism="${mechanismId}"]`);
  }

  /** The mean shown in a row's cell for a metric ("tvdOneWay", "tvdTwoWay", "pmse", "runMillis"). */
  async meanOf(mechanismId: string, metric: string): Promise<string> {
    return (
      (await this.row(mechanismId).locator(`[data-metric="${metric}"] .compare-mean`).textContent()) ?? ''
    );
  }
}
