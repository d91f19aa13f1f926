import AxeBuilder from '@axe-core/playwright';
import { expect, saveStepScreenshot, test } from './support/test';
import { StudioPage } from './pages/studio-page';

// The Mechanism step's goal question: the catalogue ordered by fit from public facts, the first two
// marked with the measured reason, what cannot run greyed with check()'s sentence, and the note that
// nothing reads the data.

/**
 * 1,200 rows × 6 categorical columns of 4 levels each ((i + 1)·(2j + 3) mod 4 takes every level) and two
 * of 300 levels: 4⁶ · 300² ≈ 3.7·10⁸ cells in the full cross-tabulation (more with missing levels), above
 * the histogram mechanisms' limit of 2·10⁷, while every two-way marginal is small.
 */
function wideCategoricalCsv(): string {
  const header = ['a', 'b', 'c', 'd', 'e', 'f'];
  const rows = [[...header, 'g', 'h'].join(',')];
  for (let i = 0; i < 1200; i++) {
    const small = header.map((_, j) => `v${((i + 1) * (2 * j + 3)) % 4}`);
    rows.push([...small, `w${i % 300}`, `w${(i * 7) % 300}`].join(','));
  }
  return `${rows.join('\n')}\n`;
}

test('the goal orders the catalogue: MST and AIM recommended for relationships, at the default δ until one is typed', async ({
  page,
}) => {
  const studio = new StudioPage(page);
  await studio.open();
  await studio.data.dropCsv('wide.csv', wideCategoricalCsv());
  await studio.data.expectLoaded('wide.csv', 1200);
  await studio.schema.declareAllPublic();

  const step = studio.mechanism.section;
  const question = step.getByTestId('goal-question');
  await expect(question.getByRole('group', { name: 'What is the synthetic data for?' })).toBeVisible();
  await expect(step.getByTestId('recommend-note')).toContainText('nothing reads the data');
  await expect(step.locator('[data-recommended="true"]')).toHaveCount(0);

  await question.getByLabel('Keep relationships between columns for analysis').check();
  const options = step.locator('.mechanism-catalogue > .mechanism-option');
  await expect(options.nth(0)).toHaveAttribute('data-testid', 'mechanism-mst');
  await expect(options.nth(1)).toHaveAttribute('data-testid', 'mechanism-aim');
  await expect(step.locator('[data-recommended="true"]')).toHaveCount(2);
  await expect(step.getByTestId('recommend-reason-mst')).toContainText(
    'Recommended for this table and goal: Keeps every column and a tree of its strongest 2-way relationships',
  );
  await expect(step.getByTestId('recommend-reason-mst')).toContainText('mean 2-way TVD 0.059');
  await expect(step.getByTestId('recommend-reason-aim')).toContainText('mean 3-way TVD 0.107');
  // No δ typed: like a run, they are ranked at the default δ from the public n (min(1e-9, 1/n²)).
  await expect(step.getByTestId('recommend-reason-mst')).toContainText('runs at the default δ = 1e-9');
  await step.getByLabel('δ (delta)').fill('1e-10');
  await expect(step.getByTestId('recommend-reason-mst')).not.toContainText('default δ');
  // The Laplace histogram's cross-tabulation is over the limit: greyed with check()'s sentence, last.
  const laplace = step.getByTestId('mechanism-laplace-histogram');
  await expect(laplace).toHaveClass(/mechanism-option-unavailable/);
  await expect(laplace.locator('.mechanism-problems')).toContainText('more than the limit of 20,000,000');
  await expect(step.getByTestId('recommend-reason-laplace-histogram')).toContainText(
    /its full cross-tabulation has \d\.\d·10[⁸⁹] cells for 1,200 rows/,
  );
  await expect(step.getByTestId('mechanism-mst')).not.toHaveClass(/mechanism-option-unavailable/);
  await saveStepScreenshot(page, 'mechanism-recommendation', 'step-mechanism');
  // The question, the marks and the greyed entries pass axe-core's serious and critical checks.
  const axe = await new AxeBuilder({ page })
    .include('[data-testid="step-mechanism"]')
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .analyze();
  expect(
    axe.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.help}`),
  ).toEqual([]);

  // Another goal reorders the list; picking the first recommended one works as any pick.
  await question.getByLabel("Keep each column's distribution").check();
  await expect(options.nth(0)).toHaveAttribute('data-testid', 'mechanism-dp-marginals');
  await expect(options.nth(0)).toHaveAttribute('data-recommended', 'true');
  await studio.mechanism.pick('dp-marginals');
  await expect(studio.mechanism.claimPanel).toBeVisible();
});

test('to train a model the question asks for the label column', async ({ page }) => {
  const studio = new StudioPage(page);
  await studio.open();
  await studio.data.dropCsv('wide.csv', wideCategoricalCsv());
  await studio.data.expectLoaded('wide.csv', 1200);
  await studio.schema.declareAllPublic();
  const question = studio.mechanism.section.getByTestId('goal-question');
  await question.getByLabel('Train a model to predict a label column').check();
  const labelColumn = question.getByLabel('Label column to predict');
  await expect(labelColumn).toBeVisible();
  await expect(studio.mechanism.section.getByTestId('recommend-reason-clustmix')).toContainText(
    'name the label column to predict',
  );
  await labelColumn.selectOption('f');
  await expect(studio.mechanism.section.getByTestId('recommend-reason-clustmix')).not.toContainText(
    'name the label column to predict',
  );
  // The reason names the label as a setting; one click picks ClustMix with it in the form.
  await expect(studio.mechanism.section.getByTestId('recommend-reason-clustmix')).toContainText(
    'Settings: label = f.',
  );
  await studio.mechanism.section.getByRole('button', { name: /^Use these settings for ClustMix/ }).click();
  await expect(studio.mechanism.section.getByTestId('mechanism-clustmix').getByRole('radio')).toBeChecked();
  await expect(
    studio.mechanism.section.getByTestId('param-form').getByLabel('Label column', { exact: true }),
  ).toHaveValue('f');
});
