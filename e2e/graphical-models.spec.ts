import { readFile } from 'node:fs/promises';
import { StudioPage } from './pages/studio-page';
import { expect, test } from './support/test';

const PEOPLE_CSV = 'e2e/fixtures/people.csv';
const PEOPLE_COLUMNS = ['age', 'income', 'sex', 'region', 'channel'];

test('AIM runs in the studio with δ > 0, states its claim in ρ and releases n rows per dataset', async ({
  page,
}) => {
  const studio = new StudioPage(page);
  await studio.open();
  await studio.data.dropCsv('people.csv', await readFile(PEOPLE_CSV, 'utf8'));
  await studio.data.expectLoaded('people.csv', 400);
  await studio.schema.declareBounds('age', 16, 95);
  await studio.schema.declareBounds('income', 0, 150000);
  await studio.schema.declareAllPublic();

  await studio.mechanism.pick('aim');
  await studio.mechanism.setEpsilon('1');
  // No δ (0): the default δ applies, with its reason beside the field (zCDP needs δ > 0).
  await studio.mechanism.section.getByLabel('δ (delta)').fill('0');
  await expect(studio.mechanism.section.getByTestId('delta-default')).toContainText('default δ = 1e-9');
  await studio.mechanism.section.getByLabel('δ (delta)').fill('1e-6');
  await studio.mechanism.setParam('Workload degree', '2');
  await studio.mechanism.setParam('Bins per numeric column', '5');
  await studio.mechanism.setParam('Estimation iterations per round', '100');
  await studio.mechanism.setReleases(2);
  await studio.mechanism.expectClaimEpsilon('1');
  await expect(studio.mechanism.section).toContainText('Workload: 10 marginals');

  await studio.run.start();
  await studio.run.expectFinished(120_000);
  await studio.results.expectChartsFor(PEOPLE_COLUMNS);
  const csv = await studio.exports.downloadReleaseCsv(2, 2);
  expect(csv.text.trim().split('\n')).toHaveLength(401);
});
