import { describe, expect, it } from 'vitest';
import type { Schema } from '../../../table/types';
import { planBinnedDomain } from './binned-domain';
import { DOMAIN_CELL_LIMIT } from '../coding/column-coding';

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

describe('planBinnedDomain: when the cell limit applies', () => {
  const fixed = (bins: number) => ({ ...scott, rule: 'fixed' as const, fixedBins: bins });
  const wide = { ...scott, perColumn: { a: 1000, b: 1000, c: 1000 } };

  it('checks the limit only for a cross-tabulation whose size is known', () => {
    // 1001³ · 81 · 7 cells: too many once n is known (or the bins are fixed), not checked before.
    expect(planBinnedDomain(schema, wide, undefined, true).problems).toEqual([]);
    expect(planBinnedDomain(schema, wide, 100, true).problems[0]).toMatch(/more than the limit/);
    expect(planBinnedDomain(schema, fixed(80), undefined, true).problems[0]).toMatch(/more than the limit/);
    expect(planBinnedDomain(schema, fixed(80), 100, false).problems).toEqual([]);
  });

  it('refuses a schema without columns', () => {
    expect(planBinnedDomain({ ...schema, columns: [] }, scott, 100, true).problems).toEqual([
      'the schema has no columns to synthesize.',
    ]);
  });

  it('does not lower the default for a plan that has problems of its own', () => {
    const domain = planBinnedDomain(schema, { ...scott, perColumn: { zzz: 5 } }, 100_000, true);
    expect(domain.scottLowered).toBeUndefined();
    expect(domain.problems[0]).toBe('columnBins names `zzz`, which is not in the schema.');
  });

  it('lowers down to a single bin when only that fits', () => {
    // 14 numeric columns and one of 7 levels: 2¹⁴ · 7 = 114,688 cells fit, 3¹⁴ · 7 = 33,480,783 do not.
    const many: Schema = {
      ...schema,
      columns: [
        ...Array.from({ length: 14 }, (_, i) => ({
          name: `x${i}`,
          type: 'numeric' as const,
          bounds: [0, 1] as [number, number],
          source: 'declared' as const,
        })),
        schema.columns[4]!,
      ],
    };
    const domain = planBinnedDomain(many, scott, 100_000, true);
    expect(domain.scottLowered).toEqual({ scott: 80, cap: 1 });
    expect(domain.domainCells).toBe(114_688);
  });

  it('keeps a cross-tabulation of exactly the limit', () => {
    // One numeric column and a categorical one of 199,999 categories (200,000 levels). n = 188,000:
    // Scott's rule gives ceil(6 · 57.27 / 3.49) = 99 bins, 100 levels → 100 · 200,000 = 2e7 cells, the limit.
    const exact: Schema = {
      ...schema,
      columns: [
        schema.columns[0]!,
        {
          name: 'k',
          type: 'categorical',
          categories: Array.from({ length: 199_999 }, (_, i) => `c${i}`),
          source: 'declared',
        },
      ],
    };
    const atLimit = planBinnedDomain(exact, scott, 188_000, true);
    expect(atLimit.scottLowered).toBeUndefined();
    expect(atLimit.domainCells).toBe(DOMAIN_CELL_LIMIT);
    // n = 1,000,000: Scott gives 172 bins; the largest cap that fits is 99, again exactly the limit.
    const lowered = planBinnedDomain(exact, scott, 1_000_000, true);
    expect(lowered.scottLowered).toEqual({ scott: 172, cap: 99 });
    expect(lowered.domainCells).toBe(DOMAIN_CELL_LIMIT);
  });
});
