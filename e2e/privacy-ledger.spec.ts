import { readFile } from 'node:fs/promises';
import { StudioPage } from './pages/studio-page';
import { expect, test } from './support/test';

const PEOPLE_CSV = 'e2e/fixtures/people.csv';

interface Report {
  cumulative?: {
    epsilon: number;
    delta: number;
    releases: number;
    exported?: { epsilon: number; delta: number; releases: number };
    lookedAt?: { epsilon: number; looks: { what: string; count: number; epsilon: number }[] };
  };
  notes: string[];
}

test('the privacy ledger counts every run shown and every export, and the report states both', async ({
  page,
}) => {
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

  // A run at ε = 0.5 whose results are seen but never exported: spent all the same.
  await studio.mechanism.setEpsilon('0.5');
  await studio.run.start();
  await studio.run.expectFinished();
  await studio.results.expectChartsFor(['age', 'income', 'sex', 'region', 'channel']);
  await expect(summary).toContainText('ε = 1.5 over 2 runs');

  // Change ε, run again, see the results.
  await studio.mechanism.setEpsilon('2');
  await studio.run.start();
  await studio.run.expectFinished();
  await studio.results.expectChartsFor(['age', 'income', 'sex', 'region', 'channel']);
  await expect(summary).toContainText('ε = 3.5 over 3 runs');

  // The second export warns first, then states one total: what was exported and what was looked at.
  const { warning, file } = await studio.exports.downloadReleaseReportAfterWarning();
  expect(warning).toContain('already exported (ε = 1)');
  expect(warning).toContain('makes ε = 3 exported from this dataset in total');
  expect(warning).toContain('is ε = 3.5');
  const second = JSON.parse(file.text) as Report;
  expect(second.cumulative).toMatchObject({
    epsilon: 3.5,
    delta: 0,
    releases: 2,
    exported: { epsilon: 3, delta: 0, releases: 2 },
  });
  expect(second.cumulative!.lookedAt!.looks).toEqual([
    { what: 'runs whose results were shown', count: 3, epsilon: 3.5, delta: 0 },
  ]);
  expect(second.notes.join(' ')).toContain(
    'the results of 2 other runs on the real data were shown: laplace-histogram (ε = 1); laplace-histogram (ε = 0.5)',
  );
  expect(second.notes.join(' ')).toContain(
    'are not differentially private, and are not counted in this claim',
  );
  // Saving the same run again spends nothing more and asks nothing.
  const again = JSON.parse((await studio.exports.downloadReleaseReport()).text) as Report;
  expect(again.cumulative).toMatchObject({ epsilon: 3.5, releases: 2 });
  await expect(summary).toContainText('Exported: ε = 3 in 2 exports');
});

test('a run refused after its budget was spent is counted, with one worker and no live traces', async ({
  page,
}) => {
  // One pool worker: the pMSE mechanism runs whole, without stages, so no live MCMC trace is shown and
  // only the refusal itself makes the run a look at its budget.
  await page.addInitScript(() => Object.defineProperty(navigator, 'hardwareConcurrency', { get: () => 1 }));
  const studio = new StudioPage(page);
  await studio.open();
  // Two numeric columns without declared bounds, and ε = 0.001 over 10 releases: the exponential
  // mechanism is almost flat, the chain roams the N(0, 10⁵) prior, and some release's values overflow
  // (the CLI test with the same seed and settings is refused at release 3).
  const rows = Array.from({ length: 30 }, (_, i) => `${(i % 9) - 2},${0.5 * ((i % 9) - 2) - 2}`);
  await studio.data.dropCsv('wide.csv', ['x1,x2', ...rows].join('\n') + '\n');
  await studio.data.expectLoaded('wide.csv', 30);
  await studio.mechanism.pick('pmse-mechanism');
  await studio.mechanism.setEpsilon('0.001');
  await studio.mechanism.setReleases(10);
  await studio.mechanism.setSeed('1');
  await studio.mechanism.setParam('Burn-in iterations', '0');
  await studio.mechanism.setParam('Iterations after burn-in', '1000');
  await studio.mechanism.setParam('Iterations between released draws', '100');
  await studio.mechanism.setParam('MCMC chains', '1');
  await studio.mechanism.setParam('Initial proposal scale', '100');
  await studio.run.start();
  await studio.run.expectFailed(/nothing was released\. The budget of this run \(ε = 0\.001\) is spent/);
  await expect(studio.mechanism.section.getByTestId('ledger-summary')).toContainText(
    'Spent on this dataset so far: ε = 0.001 over 1 run',
  );
});
