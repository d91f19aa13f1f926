// Learns the domain of the 189-row birth-weight table (e2e/fixtures/birthwt.csv) with nothing
// declared, over 20 seeds per ε, and prints one JSON object: per ε, whether the plan refuses, the
// ε it names, and over the seeds the share of types called right, the worst and median share of a
// column's values inside its learned bounds, and the share of categories held by >= 10 % of the rows
// that were listed. Run: npx tsx bench/domain-birthwt.bench.ts [ε …] (default 0.2 40 51)
import { readFileSync } from 'node:fs';
import { DomainPlanRefused, learnDomain } from '../src/core/domain/learn-domain';
import { SeededRng } from '../src/core/rng/seeded-rng';
import { parseCsv } from '../src/core/table/csv-read';
import { inferSchema } from '../src/core/table/infer';

const raw = parseCsv(readFileSync('e2e/fixtures/birthwt.csv', 'utf8'), { fileName: 'birthwt.csv' });
const schema = inferSchema(raw);
const truth = new Map(schema.columns.map((c) => [c.name, c.type]));
const SEEDS = 20;
const results: Record<string, unknown> = {};
for (const epsilon of process.argv.slice(2).length > 0 ? process.argv.slice(2) : ['0.2', '40', '51']) {
  const forced = epsilon.endsWith('!');
  const eps = forced ? epsilon.slice(0, -1) : epsilon;
  let typesRight = 0;
  let types = 0;
  const coverage: number[] = [];
  let listed = 0;
  let frequent = 0;
  let refused: string | null = null;
  let needed: number | null = null;
  for (let seed = 0; seed < SEEDS; seed++) {
    let learned;
    try {
      learned = learnDomain(
        raw,
        schema,
        { epsilon: eps, delta: '1e-6', force: forced },
        new SeededRng(`birthwt ${seed}`),
      );
    } catch (error) {
      if (!(error instanceof DomainPlanRefused)) throw error;
      refused = `${error.plan.failing.length} facts below their floors`;
      needed = error.plan.epsilonNeeded;
      break;
    }
    for (const column of learned.schema.columns) {
      types++;
      if (column.type === truth.get(column.name)) typesRight++;
      const j = raw.header.indexOf(column.name);
      const cells = raw.columns[j]!;
      if (truth.get(column.name) === 'numeric' && column.type === 'numeric' && column.bounds) {
        const [lo, hi] = column.bounds;
        coverage.push(cells.filter((c) => Number(c) >= lo && Number(c) <= hi).length / cells.length);
      }
      if (truth.get(column.name) === 'categorical') {
        const counts = new Map<string, number>();
        for (const c of cells) counts.set(c, (counts.get(c) ?? 0) + 1);
        for (const [value, count] of counts) {
          if (count < 0.1 * cells.length) continue;
          frequent++;
          if (column.type === 'categorical' && column.categories?.includes(value)) listed++;
        }
      }
    }
  }
  coverage.sort((a, b) => a - b);
  results[epsilon] = refused
    ? { refused, epsilonNeeded: needed }
    : {
        seeds: SEEDS,
        typesRight: typesRight / types,
        boundPairCoverage: {
          min: coverage[0],
          median: coverage[Math.floor(coverage.length / 2)],
          pairs: coverage.length,
        },
        pairsBelow95: coverage.filter((c) => c < 0.95).length,
        frequentCategoriesListed: listed / frequent,
      };
}
console.log(JSON.stringify(results));
