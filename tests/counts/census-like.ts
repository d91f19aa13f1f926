/**
 * A small census-shaped table for the count-source tests: an integer age, real hours, and categorical
 * sex, race (with an `(other)` level for unlisted values), education and income, with blanks, `NA`
 * and unlisted categories among the values. Deterministic (mulberry32 on a fixed seed).
 */
export const CENSUS_LIKE_SCHEMA = {
  version: 1,
  missing: ['', 'NA'],
  columns: [
    { name: 'age', type: 'numeric', bounds: [17, 90], integer: true, source: 'declared' },
    { name: 'hours', type: 'numeric', bounds: [1, 99], source: 'declared' },
    { name: 'sex', type: 'categorical', categories: ['F', 'M'], source: 'declared' },
    {
      name: 'race',
      type: 'categorical',
      categories: ['White', 'Black', 'Asian', 'Other', '(other)'],
      other: '(other)',
      source: 'declared',
    },
    {
      name: 'education',
      type: 'categorical',
      categories: ['HS', 'Some college', 'BA', 'MA', 'PhD'],
      source: 'declared',
    },
    { name: 'income', type: 'categorical', categories: ['<=50K', '>50K'], source: 'declared' },
  ],
};

function generator(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The rows as CSV text (header first). */
export function censusLikeCsv(rows: number, seed = 11): string {
  const random = generator(seed);
  const pick = <T>(values: readonly T[]) => values[Math.floor(random() * values.length)]!;
  const lines = ['age,hours,sex,race,education,income'];
  for (let i = 0; i < rows; i++) {
    const age = random() < 0.02 ? 'NA' : String(Math.round(12 + 85 * random() * random() + 10 * random()));
    const hours = random() < 0.02 ? '' : (0.5 + 100 * random()).toFixed(random() < 0.5 ? 0 : 2);
    const education = pick(['HS', 'HS', 'Some college', 'BA', 'MA', 'PhD', 'NA']);
    const income = education === 'PhD' || random() < 0.2 ? '>50K' : '<=50K';
    lines.push(
      [
        age,
        hours,
        pick(['F', 'M', 'M', '']),
        pick(['White', 'White', 'Black', 'Asian', 'Pacific', 'Other']),
        `"${education}"`,
        income,
      ].join(','),
    );
  }
  return `${lines.join('\n')}\n`;
}
