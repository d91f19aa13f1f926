import { readFile } from 'node:fs/promises';
import { StudioPage } from './pages/studio-page';
import { expect, test } from './support/test';

const PEOPLE_CSV = 'e2e/fixtures/people.csv';

test('MST runs under add/remove neighbours from the Mechanism step: the claim names the relation and its conversion, the report leaves n out', async ({
  page,
}) => {
  const studio = new StudioPage(page);
  await studio.open();
  await studio.data.dropCsv('people.csv', await readFile(PEOPLE_CSV, 'utf8'));
  await studio.data.expectLoaded('people.csv', 400);
  await studio.schema.declareBounds('age', 16, 95);
  await studio.schema.declareBounds('income', 0, 150000);
  await studio.schema.declareAllPublic();

  await studio.mechanism.pick('mst');
  await studio.mechanism.setEpsilon('1');
  await studio.mechanism.section.getByLabel('δ (delta)').fill('1e-6');
  await studio.mechanism.setParam('Bins per numeric column', '5');
  const choice = studio.mechanism.section.getByTestId('neighbouring-choice');
  await expect(choice).toContainText('hides whether a person is in the table at all');
  await expect(choice).toContainText('hides what a person’s row says');
  await expect(studio.mechanism.section.getByTestId('claim-neighbouring')).toContainText('replacing one row');
  await expect(studio.mechanism.section.getByTestId('claim-other-relation')).toContainText('implies nothing');

  await choice.getByRole('radio', { name: /Add or remove one row/ }).check();
  await expect(studio.mechanism.section.getByTestId('claim-neighbouring')).toContainText(
    'adding or removing one row',
  );
  await expect(studio.mechanism.section.getByTestId('claim-other-relation')).toContainText(
    'Under replace-one neighbours',
  );

  await studio.run.start();
  await studio.run.expectFinished(120_000);
  const report = JSON.parse((await studio.exports.downloadReleaseReport()).text) as {
    rows?: number;
    claim: { neighbouring: string };
  };
  expect(report.claim.neighbouring).toBe('add-remove');
  expect(report.rows).toBeUndefined();
});

test('a mechanism without add/remove is blocked under it, with the reason', async ({ page }) => {
  const studio = new StudioPage(page);
  await studio.open();
  await studio.data.dropCsv('people.csv', await readFile(PEOPLE_CSV, 'utf8'));
  await studio.data.expectLoaded('people.csv', 400);
  await studio.schema.declareBounds('age', 16, 95);
  await studio.schema.declareBounds('income', 0, 150000);
  await studio.schema.declareAllPublic();
  await studio.mechanism.pick('smoothed-histogram');
  await studio.mechanism.section
    .getByTestId('neighbouring-choice')
    .getByRole('radio', { name: /Add or remove one row/ })
    .check();
  await expect(studio.mechanism.section).toContainText('runs only with replace-one neighbours');
});
