// Writes public/demo/penguins.csv and public/demo/penguins.schema.json from the Palmer
// penguins table shipped in the vega-datasets package (node_modules/vega-datasets/data/penguins.json).
// Source: Horst, Hill & Gorman (2020), palmerpenguins; data by K. Gorman and the Palmer Station
// Antarctica LTER. Licence CC0 1.0 (vega-datasets' datapackage.json, resource "penguins").
// Run: node scripts/make-demo-penguins.mjs
import { readFileSync, writeFileSync } from 'node:fs';

const packageDir = 'node_modules/vega-datasets';
const datapackage = JSON.parse(readFileSync(`${packageDir}/datapackage.json`, 'utf8'));
const resource = datapackage.resources.find((r) => r.name === 'penguins');
const licence = resource.licenses.map((l) => l.name).join(', ');
if (!licence.includes('CC0')) throw new Error(`Unexpected penguins licence in vega-datasets: ${licence}`);
const rows = JSON.parse(readFileSync(`${packageDir}/data/penguins.json`, 'utf8'));

const columns = [
  'Species',
  'Island',
  'Beak Length (mm)',
  'Beak Depth (mm)',
  'Flipper Length (mm)',
  'Body Mass (g)',
  'Sex',
];
const quote = (text) => (/[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text);
// A missing value (null in the JSON) becomes an empty cell. The one "." in Sex is kept as it is in
// the source: the declared schema lists FEMALE and MALE only, so the studio counts it as undeclared.
const cell = (value) => (value === null || value === undefined ? '' : quote(String(value)));
const lines = [
  columns.map(quote).join(','),
  ...rows.map((row) => columns.map((c) => cell(row[c])).join(',')),
];
writeFileSync('public/demo/penguins.csv', `${lines.join('\n')}\n`);

// Declared domain: public knowledge about the species (ranges wide enough for any adult Pygoscelis
// penguin), not read from these rows.
const schema = {
  version: 1,
  columns: [
    {
      name: 'Species',
      type: 'categorical',
      categories: ['Adelie', 'Chinstrap', 'Gentoo'],
      source: 'declared',
    },
    { name: 'Island', type: 'categorical', categories: ['Biscoe', 'Dream', 'Torgersen'], source: 'declared' },
    { name: 'Beak Length (mm)', type: 'numeric', bounds: [30, 60], source: 'declared' },
    { name: 'Beak Depth (mm)', type: 'numeric', bounds: [13, 22], source: 'declared' },
    { name: 'Flipper Length (mm)', type: 'numeric', bounds: [170, 235], integer: true, source: 'declared' },
    { name: 'Body Mass (g)', type: 'numeric', bounds: [2500, 6500], integer: true, source: 'declared' },
    { name: 'Sex', type: 'categorical', categories: ['FEMALE', 'MALE'], source: 'declared' },
  ],
  missing: ['', 'NA', 'NaN', 'null'],
};
writeFileSync('public/demo/penguins.schema.json', `${JSON.stringify(schema, null, 2)}\n`);
console.log(`penguins.csv: ${rows.length} rows; licence ${licence}`);
