import { expect, type Locator, type Page } from '@playwright/test';

/** Step 6: the utility dashboard. */
export class ResultsStep {
  readonly section: Locator;
  readonly marginalCharts: Locator;
  readonly heatmap: Locator;

  constructor(page: Page) {
    this.section = page.getByTestId('step-results');
    this.marginalCharts = page.getByTestId('marginal-chart');
    this.heatmap = page.getByTestId('pair-heatmap');
  }

  async expectChartsFor(columns: string[]): Promise<void> {
    await expect(this.marginalCharts).toHaveCount(columns.length);
    for (const column of columns) {
      const chart = this.section.locator(`[data-testid="marginal-chart"][data-column="${column}"]`);
      await expect(chart.locator('svg')).toBeVisible();
      expect(await chart.locator('svg rect').count()).toBeGreaterThan(0);
    }
    await expect(this.heatmap.locator('.heatmap-cell').first()).toBeVisible();
  }

  async tvd(which: 'one-way' | 'two-way'): Promise<number> {
    return Number(await this.section.getByTestId(`tvd-${which}`).textContent());
  }
}
