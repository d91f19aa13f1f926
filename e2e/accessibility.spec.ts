import { readFile } from 'node:fs/promises';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { StudioPage } from './pages/studio-page';
import { openFileChooser } from './support/file-chooser';
import { tabTo } from './support/keyboard';
import { expect, saveStepScreenshot, test } from './support/test';

const PEOPLE_CSV = 'e2e/fixtures/people.csv';

/** axe-core's serious and critical findings on the whole page (WCAG 2.0/2.1 A and AA, best practice). */
async function seriousViolations(page: Page, state: string): Promise<string[]> {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${state}: ${violation.id} (${violation.impact}) ${violation.help}: ${violation.nodes
          .slice(0, 3)
          .map((node) => node.target.join(' '))
          .join(' | ')}`,
    );
}

/**
 * Charts (every element marked data-chart) without a text alternative: one needs an accessible
 * name with numbers in it (on itself or inside it), or a table of its numbers.
 */
async function chartsWithoutText(page: Page): Promise<string[]> {
  return page.locator('[data-chart]').evaluateAll((charts) =>
    charts
      .filter((chart) => {
        const labelled = [chart, ...Array.from(chart.querySelectorAll('[aria-label]'))].some((element) =>
          /\d/.test(element.getAttribute('aria-label') ?? ''),
        );
        const table = chart.querySelector('table, [role="table"]') !== null;
        return !labelled && !table;
      })
      .map((chart) => `${chart.getAttribute('data-chart')}: ${chart.outerHTML.slice(0, 100)}`),
  );
}

test('axe finds no serious or critical problem in any step, empty, loaded, running, with results or errors; every chart has a text alternative', async ({
  page,
}) => {
  // About a minute on an idle two-core machine; axe scans of the full results page are the slow part.
  test.setTimeout(360_000);
  const studio = new StudioPage(page);
  const found: string[] = [];
  const charts: string[] = [];
  const kinds = new Set<string>();
  const scan = async (state: string) => {
    found.push(...(await seriousViolations(page, state)));
    charts.push(...(await chartsWithoutText(page)).map((chart) => `${state}: ${chart}`));
    for (const kind of await page
      .locator('[data-chart]')
      .evaluateAll((all) => all.map((c) => c.getAttribute('data-chart'))))
      kinds.add(kind!);
  };

  await studio.open();
  await scan('empty');
  await studio.data.pickCsvFile('e2e/fixtures/malformed.csv');
  await studio.data.expectLoadError(/^malformed\.csv/);
  await scan('data: load error');

  await studio.data.dropCsv('people.csv', await readFile(PEOPLE_CSV, 'utf8'));
  await studio.data.expectLoaded('people.csv', 400);
  await scan('data and schema: loaded, facts inferred');
  // Bounds narrower than the data: the schema step counts the values outside.
  await studio.schema.declareBounds('age', 30, 40);
  await studio.schema.expectOutsideDomain('age', /\d/);
  await scan('schema: values outside the declared domain');
  await studio.schema.declareBounds('age', 16, 95);
  await studio.schema.declareBounds('income', 0, 150000);
  await studio.schema.declareAllPublic();

  await studio.mechanism.pick('laplace-histogram');
  await studio.mechanism.setEpsilon('-1');
  await expect(studio.run.section.getByRole('button', { name: /^Run / })).toBeDisabled();
  await scan('mechanism: invalid ε');
  await studio.mechanism.setEpsilon('1');

  await studio.tune.sweep();
  await studio.tune.expectPoints(8);
  await studio.compare.tick(['laplace-histogram', 'dp-marginals']);
  await studio.compare.compare();
  await studio.compare.expectFinished(2);
  await scan('tune and compare: results');

  // A long run (tens of seconds), scanned while it runs, then cancelled. On a loaded machine the scan
  // itself can take as long as the run: whichever way it ends, the state it ends in is scanned.
  await studio.mechanism.setParam('Bins per numeric column', '1000');
  await studio.mechanism.setReleases(10);
  await studio.run.start();
  await expect(studio.run.progress).toContainText(/release 1 of 10/, { timeout: 30_000 });
  await scan('run: running');
  await studio.run.section
    .getByRole('button', { name: 'Cancel run' })
    .click({ timeout: 5_000 })
    .catch(() => undefined);
  await expect(studio.run.status).toContainText(/Run cancelled|Done:/, { timeout: 120_000 });
  await scan('run: cancelled or done');

  await studio.mechanism.setParam('Bins per numeric column', '10');
  await studio.mechanism.setReleases(2);
  await studio.run.start();
  await studio.run.expectFinished();
  await studio.results.expectFullEvaluation();
  await studio.results.compareRegression('income', 2);
  await studio.results.combineReleasesForMean('income');
  for (const toggle of await page.locator('.chart-numbers summary').all()) await toggle.click();
  await scan('results: full evaluation, regression, inference, number tables open');

  await studio.exports.downloadReleaseCsv(1, 2);
  await studio.exports.downloadReleaseReport();
  await scan('export: after downloads');
  await saveStepScreenshot(page, 'accessibility-results', 'step-results');
  // Real and synthetic bars: solid and hatched, named in the legend.
  const marginals = page.getByTestId('panel-marginals');
  await marginals.screenshot({ path: test.info().outputPath('real-vs-synthetic.png') });

  expect(found, 'serious or critical axe findings').toEqual([]);
  expect(charts, 'charts without a text alternative').toEqual([]);
  // Every kind of chart of these steps was on the page for the check (the MCMC ones: the next test).
  expect([...kinds].sort()).toEqual([
    'coefficients',
    'column-histogram',
    'compare',
    'marginal',
    'matrix',
    'pair-heatmap',
    'propensity',
    'scores',
    'sweep',
  ]);
});

test('the whole journey works from the keyboard: Tab to move, Space and Enter to act', async ({ page }) => {
  const studio = new StudioPage(page);
  await studio.open();

  // The file chooser opens with Space on the focused file input.
  const fileInput = studio.data.section.locator('input[type="file"]');
  const chooser = await openFileChooser(page, async () => {
    await tabTo(page, fileInput);
    await page.keyboard.press('Space');
  });
  await chooser.setFiles(PEOPLE_CSV);
  await studio.data.expectLoaded('people.csv', 400);

  await tabTo(
    page,
    studio.schema.inferredBanner.getByRole('button', { name: 'I declare all of these public' }),
  );
  await page.keyboard.press('Enter');
  await expect(studio.schema.inferredBanner).toBeHidden();

  // Radio buttons form one tab stop; the arrow keys move within the group.
  // The catalogue's own radio group (the step has others: the goal question, the neighbouring relation).
  const catalogue = studio.mechanism.section.getByRole('group', { name: 'Mechanism', exact: true });
  const radio = catalogue.getByRole('radio', { name: /Laplace histogram/ });
  await tabTo(page, catalogue.getByRole('radio').first());
  const mechanisms = await catalogue.getByRole('radio').count();
  for (let i = 0; i < mechanisms && !(await radio.isChecked()); i++) await page.keyboard.press('ArrowDown');
  await expect(radio).toBeChecked();

  const keepBack = studio.run.section.getByLabel(/Keep back 20% of the rows/);
  await tabTo(page, keepBack);
  await page.keyboard.press('Space');
  await expect(keepBack).toBeChecked();
  await tabTo(page, studio.run.section.getByRole('button', { name: /^Run / }));
  await page.keyboard.press('Enter');
  await studio.run.expectFinished();
  await studio.results.expectFullEvaluation();

  // A chart's numbers open with Enter on their toggle.
  const numbers = studio.results.section.locator('.chart-numbers').first();
  await tabTo(page, numbers.locator('summary'));
  await page.keyboard.press('Enter');
  await expect(numbers).toHaveAttribute('open', '');
  await expect(numbers.getByRole('table')).toBeVisible();

  const download = page.waitForEvent('download');
  await tabTo(page, studio.exports.section.getByRole('button', { name: 'Download synthetic CSV 1 of 1' }));
  await page.keyboard.press('Enter');
  expect((await download).suggestedFilename()).toMatch(/^synth_laplace-histogram_.*\.csv$/);
});

test('the MCMC charts of the pMSE mechanism, live and in the results, have text alternatives and pass axe', async ({
  page,
}) => {
  const studio = new StudioPage(page);
  const found: string[] = [];
  await studio.open();
  await studio.data.loadDemo('pMSE paper simulation');
  await studio.data.expectLoaded('pmse-simulation.csv', 5000);
  await studio.mechanism.pick('pmse-mechanism');
  // Long enough chains to be scanned while they run (a few seconds on two workers).
  await studio.mechanism.setParam('Burn-in iterations', '300');
  await studio.mechanism.setParam('Iterations after burn-in', '2000');
  await studio.mechanism.setParam('Iterations between released draws', '100');
  await studio.run.start();
  const live = page.getByTestId('live-mcmc');
  await expect(live.locator('polyline')).toHaveCount(4, { timeout: 30_000 });
  // Scanned while the chains run when they still do (the run may already have ended on a fast machine).
  found.push(...(await seriousViolations(page, 'run: live MCMC')));
  await expect(live.locator('[data-chart="live-trace"]').first()).toHaveAttribute(
    'aria-label',
    /Latest: chain 1: u \d/,
  );
  await studio.run.expectFinished(90_000);
  await expect(page.getByTestId('mcmc-numbers')).toBeVisible();
  found.push(...(await seriousViolations(page, 'results: MCMC diagnostics')));
  await expect(page.locator('[data-chart="mcmc-trace"]')).toHaveAttribute('aria-label', /chain 1: u \d/);
  expect(await chartsWithoutText(page)).toEqual([]);
  expect(found, 'serious or critical axe findings').toEqual([]);
});
