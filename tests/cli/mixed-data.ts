/**
 * A deterministic 8-column mixed CSV (4 numeric, 4 categorical, some missing values) of n rows,
 * made from a small linear congruential generator so the file is the same on every machine.
 */
export function mixedCsv(n: number): string {
  let state = 12345;
  const next = () => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return state / 2 ** 32;
  };
  const regions = ['north', 'south', 'east', 'west'];
  const education = ['none', 'primary', 'secondary', 'tertiary', 'doctorate'];
  const lines = ['age,income,hours,score,sex,region,education,smoker'];
  for (let i = 0; i < n; i++) {
    const age = 18 + Math.floor(next() * 72);
    const income = next() < 0.05 ? '' : (20000 + next() * 80000 + age * 300).toFixed(2);
    const hours = Math.floor(next() * 60);
    const score = (next() * 10 - 5).toFixed(3);
    const sex = next() < 0.5 ? 'F' : 'M';
    const region = regions[Math.floor(next() * 4)];
    const edu = next() < 0.03 ? 'NA' : education[Math.floor(next() * 5)];
    const smoker = next() < 0.2 ? 'yes' : 'no';
    lines.push([age, income, hours, score, sex, region, edu, smoker].join(','));
  }
  return `${lines.join('\n')}\n`;
}

/** The declared schema of mixedCsv. */
export const MIXED_SCHEMA = {
  version: 1,
  columns: [
    { name: 'age', type: 'numeric', bounds: [18, 90], integer: true, source: 'declared' },
    { name: 'income', type: 'numeric', bounds: [0, 150000], source: 'declared' },
    { name: 'hours', type: 'numeric', bounds: [0, 80], integer: true, source: 'declared' },
    { name: 'score', type: 'numeric', bounds: [-5, 5], source: 'declared' },
    { name: 'sex', type: 'categorical', categories: ['F', 'M'], source: 'declared' },
    {
      name: 'region',
      type: 'categorical',
      categories: ['east', 'north', 'south', 'west'],
      source: 'declared',
    },
    {
      name: 'education',
      type: 'categorical',
      categories: ['doctorate', 'none', 'primary', 'secondary', 'tertiary'],
      source: 'declared',
    },
    { name: 'smoker', type: 'categorical', categories: ['no', 'yes'], source: 'declared' },
  ],
  missing: ['', 'NA', 'NaN', 'null'],
};
