import { expect, type Locator, type Page } from '@playwright/test';

/** Step 4: the ε sweep. */
export class TuneStep {
  readonly section: Locator;
  readonly points: Locator;
  private readonly epsilonField: Locator;

  constructor(page: Page) {
    this.section = page.getByTestId('step-tune');
    this.points = page.getByTestId('sweep-point');
    this.epsilonField = page.getByTestId('step-mechanism').getByLabel('ε (epsilon)');
  }

  async sweep(): Promise<void> {
    await this.section.getByRole('button', { name: 'Sweep ε' }).click();
  }

  async expectPoints(count: number, timeout = 120_000): Promise<void> {
    await expect(this.points).toHaveCount(count, { timeout });
    await expect(this.section.getByTestId('progress-sweep')).toBeHidden({ timeout });
  }

  /** Chooses what the sweep chart plots, by the option's visible text. */
  async plot(optionText: string): Promise<void> {
    await this.section.getByLabel('plot').selectOption({ label: optionText });
  }

  /**
   * Clicks the point at ε until the Mechanism step's ε field takes its value: a click that lands
   * while the chart redraws its points (after a new sweep or plot choice) can hit the old element.
   */
  async usePoint(epsilon: number): Promise<void> {
    const point = this.section.locator(`[data-testid="sweep-point"][data-epsilon="${epsilon}"]`);
    await expect(async () => {
      await point.click();
      await expect(this.epsilonField).toHaveValue(String(epsilon), { timeout: 1_000 });
    }).toPass({ timeout: 20_000 });
  }
}
