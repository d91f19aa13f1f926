import { SeededRng } from '../../src/core/rng/seeded-rng';
import { uniformInt } from '../../src/core/rng/uniform-int';

/**
 * A 93-row, 10-column table shaped like a small car catalogue (five numeric columns, one small
 * integer column, four categorical ones), generated from a seed: a small table on a large domain,
 * the case where noise on empty cells dominates the work. Returns CSV text.
 */
export function makeCarCsv(rows = 93, seed = 'car catalogue'): string {
  const rng = new SeededRng(seed);
  const pick = <T>(values: readonly T[]): T => values[uniformInt(rng, values.length)]!;
  const between = (lo: number, hi: number) => lo + (hi - lo) * rng.nextFloat();
  const lines = ['Price,MPG_city,EngineSize,Horsepower,Weight,Passengers,Origin,Cylinders,AirBags,Manual'];
  for (let i = 0; i < rows; i++) {
    const engine = between(1, 5.7);
    const horsepower = Math.round(Math.min(300, Math.max(55, 45 * engine + between(-20, 40))));
    const weight = Math.round(Math.min(4105, Math.max(1695, 1500 + 450 * engine + between(-200, 200))));
    const mpg = Math.round(Math.min(46, Math.max(15, 50 - 6 * engine + between(-3, 3))));
    const price = Math.min(62, Math.max(7, 4 + horsepower / 8 + between(-4, 6))).toFixed(1);
    const cylinders = engine < 1.6 ? pick(['3', '4']) : engine < 3 ? pick(['4', '5', '6']) : pick(['6', '8']);
    lines.push(
      [
        price,
        mpg,
        engine.toFixed(1),
        horsepower,
        weight,
        2 + uniformInt(rng, 7),
        pick(['USA', 'non-USA']),
        `c${cylinders}`,
        pick(['None', 'Driver only', 'Driver & Passenger']),
        pick(['Yes', 'No']),
      ].join(','),
    );
  }
  return lines.join('\n') + '\n';
}
