import { describe, expect, it } from 'vitest';
import type { Schema } from '../../table/types';
import { planBinnedDomain } from './binned-domain';
import { DOMAIN_CELL_LIMIT } from './column-coding';

/** Four bounded real columns and one 6-level categorical: the shape of an ordinary mixed table. */
const schema: Schema = {
  version: 1,
  columns: [
    ...['a', 'b', 'c', 'd'].map((name) => ({
      name,
      type: 'numeric' as const,
      bounds: [0, 100] as [number, number],
      source: 'declared' as const,
    })),
    { name: 'k', type: 'categorical', categories: ['1', '2', '3', '4', '5', '6'], source: 'declared' },
  ],
  missing: [''],
};
const scott = { rule: 'scott' as const, fixedBins: 0, perColumn: {}, problems: [] };

describe('planBinnedDomain: the default bin count fits the cell limit', () => {
  it("lowers Scott's count evenly to the largest cap that fits (n = 10,000)", () => {
    // Scott: ceil(6 · 10000^(1/3) / 3.49) = ceil(37.04) = 38 bins → 39⁴ · 7 = 16,194,087 cells: fits.
    expect(planBinnedDomain(schema, scott, 10_000, true).scottLowered).toBeUndefined();
    // n = 100,000: ceil(6 · 46.416 / 3.49) = 80 bins → 81⁴ · 7 ≈ 3.01e8 > 2e7. The largest cap c with
    // (c + 1)⁴ · 7 ≤ 2e7 is 40 (41⁴ · 7 = 19,780,327; 42⁴ · 7 = 21,781,872).
    const domain = planBinnedDomain(schema, scott, 100_000, true);
    expect(domain.problems).toEqual([]);
    expect(domain.scottLowered).toEqual({ scott: 80, cap: 40 });
    expect(domain.domainCells).toBe(19_780_327);
    expect(domain.domainCells).toBeLessThanOrEqual(DOMAIN_CELL_LIMIT);
  });

  it('leaves columns with a bin count of their own alone', () => {
    const domain = planBinnedDomain(schema, { ...scott, perColumn: { a: 5 } }, 100_000, true);
    const levels = Object.fromEntries(domain.codings.map((coding) => [coding.name, coding.levels]));
    expect(levels.a).toBe(6);
    // (c + 1)³ · 6 · 7 ≤ 2e7 → c + 1 ≤ 78.1 → c = 77.
    expect(domain.scottLowered).toEqual({ scott: 80, cap: 77 });
    expect(levels.b).toBe(78);
  });

  it('never changes an explicit bin count, nor a mechanism without a cross-tabulation', () => {
    const fixed = planBinnedDomain(schema, { ...scott, rule: 'fixed', fixedBins: 80 }, 100_000, true);
    expect(fixed.scottLowered).toBeUndefined();
    expect(fixed.problems[0]).toMatch(/more than the limit of 20,000,000/);
    expect(planBinnedDomain(schema, scott, 100_000, false).codings[0]!.levels).toBe(81);
  });
});
