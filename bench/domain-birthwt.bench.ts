// Learns the domain of the 189-row birth-weight table (e2e/fixtures/birthwt.csv, or BIRTHWT_CSV, e.g.
// tests/fixtures/birthwt.csv, the MASS data) with nothing declared, over 20 seeds per ε, and prints
// one JSON object: per ε, whether the plan refuses, the ε it needs, and over the seeds the share of
// types called right, the worst and median share of a column's values inside its learned bounds, the
// pairs below 95 %, the bounds beyond all the data and those more than ten times the data's range
// beyond it, and the share of categories held by >= 10 % of the rows that were listed. An ε written
// with "!" (e.g. 40!) learns even where the plan refuses (--force).
// Run: npx tsx bench/domain-birthwt.bench.ts [ε …] (default 0.2 20 40 60)
import { readFileSync } from 'node:fs';
import { DomainPlanRefused, learnDomain } from '../src/core/domain/learn-domain';
import { SeededRng } from '../src/core/rng/seeded-rng';
import { parseCsv } from '../src/core/table/csv-read';
import { inferSchema } from '../src/core/table/infer';

const file = process.env.BIRTHWT_CSV ?? 'e2e/fixtures/birthwt.csv';
const raw = parseCsv(readFileSync(file, 'utf8'), { fileName: 'birthwt.csv' });
const schema = inferSchema(raw);
const truth = new Map(schema.columns.map((c) => [c.name, c.type]));
const SEEDS = 20;
const results: Record<string, unknown> = { file };
for (const epsilon of process.argv.slice(2).length > 0 ? process.argv.slice(2) : ['0.2', '20', '40', '60']) {
  const forced = epsilon.endsWith('!');
  const eps = forced ? epsilon.slice(0, -1) : epsilon;
  let typesRight = 0;
  let types = 0;
  const coverage: number[] = [];
  let listed = 0;
  let frequent = 0;
  let beyondData = 0;
  let farBeyond = 0;
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
    needed = learned.plan.epsilonNeeded;
    for (const column of learned.schema.columns) {
      types++;
      if (column.type === truth.get(column.name)) typesRight++;
      const j = raw.header.indexOf(column.name);
      const cells = raw.columns[j]!;
      if (truth.get(column.name) === 'numeric' && column.type === 'numeric' && column.bounds) {
        const [lo, hi] = column.bounds;
        coverage.push(cells.filter((c) => Number(c) >= lo && Number(c) <= hi).length / cells.length);
        const values = cells.map(Number);
        const min = Math.min(...values);
        const max = Math.max(...values);
        // Beyond all the data: past the grid value just outside its extreme (a readable bound at
        // the extreme's own cell edge is not counted).
        if (lo < min / 1.25 - 1 || hi > max * 1.25 + 1) beyondData++;
        if (lo < min - 10 * (max - min) || hi > max + 10 * (max - min)) farBeyond++;
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
        epsilonNeeded: needed,
        typesRight: typesRight / types,
        boundPairCoverage: {
          min: coverage[0],
          median: coverage[Math.floor(coverage.length / 2)],
          pairs: coverage.length,
        },
        pairsBelow95: coverage.filter((c) => c < 0.95).length,
        pairsWithABoundWellBeyondTheData: beyondData,
        pairsWithABoundTenRangesBeyond: farBeyond,
        frequentCategoriesListed: listed / frequent,
      };
}
console.log(JSON.stringify(results));
