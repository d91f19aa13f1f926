import { readFile } from 'node:fs/promises';
import { StudioPage } from './pages/studio-page';
import { expect, test } from './support/test';

const PEOPLE_CSV = 'e2e/fixtures/people.csv';
const COLUMNS = ['age', 'income', 'sex', 'region', 'channel'];

interface Report {
  schema: {
    columns: { name: string; source: string; sources?: unknown; bounds?: unknown; categories?: unknown }[];
    domainBudget: { epsilon: string; delta: string; steps: { fact: string }[] };
  };
  claim: {
    notion: string;
    epsilon: number;
    delta: number;
    steps: { what: string; epsilon: number }[];
    composedOf: { domain: { epsilon: number; delta: number }; mechanism: { epsilon: number } };
  };
  cumulative: { epsilon: number; delta: number };
}

test('a CSV with nothing declared goes from drop to export with every fact learned with DP and a claim that includes it', async ({
  page,
}) => {
  const studio = new StudioPage(page);
  await studio.open();
  await studio.data.dropCsv('people.csv', await readFile(PEOPLE_CSV, 'utf8'));
  await studio.data.expectLoaded('people.csv', 400);

  // Nothing declared: learn every column privately (ε = 20 over 5 columns on 400 rows, δ = 0.001).
  await studio.schema.learnAllPrivately('20', '0.001');
  for (const name of COLUMNS) await expect(studio.schema.columnBadge(name)).toHaveText('dp');
  // The learning was seen: the ledger counts it once.
  await studio.mechanism.pick('laplace-histogram');
  const summary = studio.mechanism.section.getByTestId('ledger-summary');
  await expect(summary).toContainText(
    'Spent on this dataset so far: ε = 20, δ = 0.001 over 1 domain learning',
  );

  // The claim before the run states the domain steps and a total that includes them.
  await studio.mechanism.setEpsilon('1');
  await studio.mechanism.expectClaimEpsilon('21');
  await expect(studio.mechanism.claimPanel).toContainText('learning the domain: lower bound of `age`');
  await expect(studio.mechanism.section.getByTestId('domain-budget-summary')).toContainText(
    'cost ε = 20, δ = 0.001; this run adds ε = 1, so its claim states ε = 21, δ = 0.001 in total',
  );

  await studio.run.start();
  await studio.run.expectFinished();
  await studio.results.expectChartsFor(COLUMNS);
  await expect(summary).toContainText('ε = 21, δ = 0.001 over 1 run and 1 domain learning');

  const report = JSON.parse((await studio.exports.downloadReleaseReport()).text) as Report;
  // Every fact is dp, published (a DP output) with the budget that paid for it.
  expect(report.schema.columns.map((c) => [c.name, c.source, c.sources])).toEqual(
    COLUMNS.map((name) => [name, 'dp', undefined]),
  );
  expect(JSON.stringify(report.schema.columns)).not.toContain('withheld');
  // The plan rounds each fact's share down: the learning spends at most ε = 20, within rounding of it.
  expect(report.schema.domainBudget).toMatchObject({ delta: '0.001' });
  expect(Number(report.schema.domainBudget.epsilon)).toBeLessThanOrEqual(20);
  expect(Number(report.schema.domainBudget.epsilon)).toBeGreaterThan(20 - 1e-9);
  const domainSteps = report.claim.steps.filter((s) => s.what.startsWith('learning the domain: '));
  expect(domainSteps).toHaveLength(report.schema.domainBudget.steps.length);
  expect(report.claim).toMatchObject({
    notion: 'approx-dp',
    epsilon: 21,
    delta: 0.001,
    composedOf: { domain: { epsilon: 20, delta: 0.001 }, mechanism: { epsilon: 1 } },
  });
  // Each step's ε is printed rounded up to 6 significant digits (shares follow need, so they are not
  // round numbers): the printed steps add up to at least the exact total, and to less than one unit in
  // the 6th digit of each step above it.
  const sum = report.claim.steps.reduce((s, step) => s + step.epsilon, 0);
  const slack = report.claim.steps.reduce((s, step) => s + step.epsilon * 1e-5, 0);
  expect(sum).toBeGreaterThan(21 - 1e-9);
  expect(sum).toBeLessThanOrEqual(21 + slack);
  expect(report.cumulative).toMatchObject({ epsilon: 21, delta: 0.001 });
});

test('the plan beside ε: it refuses a budget too small for 189 rows, keeps the button off with the reason, and allows the ε it names', async ({
  page,
}) => {
  const studio = new StudioPage(page);
  await studio.open();
  await studio.data.dropCsv('birthwt.csv', await readFile('e2e/fixtures/birthwt.csv', 'utf8'));
  await studio.data.expectLoaded('birthwt.csv', 189);

  const panel = studio.schema.section.getByTestId('learn-domain');
  const button = panel.getByRole('button', { name: /Learn these 10 domains privately/ });
  await panel.getByLabel('ε for learning').fill('0.2');
  await panel.getByLabel('δ for learning').fill('1e-6');
  // The plan: one row per fact with its share of ε and its predicted quality.
  const plan = panel.getByTestId('domain-plan');
  await expect(plan.getByRole('table')).toContainText('The plan for 189 rows');
  await expect(plan.getByRole('row', { name: /bwt\.lower \(if numeric\)/ })).toContainText('below floor');
  // Refused: the button stays off and says why, with the ε that would do.
  const status = panel.getByTestId('domain-plan-status');
  await expect(status).toContainText(
    'Learning is off: ε = 0.2 is too small to learn this domain on 189 rows',
  );
  await expect(button).toBeDisabled();
  await expect(button).toHaveAccessibleDescription(/too small to learn this domain/);
  const needed = /spend ε = ([\d.]+) with this split/.exec((await status.textContent()) ?? '')![1]!;

  // The plan follows ε as it is typed: at the ε it named, every fact meets its floor.
  await panel.getByLabel('ε for learning').fill(needed);
  await expect(status).toHaveText('Every fact meets its floor at this budget.');
  await expect(plan.getByRole('row', { name: /bwt\.lower \(if numeric\)/ })).toContainText('ok');
  await expect(button).toBeEnabled();
  // Nothing was learned while planning: every column is still as inferred.
  for (const name of ['low', 'bwt']) await expect(studio.schema.columnBadge(name)).toHaveText('inferred');
});
