import { expect, type Locator, type Page } from '@playwright/test';

/** Step 3: the mechanism, its generated parameter form, the budget and the live claim. */
export class MechanismStep {
  readonly section: Locator;
  readonly claimPanel: Locator;

  constructor(page: Page) {
    this.section = page.getByTestId('step-mechanism');
    this.claimPanel = page.getByTestId('claim-panel');
  }

  async pick(mechanismId: string): Promise<void> {
    await this.section.getByTestId(`mechanism-${mechanismId}`).getByRole('radio').check();
    await expect(this.section.getByTestId('param-form')).toBeVisible();
  }

  async setParam(label: string, value: string): Promise<void> {
    const field = this.section.getByTestId('param-form').getByLabel(label, { exact: true });
    if ((await field.evaluate((element) => element.tagName)) === 'SELECT') await field.selectOption(value);
    else await field.fill(value);
  }

  async setEpsilon(value: string): Promise<void> {
    await this.section.getByLabel('ε (epsilon)').fill(value);
  }

  async setReleases(count: number): Promise<void> {
    await this.section.getByLabel('Releases M').fill(String(count));
  }

  async setSeed(seed: string): Promise<void> {
    await this.section.getByLabel('Seed (optional)').fill(seed);
  }

  async expectClaimEpsilon(value: string): Promise<void> {
    await expect(this.claimPanel.getByTestId('claim-epsilon')).toHaveText(value);
  }
}
