/**
 * Deterministic test tables for the browser tests (not data of anyone): a 32-bit LCG
 * (Numerical Recipes constants a = 1664525, c = 1013904223) drives every value, so the
 * same call always yields the same file.
 */
export function makePeopleCsv(rows: number, seed = 12345): string {
  let state = seed >>> 0;
  const next = () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
  const regions = ['North', 'South', 'East', 'West'];
  // "@phone" exercises formula escaping on export: a cell starting with @ must come out as '@phone.
  const channels = ['web', 'store', '@phone'];
  const lines = ['age,income,sex,region,channel'];
  for (let i = 0; i < rows; i++) {
    const age = 18 + Math.floor(next() * 73);
    const income = next() < 0.05 ? '' : (20000 + next() * 80000 + age * 300).toFixed(2);
    const sex = next() < 0.5 ? 'F' : 'M';
    const region = regions[Math.floor(next() * regions.length)]!;
    const channel = channels[Math.floor(next() * channels.length)]!;
    lines.push(`${age},${income},${sex},${region},${channel}`);
  }
  return `${lines.join('\n')}\n`;
}
