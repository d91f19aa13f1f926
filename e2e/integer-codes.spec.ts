import { computePmse } from '../src/core/metrics/pmse';
import { SeededRng } from '../src/core/rng/seeded-rng';
import { buildTable, inferSchema, parseCsv } from '../src/core/table';
import { StudioPage } from './pages/studio-page';
import { expect, test } from './support/test';

/**
 * An integer-coded table of 2,000 rows, census-shaped: age 17–90, a 0–8 work class, a 0–99 capital
 * gain that is 0 for about 92 % of rows, hours 1–99 and a 0/1 income flag, no missing values. A
 * fixed linear congruential sequence makes it the same on every run.
 */
function integerCodedCsv(rows: number): string {
  let state = 20_240_601;
  const next = () => {
    state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0;
    return state / 2 ** 32;
  };
  const lines = ['age,workclass,capital-gain,hours,income'];
  for (let i = 0; i < rows; i++) {
    const age = 17 + Math.floor(next() * 74);
    const workclass = Math.floor(next() * next() * 9);
    const gain = next() < 0.92 ? 0 : 1 + Math.floor(next() * 99);
    const hours = Math.min(99, Math.max(1, Math.round(40 + (next() - 0.5) * 40)));
    const income = next() < 0.2 + (gain > 0 ? 0.5 : 0) ? 1 : 0;
    lines.push([age, workclass, gain, hours, income].join(','));
  }
  return `${lines.join('\n')}\n`;
}

test('an integer-coded table runs MST with the default δ, keeps whole zero-heavy values, and the headline pMSE matches the metric on the downloaded CSV', async ({
  page,
}) => {
  const csv = integerCodedCsv(2000);
  const studio = new StudioPage(page);
  await studio.open();
  await studio.data.dropCsv('codes.csv', csv);
  await studio.data.expectLoaded('codes.csv', 2000);

  // The Schema step points out the columns that look like codes; capital gain (100 values) does not.
  await expect(studio.schema.column('workclass').getByTestId('code-hint')).toContainText('look like codes');
  await expect(studio.schema.column('income').getByTestId('code-hint')).toBeVisible();
  await expect(studio.schema.column('capital-gain').getByTestId('code-hint')).toHaveCount(0);
  await expect(
    studio.schema.column('age').getByRole('checkbox', { name: 'can be missing' }),
  ).not.toBeChecked();
  // One click makes workclass categorical, its codes 0 … 8 the categories.
  await studio.schema
    .column('workclass')
    .getByRole('button', { name: /Make it categorical \(9 codes\)/ })
    .click();
  await expect(studio.schema.column('workclass').getByLabel('Type')).toHaveValue('categorical');
  await expect(studio.schema.column('workclass').getByTestId('code-hint')).toHaveCount(0);

  // Otherwise the inferred schema is accepted as it is; δ is not typed: the default applies, with its reason.
  await studio.mechanism.pick('mst');
  await studio.mechanism.setEpsilon('1');
  await expect(studio.mechanism.section.getByTestId('delta-default')).toContainText(
    'the default δ = 1e-9 applies',
  );
  await studio.run.start();
  await studio.run.expectFinished(120_000);
  await studio.results.expectFullEvaluation(120_000);
  const shown = Number(await studio.results.section.getByTestId('headline-pmse').textContent());

  const synthetic = await studio.exports.downloadReleaseCsv(1, 1);
  const rows = synthetic.text.trim().split('\n');
  expect(rows).toHaveLength(2001);
  const gain = rows[0]!.split(',').indexOf('capital-gain');
  const gains = rows.slice(1).map((row) => row.split(',')[gain]!);
  // Whole numbers, never missing (the column is complete), and zero about as often as in the data
  // (one level per integer): 92 % ± 5 points covers the DP noise of MST at ε = 1 on 2,000 rows.
  expect(gains.every((value) => /^\d+$/.test(value))).toBe(true);
  const zeros = gains.filter((value) => value === '0').length / gains.length;
  expect(Math.abs(zeros - 0.92)).toBeLessThan(0.05);

  // The same pMSE computed outside the page: the core metric (CART, synthpop's defaults) in this
  // process, on the real CSV and the downloaded one.
  const real = parseCsv(csv, { fileName: 'real.csv' });
  const synth = parseCsv(synthetic.text, { fileName: 'synth.csv' });
  // As in the studio: workclass categorical with the codes 0 … 8, the rest as inferred.
  const inferred = inferSchema([real, synth]);
  const schema = {
    ...inferred,
    columns: inferred.columns.map((column) =>
      column.name === 'workclass'
        ? {
            name: 'workclass',
            type: 'categorical' as const,
            categories: Array.from({ length: 9 }, (_, code) => String(code)),
            source: 'declared' as const,
          }
        : column,
    ),
  };
  const pmse = computePmse(
    buildTable(real, schema).table,
    buildTable(synth, schema).table,
    { model: 'cart', permutations: 0 },
    new SeededRng('integer-codes'),
  ).value;
  // The page shows three significant digits.
  expect(shown).toBe(Number(pmse.toPrecision(3)));
});
