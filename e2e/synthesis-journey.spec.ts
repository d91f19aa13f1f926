import { readFile } from 'node:fs/promises';
import Papa from 'papaparse';
import { StudioPage } from './pages/studio-page';
import { meanOneWayTvd, unescapeSpreadsheetCell } from './support/independent-tvd';
import { expect, saveStepScreenshot, test } from './support/test';

const PEOPLE_CSV = 'e2e/fixtures/people.csv';
const PEOPLE_COLUMNS = ['age', 'income', 'sex', 'region', 'channel'];

test('drop a CSV, declare its domain, run the Laplace histogram, see charts and download the release', async ({
  page,
}) => {
  const studio = new StudioPage(page);
  await studio.open();
  await saveStepScreenshot(page, '00-empty-studio');

  const peopleCsv = await readFile(PEOPLE_CSV, 'utf8');
  await studio.data.dropCsv('people.csv', peopleCsv);
  await studio.data.expectLoaded('people.csv', 400);
  await expect(studio.data.columnCards()).toHaveCount(PEOPLE_COLUMNS.length);
  await saveStepScreenshot(page, '01-data-step', 'step-data');

  await expect(studio.schema.inferredBanner).toContainText('in 5 of 5 columns');
  await studio.schema.declareBounds('age', 16, 95);
  // Declaring the bounds leaves the type and whole-number flag read from the data: still inferred.
  await expect(studio.schema.columnBadge('age')).toHaveText('partly inferred');
  await expect(studio.schema.column('age').locator('.badge[data-fact="integer"]')).toHaveText(/^inferred/);
  // Typing one end of an inferred range declares that end only; the other is still the data's.
  await studio.schema.column('income').getByLabel('Upper bound').fill('150000');
  await expect(studio.schema.column('income').locator('.badge[data-fact="upper bound"]')).toHaveText(
    /^declared/,
  );
  await expect(studio.schema.column('income').locator('.badge[data-fact="lower bound"]')).toHaveText(
    /^inferred/,
  );
  await studio.schema.declareBounds('income', 0, 150000);
  await studio.schema.declareAllPublic();
  await saveStepScreenshot(page, '02-schema-step', 'step-schema');

  await studio.mechanism.pick('laplace-histogram');
  await studio.mechanism.setEpsilon('1');
  await studio.mechanism.setReleases(2);
  await studio.mechanism.expectClaimEpsilon('1');
  await saveStepScreenshot(page, '03-mechanism-step', 'step-mechanism');

  await studio.run.start();
  await studio.run.expectFinished();
  await saveStepScreenshot(page, '05-run-step', 'step-run');
  await studio.results.expectChartsFor(PEOPLE_COLUMNS);
  const shownTvdOneWay = await studio.results.tvd('one-way');
  await studio.results.expectFullEvaluation();
  const shownPmse = await studio.results.section.getByTestId('headline-pmse').textContent();
  await studio.results.compareRegression('income', 2);
  await studio.results.combineReleasesForMean('income');
  await saveStepScreenshot(page, '06-results-step', 'step-results');

  const csv = await studio.exports.downloadReleaseCsv(1, 2);
  expect(csv.fileName).toBe('synth_laplace-histogram_eps1_1-of-2.csv');
  const parsed = Papa.parse<Record<string, string>>(csv.text, { header: true, skipEmptyLines: true });
  expect(parsed.errors).toEqual([]);
  expect(parsed.meta.fields).toEqual(PEOPLE_COLUMNS);
  expect(parsed.data).toHaveLength(400);
  // Missing values are data: the mechanism synthesises them too, so an empty cell is allowed.
  for (const row of parsed.data) {
    const age = Number(row.age);
    if (row.age !== '') expect(Number.isInteger(age) && age >= 16 && age <= 95, `age ${row.age}`).toBe(true);
    if (row.income !== '') expect(Number(row.income)).toBeGreaterThanOrEqual(0);
    if (row.income !== '') expect(Number(row.income)).toBeLessThanOrEqual(150000);
    expect(['', 'F', 'M']).toContain(row.sex);
    // "@phone" is a declared category; on export it must be escaped so spreadsheets do not run it.
    expect(['', 'web', 'store', "'@phone"]).toContain(row.channel);
  }
  // 119 of the 400 real rows are "@phone", so a release without it has probability far below 1e-9
  // at ε = 1/2 per release: the escaping is exercised, not merely allowed.
  expect(parsed.data.filter((row) => row.channel === "'@phone").length).toBeGreaterThan(0);
  // The headline's 1-way TVD (mean over the two releases) equals the TVD computed here from the
  // input and the downloaded files with the normative definition, up to its 3-decimal display.
  const secondCsv = await studio.exports.downloadReleaseCsv(2, 2);
  const releases = [csv.text, secondCsv.text].map(
    (text) =>
      Papa.parse<Record<string, string>>(text, {
        header: true,
        skipEmptyLines: true,
        transform: unescapeSpreadsheetCell,
      }).data,
  );
  const real = Papa.parse<Record<string, string>>(peopleCsv, { header: true, skipEmptyLines: true }).data;
  const tvdColumns = PEOPLE_COLUMNS.map((name) => ({
    name,
    numeric: name === 'age' || name === 'income',
    missing: ['', 'NA'],
  }));
  const independentTvd = releases.reduce((sum, rows) => sum + meanOneWayTvd(real, rows, tvdColumns), 0) / 2;
  expect(Math.abs(shownTvdOneWay - independentTvd)).toBeLessThanOrEqual(0.0005 + 1e-9);

  const report = await studio.exports.downloadReleaseReport();
  expect(report.fileName).toBe('release-report_laplace-histogram_eps1.json');
  const releaseReport = JSON.parse(report.text) as Record<string, unknown>;
  expect(releaseReport).toMatchObject({
    format: 'dpsynth-release-report',
    formatVersion: 1,
    rows: 400,
    columns: 5,
    releases: 2,
    seeded: false,
    mechanism: { id: 'laplace-histogram' },
    claim: { notion: 'pure-dp', epsilon: 1, delta: 0, neighbouring: 'replace-one', bound: 'proven' },
    inferredFields: [],
  });
  expect(typeof releaseReport.appVersion).toBe('string');
  expect((releaseReport.schema as { columns: { source: string }[] }).columns.map((c) => c.source)).toEqual(
    Array(5).fill('declared'),
  );
  // The release bundle carries no metric computed from the real data.
  expect(report.text).not.toMatch(/tvd|pmse|utility|metrics|propensity/i);

  const evaluation = await studio.exports.downloadEvaluationReport();
  expect(evaluation.fileName).toBe('evaluation-for-data-holder-not-for-release_laplace-histogram_eps1.json');
  const evaluationReport = JSON.parse(evaluation.text) as {
    format: string;
    note: string;
    synthetic: { file: string; rows: number }[];
    tvdPerRelease: Record<string, { perRelease: { mean: number }[] }>;
    pmse: { value: number };
  };
  // The shape `dpsynth metrics --json` prints (core evaluationJson), naming the release CSVs saved above.
  expect(evaluationReport.format).toBe('dpsynth-evaluation-report');
  expect(evaluationReport.note).toBe('Computed from the real data: for the data holder, not for release.');
  expect(evaluationReport.synthetic.map((release) => release.file)).toEqual([
    'synth_laplace-histogram_eps1_1-of-2.csv',
    'synth_laplace-histogram_eps1_2-of-2.csv',
  ]);
  // The exported evaluation holds the same numbers as the page and as the independent computation.
  const [firstTvd, secondTvd] = evaluationReport.tvdPerRelease['1']!.perRelease.map(
    (release) => release.mean,
  );
  expect((firstTvd! + secondTvd!) / 2).toBeCloseTo(independentTvd, 9);
  expect(evaluationReport.pmse.value.toPrecision(3)).toBe(shownPmse);
  await saveStepScreenshot(page, '07-export-step', 'step-export');
});

test('a malformed CSV shows its problem and line next to the drop zone and keeps the loaded data', async ({
  page,
}) => {
  const studio = new StudioPage(page);
  await studio.open();
  await studio.data.dropCsv('people.csv', await readFile(PEOPLE_CSV, 'utf8'));
  await studio.data.expectLoaded('people.csv', 400);

  await studio.data.pickCsvFile('e2e/fixtures/malformed.csv');
  await studio.data.expectLoadError(/^malformed\.csv: .*line 5/);
  await studio.data.expectLoaded('people.csv', 400);
  await expect(studio.data.columnCards()).toHaveCount(5);
  await saveStepScreenshot(page, '01b-data-step-bad-file', 'step-data');
});

test('keeping rows back gives a machine-learning efficacy test, and the release says so', async ({
  page,
}) => {
  const studio = new StudioPage(page);
  await studio.open();
  await studio.data.dropCsv('people.csv', await readFile(PEOPLE_CSV, 'utf8'));
  await studio.data.expectLoaded('people.csv', 400);
  // Typing one end of an inferred range declares that end only; the other is still the data's.
  await studio.schema.column('income').getByLabel('Upper bound').fill('150000');
  await expect(studio.schema.column('income').locator('.badge[data-fact="upper bound"]')).toHaveText(
    /^declared/,
  );
  await expect(studio.schema.column('income').locator('.badge[data-fact="lower bound"]')).toHaveText(
    /^inferred/,
  );
  await studio.schema.declareBounds('income', 0, 150000);
  await studio.schema.declareAllPublic();
  await studio.mechanism.pick('dp-marginals');
  await studio.run.keepRowsBack();
  await studio.run.start();
  await studio.run.expectFinished();
  await studio.results.expectFullEvaluation();
  const ml = page.getByTestId('ml-efficacy-table');
  await expect(ml).toBeVisible();
  await expect(ml.getByRole('row')).toHaveCount(4);
  // Two groups (accuracy, AUC) of two bars (trained on real, on synthetic) per model, where defined.
  expect(await page.getByTestId('ml-efficacy-chart').locator('svg rect').count()).toBeGreaterThanOrEqual(6);
  await saveStepScreenshot(page, '06b-results-ml-efficacy', 'panel-ml-efficacy');

  // round(0.2 · 400) = 80 rows kept back: the mechanism saw, and released, 320.
  const csv = await studio.exports.downloadReleaseCsv(1, 1);
  expect(Papa.parse(csv.text, { header: true, skipEmptyLines: true }).data).toHaveLength(320);
  const report = JSON.parse((await studio.exports.downloadReleaseReport()).text) as {
    rows: number;
    notes: string[];
  };
  expect(report.rows).toBe(320);
  expect(report.notes.join(' ')).toContain('80 of 400 rows');
});

test('a schema file can be imported and exported, and values outside it are counted', async ({ page }) => {
  const studio = new StudioPage(page);
  await studio.open();
  await studio.data.dropCsv('people.csv', await readFile(PEOPLE_CSV, 'utf8'));
  await studio.data.expectLoaded('people.csv', 400);

  await studio.schema.importSchema('e2e/fixtures/wrong-columns.schema.json');
  await studio.schema.expectImportError(/salary/);
  await expect(studio.schema.inferredBanner).toBeVisible();

  await studio.schema.importSchema('e2e/fixtures/people.schema.json');
  await expect(studio.schema.inferredBanner).toBeHidden();
  // Ages above 80 are clamped; "West" is not a declared region, so those values are rejected and counted.
  await studio.schema.expectOutsideDomain('age', /above the upper bound \(clamped\)/);
  await studio.schema.expectOutsideDomain('region', /not in the category list \(“West”/);
  await saveStepScreenshot(page, '02b-schema-imported-with-counts', 'step-schema');

  const exported = await studio.schema.exportSchema();
  expect(exported.fileName).toBe('people.schema.json');
  const schema = JSON.parse(exported.text) as {
    version: number;
    columns: { name: string; source: string; bounds?: number[] }[];
  };
  expect(schema.version).toBe(1);
  expect(schema.columns.map((column) => column.source)).toEqual(Array(5).fill('declared'));
  expect(schema.columns[0]!.bounds).toEqual([18, 80]);
});
