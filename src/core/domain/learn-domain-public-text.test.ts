/**
 * What learnDomain says in public (its warnings, and the steps the schema and every claim publish,
 * `what` included) may depend on public facts only: ε, δ, the grid, n and the declared facts. The
 * number of values present, m, is not public; a sentence that quoted it, or a warning raised from
 * it, would publish it without noise. Here tables that differ only in how many cells are missing
 * must give the same text.
 */
import { describe, expect, it } from 'vitest';
import { SeededRng } from '../rng/seeded-rng';
import { parseCsv } from '../table/csv-read';
import { inferSchema } from '../table/infer';
import type { Schema } from '../table/types';
import { learnDomain } from './learn-domain';

const N = 1000;

/** n = 1,000 rows; the first `missing` cells of both columns are empty, a third of x is fractional. */
function table(missing: number) {
  const rows = Array.from({ length: N }, (_, i) =>
    i < missing ? ',' : `${i % 3 === 0 ? `${i % 50}.5` : i % 50},${['a', 'b', 'c', 'rare'][i % 4]}`,
  );
  return parseCsv(['x,c', ...rows].join('\n'), { fileName: `missing-${missing}.csv` });
}

/** The types declared (numeric x, categorical c), everything else learned. */
function declaredTypes(): Schema {
  const start = inferSchema(table(0));
  return {
    ...start,
    columns: start.columns.map((c) => ({ ...c, sources: { type: 'declared' as const } })),
  };
}

describe('learnDomain public text', () => {
  it.each(['0.05', '0.5', '6', '80'])(
    'at ε = %s the warnings and steps are the same for 0, 1, 500, 990 and 1,000 missing cells',
    (epsilon) => {
      const schema = declaredTypes();
      const said = [0, 1, 500, 990, 1000].map((missing) => {
        const { steps, warnings } = learnDomain(
          table(missing),
          schema,
          { epsilon, delta: '1e-6', learnedAt: '2026-01-01T00:00:00Z', force: true },
          new SeededRng(`public text ${missing}`),
        );
        return { missing, steps, warnings };
      });
      // The facts learned are the bounds, the flag and the list, each with its own step.
      expect(said[0]!.steps.map((s) => s.fact)).toEqual(['x.lower', 'x.upper', 'x.integer', 'c.categories']);
      for (const { missing, steps, warnings } of said.slice(1)) {
        expect(steps, `${missing} missing`).toEqual(said[0]!.steps);
        expect(warnings, `${missing} missing`).toEqual(said[0]!.warnings);
      }
    },
  );

  it('gives warnings at small ε that the same test compares (so it compares something)', () => {
    const { warnings, steps } = learnDomain(
      table(0),
      declaredTypes(),
      { epsilon: '0.05', delta: '1e-6', force: true },
      new SeededRng('public text warnings'),
    );
    // Forced below the plan's floors: one warning naming the facts, and each step says so.
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain("learned below the plan's floors (forced): x.lower: about");
    expect(steps.every((s) => s.what.includes("learned below the plan's floor (forced)"))).toBe(true);
  });
});
