import { expect, type Locator, type Page } from '@playwright/test';

/** Step 4: the ε sweep. */
export class TuneStep {
  readonly section: Locator;
  readonly points: Locator;

  constructor(page: Page) {
    this.section = page.getByTestId('step-tune');
    this.points = page.getByTestId('sweep-point');
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

  async usePoint(epsilon: number): Promise<void> {
    await this.section.locator(`[data-testid="sweep-point"][data-epsilon="${epsilon}"]`).click();
  }
}
