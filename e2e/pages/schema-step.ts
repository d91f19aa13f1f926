import { readFile } from 'node:fs/promises';
import { expect, type Locator, type Page } from '@playwright/test';
import { openFileChooser } from '../support/file-chooser';

/** Step 2: declaring what is public about each column. */
export class SchemaStep {
  readonly section: Locator;
  readonly inferredBanner: Locator;

  constructor(page: Page) {
    this.section = page.getByTestId('step-schema');
    this.inferredBanner = page.getByTestId('inferred-banner');
  }

  column(name: string): Locator {
    return this.section.locator(`[data-testid="schema-column"][data-column="${name}"]`);
  }

  async declareBounds(name: string, lower: number, upper: number): Promise<void> {
    const column = this.column(name);
    await column.getByLabel('Lower bound').fill(String(lower));
    await column.getByLabel('Upper bound').fill(String(upper));
    // Only the bounds become declared (each end has its badge); the column's other inferred facts stay inferred.
    await expect(column.locator('.badge[data-fact="lower bound"]')).toHaveText(/^declared/);
    await expect(column.locator('.badge[data-fact="upper bound"]')).toHaveText(/^declared/);
  }

  async declareCategories(name: string, categories: string[]): Promise<void> {
    await this.column(name).getByLabel('Categories (one per line)').fill(categories.join('\n'));
  }

  async declarePublic(name: string): Promise<void> {
    await this.column(name)
      .getByRole('button', { name: /I declare these public/ })
      .click();
    await expect(this.columnBadge(name)).toHaveText('declared');
  }

  /** The badge summing up a column: declared, inferred or partly inferred. */
  columnBadge(name: string): Locator {
    return this.column(name).locator('.schema-column-head .badge');
  }

  /** Learns every inferred column's facts with DP at the budget given, and waits for the dp badges. */
  async learnAllPrivately(epsilon: string, delta: string): Promise<void> {
    const panel = this.section.getByTestId('learn-domain');
    await panel.getByLabel('ε for learning').fill(epsilon);
    await panel.getByLabel('δ for learning').fill(delta);
    await panel.getByRole('button', { name: /Learn these \d+ domains privately \(spend ε = / }).click();
    await expect(this.inferredBanner).toBeHidden();
    await expect(panel.getByTestId('domain-budget')).toBeVisible();
  }

  async declareAllPublic(): Promise<void> {
    await this.inferredBanner.getByRole('button', { name: 'I declare all of these public' }).click();
    await expect(this.inferredBanner).toBeHidden();
  }

  async importSchema(path: string): Promise<void> {
    const chooser = await openFileChooser(this.section.page(), () =>
      this.section.getByText('Import schema JSON').click(),
    );
    await chooser.setFiles(path);
  }

  async exportSchema(): Promise<{ fileName: string; text: string }> {
    const downloadStarted = this.section.page().waitForEvent('download');
    await this.section.getByRole('button', { name: 'Export schema JSON' }).click();
    const download = await downloadStarted;
    return { fileName: download.suggestedFilename(), text: await readFile(await download.path(), 'utf8') };
  }

  async expectImportError(pattern: RegExp): Promise<void> {
    // The step may show another alert beside it (the domain plan's refusal at the panel's ε).
    await expect(this.section.getByRole('alert').filter({ hasText: pattern })).toBeVisible();
  }

  async expectOutsideDomain(name: string, pattern: RegExp): Promise<void> {
    await expect(this.column(name).getByTestId('validation-counts')).toHaveText(pattern);
  }
}
