import { readFile } from 'node:fs/promises';
import { StudioPage } from './pages/studio-page';
import { expect, test } from './support/test';

const PEOPLE_CSV = 'e2e/fixtures/people.csv';

interface Report {
  cumulative?: { epsilon: number; delta: number; releases: number };
  notes: string[];
}

test('the privacy ledger counts every run shown and every export of the dataset', async ({ page }) => {
  const studio = new StudioPage(page);
  await studio.open();
  await studio.data.dropCsv('people.csv', await readFile(PEOPLE_CSV, 'utf8'));
  await studio.data.expectLoaded('people.csv', 400);
  await studio.schema.declareBounds('age', 16, 95);
  await studio.schema.declareBounds('income', 0, 150000);
  await studio.schema.declareAllPublic();
  await studio.mechanism.pick('laplace-histogram');

  // Run at ε = 1 and see its results: a look at the data, counted on the Mechanism step.
  await studio.mechanism.setEpsilon('1');
  await studio.run.start();
  await studio.run.expectFinished();
  await studio.results.expectChartsFor(['age', 'income', 'sex', 'region', 'channel']);
  const summary = studio.mechanism.section.getByTestId('ledger-summary');
  await expect(summary).toContainText('Spent on this dataset so far: ε = 1 over 1 run');

  // The first export: its report counts one export.
  const first = JSON.parse((await studio.exports.downloadReleaseReport()).text) as Report;
  expect(first.cumulative).toMatchObject({ epsilon: 1, delta: 0, releases: 1 });

  // Change ε, run again, see the results.
  await studio.mechanism.setEpsilon('2');
  await studio.run.start();
  await studio.run.expectFinished();
  await studio.results.expectChartsFor(['age', 'income', 'sex', 'region', 'channel']);
  await expect(summary).toContainText('ε = 3 over 2 runs');

  // The second export warns first, then states the cumulative ε and the earlier look.
  const { warning, file } = await studio.exports.downloadReleaseReportAfterWarning();
  expect(warning).toContain('already exported (ε = 1)');
  expect(warning).toContain('ε = 3 on this dataset in total');
  const second = JSON.parse(file.text) as Report;
  expect(second.cumulative).toMatchObject({ epsilon: 3, delta: 0, releases: 2 });
  expect(second.notes.join(' ')).toContain(
    'the results of 1 other run on the same data were shown: laplace-histogram (ε = 1)',
  );
  // Saving the same run again spends nothing more and asks nothing.
  const again = JSON.parse((await studio.exports.downloadReleaseReport()).text) as Report;
  expect(again.cumulative).toMatchObject({ epsilon: 3, releases: 2 });
  await expect(summary).toContainText('Exported: ε = 3 in 2 exports');
});
