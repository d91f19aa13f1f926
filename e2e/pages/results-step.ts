import { expect, type Locator, type Page } from '@playwright/test';

/** Step 7: the utility dashboard. */
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

  /** Waits for the background evaluation and checks its panels are drawn. */
  async expectFullEvaluation(timeout = 60_000): Promise<void> {
    await expect(this.section.getByTestId('evaluation-status')).toContainText('Full evaluation done', {
      timeout,
    });
    await expect(this.section.getByTestId('pmse-numbers')).toBeVisible();
    await expect(this.section.getByTestId('tvd-orders')).toBeVisible();
    await expect(this.section.getByTestId('per-column-table')).toBeVisible();
    await expect(this.section.getByTestId('distinguishing-game')).toBeVisible();
    await expect(
      this.section.getByTestId('distinguishing-game-chart').locator('svg rect').first(),
    ).toBeVisible();
    // The headline gains pMSE, S_pMSE with synthpop's verdict, 3-way TVD and the k-marginal score.
    await expect(this.section.getByTestId('headline-pmse')).toHaveText(/^\d/);
    await expect(this.section.getByTestId('headline-spmse')).toContainText(/good|acceptable|poor/);
    await expect(this.section.getByTestId('k-marginal-score')).toHaveText(/^\d+ of 1000$/);
    await expect(this.section.getByTestId('disclosure-table')).toBeVisible();
  }

  /** Fits the regression; the plot has one dot per term for the real fit, each release and the combination. */
  async compareRegression(response: string, releases = 1): Promise<void> {
    const panel = this.section.getByTestId('panel-regression');
    await panel.getByLabel('Response').selectOption(response);
    await panel.getByRole('button', { name: 'Compare regressions' }).click();
    const result = panel.getByTestId('regression-result');
    await expect(result.locator('svg.coefficient-plot .coefficient-marker').first()).toBeVisible();
    const terms = await result.locator('tbody tr').count();
    const series = 1 + releases + (releases > 1 ? 1 : 0);
    // A dot is drawn per estimable coefficient: at most terms × series, at least the real and one more.
    const dots = await result.locator('svg.coefficient-plot .coefficient-marker').count();
    expect(dots).toBeGreaterThan(terms);
    expect(dots).toBeLessThanOrEqual(terms * series);
    if (releases > 1) await expect(result.locator('figcaption')).toContainText('each release');
  }

  /** Combines the releases for the mean of a column: the combined row and the data holder's real-data column. */
  async combineReleasesForMean(column: string): Promise<void> {
    const panel = this.section.getByTestId('panel-inference');
    await panel.getByLabel('Estimand').selectOption('mean');
    await panel.getByLabel('Column').selectOption(column);
    await panel.getByRole('button', { name: 'Combine releases' }).click();
    const table = panel.getByRole('table', { name: `Inference for mean:${column}` });
    await expect(table.getByRole('columnheader', { name: /Real data \(visible only to you/ })).toBeVisible();
    const cells = table.getByRole('row', { name: new RegExp(`^mean:${column}`) }).getByRole('cell');
    await expect(cells).toHaveCount(5);
    // Estimate, standard error, interval, ν and the real estimate with its interval are numbers.
    await expect(cells.nth(0)).toHaveText(/^-?\d/);
    await expect(cells.nth(2)).toHaveText(/^\[-?\d.*, -?\d.*\]$/);
    await expect(cells.nth(3)).toHaveText(/^(\d|∞)/);
    await expect(cells.nth(4)).toHaveText(/^-?\d.* \[/);
  }

  async tvd(which: 'one-way' | 'two-way'): Promise<number> {
    return Number(await this.section.getByTestId(`tvd-${which}`).textContent());
  }
}
